package io.runnel.client.live.internal;

import io.runnel.client.live.SyncEndpoint;
import io.runnel.client.port.JsonPort;
import io.runnel.client.port.Scheduler;
import io.runnel.client.port.SocketPort;
import io.runnel.client.store.internal.RecordStore;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;

/** Collects a {@link LiveClient}'s ports and settings. */
public final class LiveClientBuilder {
  @Nullable SocketPort sockets;
  @Nullable Scheduler scheduler;
  @Nullable JsonPort json;
  @Nullable RecordStore store;
  @Nullable SyncEndpoint endpoint;
  @Nullable DoubleSupplier random;
  Backoff backoff = Backoff.DEFAULT;
  @Nullable String build;
  @Nullable String orgId;
  TopicFrames topics = TopicFrames.NONE;

  LiveClientBuilder() {}

  /** The socket port. */
  public LiveClientBuilder sockets(SocketPort sockets) {
    this.sockets = sockets;
    return this;
  }

  /** The scheduler (timers and the clock). */
  public LiveClientBuilder scheduler(Scheduler scheduler) {
    this.scheduler = scheduler;
    return this;
  }

  /** The JSON port. */
  public LiveClientBuilder json(JsonPort json) {
    this.json = json;
    return this;
  }

  /** The page's record store. */
  public LiveClientBuilder store(RecordStore store) {
    this.store = store;
    return this;
  }

  /** Where each attempt connects to. */
  public LiveClientBuilder endpoint(SyncEndpoint endpoint) {
    this.endpoint = endpoint;
    return this;
  }

  /** The random source for backoff jitter: draws in [0, 1) ({@code Math.random} in the browser). */
  public LiveClientBuilder random(DoubleSupplier random) {
    this.random = random;
    return this;
  }

  /** The backoff curve (default 500 ms doubling to 4 s). */
  public LiveClientBuilder backoff(Backoff backoff) {
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    return this;
  }

  /** The build label sent in {@code hello}, or null. */
  public LiveClientBuilder build(@Nullable String build) {
    this.build = build;
    return this;
  }

  /**
   * The org of the page's actor as the app knows it (e.g. from its token's claims), or null: the actor that places
   * optimistic records in a query whose select reads {@code actor.orgId()}. The node's own decision is never
   * based on it.
   */
  public LiveClientBuilder orgId(@Nullable String orgId) {
    this.orgId = orgId;
    return this;
  }

  /** The channel topics' seam (default: none). */
  public LiveClientBuilder topics(TopicFrames topics) {
    this.topics = Objects.requireNonNull(topics, "topics");
    return this;
  }

  /**
   * The client, not yet started.
   *
   * @throws NullPointerException when a required port is missing
   */
  public LiveClient create() {
    return new LiveClient(this);
  }
}
