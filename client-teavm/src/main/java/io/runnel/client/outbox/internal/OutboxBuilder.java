package io.runnel.client.outbox.internal;

import io.runnel.client.OptimisticWrites;
import io.runnel.client.outbox.Credentials;
import io.runnel.client.port.DurableStore;
import io.runnel.client.port.HttpPort;
import io.runnel.client.port.Ids;
import io.runnel.client.port.JsonPort;
import io.runnel.client.port.Scheduler;
import io.runnel.client.port.Tabs;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Builds an {@link Outbox}: the ports, the writes seam and the base URL are required. */
public final class OutboxBuilder {
  @Nullable HttpPort http;
  @Nullable DurableStore store;
  @Nullable JsonPort json;
  @Nullable Ids ids;
  @Nullable Scheduler scheduler;
  @Nullable OptimisticWrites writes;
  @Nullable String baseUrl;
  Credentials credentials = Credentials.cookie();
  MutatorRegistry registry = MutatorRegistry.create();
  Runnable beatSoon = () -> {};
  Tabs tabs = Tabs.alone();
  long retentionMillis = Outbox.DEFAULT_RETENTION_MILLIS;
  long retryBaseMillis = 1_000;
  long retryCapMillis = 30_000;

  OutboxBuilder() {}

  /** The node's origin, such as {@code https://app.example.com}; calls go to {@code <base>/v1/mutate/<name>}. */
  public OutboxBuilder baseUrl(String baseUrl) {
    this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
    return this;
  }

  /** The HTTP port. */
  public OutboxBuilder http(HttpPort http) {
    this.http = Objects.requireNonNull(http, "http");
    return this;
  }

  /** The durable store the queue is written to. */
  public OutboxBuilder store(DurableStore store) {
    this.store = Objects.requireNonNull(store, "store");
    return this;
  }

  /** The JSON text port. */
  public OutboxBuilder json(JsonPort json) {
    this.json = Objects.requireNonNull(json, "json");
    return this;
  }

  /** The random-id port, for idempotency keys. */
  public OutboxBuilder ids(Ids ids) {
    this.ids = Objects.requireNonNull(ids, "ids");
    return this;
  }

  /** The scheduler: retry timers and the clock. */
  public OutboxBuilder scheduler(Scheduler scheduler) {
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    return this;
  }

  /** The record store's overlay, which runs twins and settles answered writes. */
  public OutboxBuilder writes(OptimisticWrites writes) {
    this.writes = Objects.requireNonNull(writes, "writes");
    return this;
  }

  /** Where identity comes from; {@link Credentials#cookie()} by default. */
  public OutboxBuilder credentials(Credentials credentials) {
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    return this;
  }

  /** The app's mutator refs, for calls by name and entries read back after a reload; empty by default. */
  public OutboxBuilder registry(MutatorRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    return this;
  }

  /** Asks the live client to send {@code hello} soon, so an answered write settles by LSN quickly. */
  public OutboxBuilder beatSoon(Runnable beatSoon) {
    this.beatSoon = Objects.requireNonNull(beatSoon, "beatSoon");
    return this;
  }

  /**
   * The page's sibling tabs ({@link Tabs#alone()} by default): the tab that holds a principal's lock drains its
   * queue, and every tab hears of each entry stored and each outcome.
   */
  public OutboxBuilder tabs(Tabs tabs) {
    this.tabs = Objects.requireNonNull(tabs, "tabs");
    return this;
  }

  /**
   * The node's idempotency retention (24 h by default): an entry older than this is failed as {@code
   * X_OFFLINE_QUEUE_ABANDONED}, never replayed.
   *
   * @throws IllegalArgumentException when under one minute, the node's own floor
   */
  public OutboxBuilder retentionMillis(long retentionMillis) {
    if (retentionMillis < 60_000) {
      throw new IllegalArgumentException("The idempotency retention is at least one minute: " + retentionMillis);
    }
    this.retentionMillis = retentionMillis;
    return this;
  }

  /**
   * The retry backoff: {@code baseMillis} after the first failure, doubling up to {@code capMillis}.
   *
   * @throws IllegalArgumentException when base is not positive or the cap is below the base
   */
  public OutboxBuilder retryBackoff(long baseMillis, long capMillis) {
    if (baseMillis <= 0 || capMillis < baseMillis) {
      throw new IllegalArgumentException("Backoff needs 0 < base <= cap: " + baseMillis + ", " + capMillis);
    }
    this.retryBaseMillis = baseMillis;
    this.retryCapMillis = capMillis;
    return this;
  }

  /**
   * The outbox; call {@link Outbox#principal} to sign in before the first call.
   *
   * @throws NullPointerException when a port, the writes seam or the base URL is missing
   */
  public Outbox build() {
    return new Outbox(this);
  }
}
