package io.runnel.client.outbox;

import io.runnel.client.ConnectionState;
import io.runnel.client.OptimisticWrites;
import io.runnel.client.port.DurableStore;
import io.runnel.client.port.HttpPort;
import io.runnel.client.port.Ids;
import io.runnel.client.port.JsonPort;
import io.runnel.client.port.Scheduler;
import io.runnel.dsl.MutatorRef;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Nullable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The page's writes: {@link #mutate} stores the call as an outbox entry, runs the mutator's local twin into the
 * optimistic overlay and sends {@code POST /v1/mutate/{name}} with the idempotency key {@code <mutator>:<uuid>};
 * a call that finds no network waits and is replayed, in order and under its original key, when it returns.
 *
 * <p>Design. Each principal (actor id) has its own queue, written to the {@link DurableStore} entry by entry and
 * read back when that principal signs in; another principal's queue is parked, never sent under this identity. A
 * <em>pass</em> sends the head entry, waits for its answer and moves on: one pass at a time, numbered, so an answer
 * knows whether its pass is still the current one. A retry answer ends the pass and arms a timer (exponential
 * backoff, at least the node's {@code Retry-After}); a refusal fails its entry and ends the pass. When the
 * connection drops, the pass ends at once and its in-flight entry is pending again; the late answer of an ended
 * pass still settles or fails its entry, but never sends the next one, so nothing is sent twice by two passes.
 * Invariant: an entry is removed from its queue and from the store exactly once, by the first answer that settles
 * or fails it; every later answer for it only lets the current pass go on.
 */
public final class Outbox {

  /** The node's default idempotency retention: 24 hours, in milliseconds. */
  public static final long DEFAULT_RETENTION_MILLIS = 24L * 60 * 60 * 1000;

  private final HttpPort http;
  private final DurableStore store;
  private final JsonPort json;
  private final Ids ids;
  private final Scheduler scheduler;
  private final OptimisticWrites writes;
  private final Credentials credentials;
  private final MutatorRegistry registry;
  private final Runnable beatSoon;
  private final String mutateUrl;
  private final long retentionMillis;
  private final long retryBaseMillis;
  private final long retryCapMillis;

  private final Map<String, PrincipalQueue> queues = new HashMap<>();
  private final Map<String, Mutation> calls = new HashMap<>();
  private final List<Consumer<OutboxState>> listeners = new ArrayList<>();
  private @Nullable PrincipalQueue active;
  private @Nullable OutboxState published;

  private long pass;
  private boolean draining;
  private long passEpoch;
  private boolean passOnline;
  private long connectionEpoch;
  private boolean online;
  private int failures;
  private long notBefore;
  private Scheduler.@Nullable Cancellable timer;

  private Outbox(Builder b) {
    this.http = Objects.requireNonNull(b.http, "http");
    this.store = Objects.requireNonNull(b.store, "store");
    this.json = Objects.requireNonNull(b.json, "json");
    this.ids = Objects.requireNonNull(b.ids, "ids");
    this.scheduler = Objects.requireNonNull(b.scheduler, "scheduler");
    this.writes = Objects.requireNonNull(b.writes, "writes");
    this.credentials = b.credentials;
    this.registry = b.registry;
    this.beatSoon = b.beatSoon;
    String base = Objects.requireNonNull(b.baseUrl, "baseUrl");
    this.mutateUrl = (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/v1/mutate/";
    this.retentionMillis = b.retentionMillis;
    this.retryBaseMillis = b.retryBaseMillis;
    this.retryCapMillis = b.retryCapMillis;
  }

  /** A builder; the ports, the writes seam and the base URL are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Signs {@code principal} in: parks the previous principal's queue (its overlay is dropped, nothing of it is
   * sent) and reads this principal's stored entries back, re-applying their twins in order before replaying them.
   *
   * @param principal the actor id, {@code ""} for an anonymous actor
   */
  public void principal(String principal) {
    Objects.requireNonNull(principal, "principal");
    PrincipalQueue previous = active;
    if (previous != null && previous.principal.equals(principal)) {
      return;
    }
    if (previous != null) {
      endPass();
      cancelTimer();
      failures = 0;
      notBefore = 0;
      for (Entry e : previous.entries) {
        writes.dropped(e.writeId);
      }
    }
    PrincipalQueue q = queues.computeIfAbsent(principal, PrincipalQueue::new);
    active = q;
    if (q.loaded) {
      for (Entry e : q.entries) {
        e.twin.run();
      }
      publish();
      drain();
    } else if (!q.loading) {
      q.loading = true;
      store.list(Entry.prefix(principal), stored -> restored(q, stored));
    } else {
      publish();
    }
  }

  /**
   * Calls {@code ref} with {@code input}: the call is stored, its twin runs into the overlay, and it is sent now or
   * when the network returns.
   *
   * @throws IllegalStateException before the first {@link #principal}
   */
  public <I> Mutation mutate(MutatorRef<I> ref, I input) {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(input, "input");
    PrincipalQueue q = active;
    if (q == null) {
      throw new IllegalStateException("Call principal(actorId) before mutate: the outbox keeps one queue per actor.");
    }
    JsonValue encoded = ref.codec().encode(input);
    String writeId = ref.name() + ":" + ids.uuid();
    Entry e = new Entry(0, writeId, ref.name(), encoded, scheduler.nowMillis());
    e.twin = () -> writes.apply(writeId, ref, input);
    Mutation call = new Mutation(writeId);
    calls.put(writeId, call);
    if (!q.loaded) {
      q.deferred.add(e);
      publish();
      return call;
    }
    append(q, e);
    e.twin.run();
    publish();
    if (timer == null) {
      drain();
    }
    return call;
  }

  /**
   * Calls the mutator named {@code name} with JSON {@code input}, decoded by its registered ref (a name with no
   * ref goes out with no overlay).
   *
   * @throws io.runnel.wire.InputInvalidException when the registered codec refuses {@code input}
   */
  public Mutation mutate(String name, JsonValue input) {
    Objects.requireNonNull(input, "input");
    return mutateJson(registry.findOrPlain(name), input);
  }

  private <I> Mutation mutateJson(MutatorRef<I> ref, JsonValue input) {
    return mutate(ref, ref.codec().decode(input));
  }

  /**
   * Tells the outbox how the live connection stands: going {@code Online} starts a pass (after any
   * {@code Retry-After}); losing the connection a pass began under (going offline, or online under a newer epoch)
   * ends that pass, returning its in-flight entry to pending. A pass begun with no connection is not cut.
   */
  public void connection(ConnectionState state) {
    switch (Objects.requireNonNull(state, "state")) {
      case ConnectionState.Online o -> {
        boolean fresh = !online || o.epoch() != connectionEpoch;
        if (draining && passOnline && passEpoch != o.epoch()) {
          endPass();
        }
        online = true;
        connectionEpoch = o.epoch();
        if (fresh) {
          cancelTimer();
          publish();
          drain();
        }
      }
      case ConnectionState.Connecting c -> lost(c.epoch());
      case ConnectionState.Offline off -> lost(off.epoch());
    }
  }

  /**
   * Starts a pass now, unless one is running or the node asked to wait ({@code Retry-After}); a new call starts
   * one by itself unless a retry is already scheduled.
   */
  public void drain() {
    PrincipalQueue q = active;
    if (q == null || !q.loaded || draining) {
      return;
    }
    long now = scheduler.nowMillis();
    if (now < notBefore) {
      retryIn(notBefore - now);
      return;
    }
    cancelTimer();
    draining = true;
    pass++;
    passEpoch = connectionEpoch;
    passOnline = online;
    next(q);
  }

  /** Forgets the failed write {@code writeId} (the page has shown it); nothing when it is not failed. */
  public void dismiss(String writeId) {
    Objects.requireNonNull(writeId, "writeId");
    PrincipalQueue q = active;
    if (q != null && q.failed.removeIf(f -> f.writeId().equals(writeId))) {
      publish();
    }
  }

  /** The current principal's outbox now. */
  public OutboxState state() {
    PrincipalQueue q = active;
    if (q == null) {
      return OutboxState.EMPTY;
    }
    List<OutboxState.PendingWrite> pending = new ArrayList<>();
    for (Entry e : q.entries) {
      pending.add(new OutboxState.PendingWrite(e.writeId, e.mutator, e.createdAt,
          e.sentInPass != 0 && current(e.sentInPass)));
    }
    for (Entry e : q.deferred) {
      pending.add(new OutboxState.PendingWrite(e.writeId, e.mutator, e.createdAt, false));
    }
    return new OutboxState(pending, q.failed);
  }

  /** Calls {@code listener} with the state now and after every change, until cancelled. */
  public Subscription listen(Consumer<OutboxState> listener) {
    Objects.requireNonNull(listener, "listener");
    listeners.add(listener);
    listener.accept(state());
    return () -> listeners.remove(listener);
  }

  private void restored(PrincipalQueue q, Map<String, String> stored) {
    List<Entry> read = new ArrayList<>();
    for (Map.Entry<String, String> s : stored.entrySet()) {
      try {
        Entry e = Entry.read(s.getValue(), json);
        if (!s.getKey().equals(e.storeKey(q.principal))) {
          throw new IllegalArgumentException("Stored under another key");
        }
        e.twin = twinOf(e);
        read.add(e);
      } catch (RuntimeException unreadable) {
        store.remove(s.getKey());
        q.failed.add(new OutboxState.FailedWrite(s.getKey(), "", MutationError.unreadable(s.getKey())));
      }
    }
    read.sort((a, b) -> Long.compare(a.seq, b.seq));
    for (Entry e : read) {
      q.entries.add(e);
      q.nextSeq = Math.max(q.nextSeq, e.seq + 1);
    }
    for (Entry e : q.deferred) {
      append(q, e);
    }
    q.deferred.clear();
    q.loading = false;
    q.loaded = true;
    if (q == active) {
      for (Entry e : q.entries) {
        e.twin.run();
      }
      publish();
      drain();
    }
  }

  private Runnable twinOf(Entry e) {
    return typedTwin(registry.findOrPlain(e.mutator), e);
  }

  private <I> Runnable typedTwin(MutatorRef<I> ref, Entry e) {
    I input;
    try {
      input = ref.codec().decode(e.input);
    } catch (RuntimeException codecChanged) {
      MutatorRef<JsonValue> plain = MutatorRegistry.plain(e.mutator);
      return () -> writes.apply(e.writeId, plain, e.input);
    }
    return () -> writes.apply(e.writeId, ref, input);
  }

  private void append(PrincipalQueue q, Entry e) {
    e.seq = q.nextSeq++;
    store.put(e.storeKey(q.principal), e.write(json));
    q.entries.add(e);
  }

  /** Fails every entry past the retention at the head, then sends the head or ends the pass when none is left. */
  private void next(PrincipalQueue q) {
    long now = scheduler.nowMillis();
    while (!q.entries.isEmpty() && now - q.entries.get(0).createdAt > retentionMillis) {
      Entry old = q.entries.get(0);
      fail(q, old, MutationError.abandoned(old.mutator, now - old.createdAt, retentionMillis));
    }
    if (q.entries.isEmpty()) {
      draining = false;
      failures = 0;
      publish();
      return;
    }
    send(q, q.entries.get(0), pass, false);
  }

  private void send(PrincipalQueue q, Entry e, long p, boolean refreshed) {
    e.sentInPass = p;
    publish();
    credentials.token(refreshed, token -> {
      if (!current(p)) {
        return;
      }
      if (!q.entries.contains(e)) {
        e.sentInPass = 0;
        next(q);
        return;
      }
      http.send(request(e, token), outcome -> answered(q, e, p, refreshed, outcome));
    });
  }

  private HttpPort.Request request(Entry e, @Nullable String token) {
    Map<String, String> headers = new HashMap<>();
    headers.put("Idempotency-Key", e.writeId);
    headers.put("Content-Type", "application/json");
    if (token != null) {
      headers.put("Authorization", "Bearer " + token);
    }
    return new HttpPort.Request("POST", mutateUrl + e.mutator, headers,
        json.write(JsonObject.builder().put("input", e.input).build()));
  }

  private void answered(PrincipalQueue q, Entry e, long p, boolean refreshed, HttpPort.Outcome outcome) {
    boolean wasCurrent = current(p);
    if (e.sentInPass == p) {
      e.sentInPass = 0;
    }
    switch (Verdict.of(outcome, json)) {
      case Verdict.Applied a -> {
        if (remove(q, e)) {
          failures = 0;
          if (q == active) {
            String write = a.write();
            String lsn = a.lsn();
            if (write != null && lsn != null) {
              writes.answered(e.writeId, write, lsn);
            } else {
              writes.dropped(e.writeId);
            }
          }
          settle(e, new MutationOutcome.Applied(a.result()));
          beatSoon.run();
        }
        goOn(q, p, wasCurrent);
      }
      case Verdict.RetryLater r -> {
        if (!wasCurrent) {
          return;
        }
        if (r.unauthorized() && !refreshed) {
          send(q, e, p, true);
          return;
        }
        endPass();
        failures++;
        notBefore = scheduler.nowMillis() + r.retryAfterMillis();
        retryIn(Math.max(r.retryAfterMillis(), backoffMillis()));
        publish();
      }
      case Verdict.Refused f -> {
        if (q.entries.contains(e)) {
          failures = 0;
          if (q == active) {
            endPass();
          }
          fail(q, e, f.error());
        } else {
          goOn(q, p, wasCurrent);
        }
      }
    }
  }

  /** After an answer that settled (or found settled) its entry: the pass it belongs to, if still current, goes on. */
  private void goOn(PrincipalQueue q, long p, boolean wasCurrent) {
    if (wasCurrent && current(p)) {
      next(q);
    } else {
      publish();
    }
  }

  private void fail(PrincipalQueue q, Entry e, MutationError error) {
    remove(q, e);
    if (q == active) {
      writes.dropped(e.writeId);
    }
    q.failed.add(new OutboxState.FailedWrite(e.writeId, e.mutator, error));
    publish();
    settle(e, new MutationOutcome.Failed(error));
  }

  private boolean remove(PrincipalQueue q, Entry e) {
    boolean removed = q.entries.remove(e);
    if (removed) {
      store.remove(e.storeKey(q.principal));
    }
    return removed;
  }

  private void settle(Entry e, MutationOutcome outcome) {
    Mutation call = calls.remove(e.writeId);
    if (call != null) {
      call.settle(outcome);
    }
  }

  private void lost(long epoch) {
    connectionEpoch = epoch;
    if (online) {
      online = false;
      endPass();
      publish();
    }
  }

  private boolean current(long p) {
    return draining && pass == p;
  }

  /** Ends the current pass: its in-flight entry is pending again, and its late answers send nothing more. */
  private void endPass() {
    draining = false;
    PrincipalQueue q = active;
    if (q != null) {
      for (Entry e : q.entries) {
        e.sentInPass = 0;
      }
    }
  }

  private long backoffMillis() {
    long delay = retryBaseMillis;
    for (int i = 1; i < failures && delay < retryCapMillis; i++) {
      delay *= 2;
    }
    return Math.min(retryCapMillis, delay);
  }

  private void retryIn(long delayMillis) {
    cancelTimer();
    timer = scheduler.schedule(delayMillis, () -> {
      timer = null;
      drain();
    });
  }

  private void cancelTimer() {
    Scheduler.Cancellable t = timer;
    timer = null;
    if (t != null) {
      t.cancel();
    }
  }

  private void publish() {
    OutboxState now = state();
    if (now.equals(published)) {
      return;
    }
    published = now;
    for (Consumer<OutboxState> l : List.copyOf(listeners)) {
      l.accept(now);
    }
  }

  /** Builds an {@link Outbox}. */
  public static final class Builder {
    private @Nullable HttpPort http;
    private @Nullable DurableStore store;
    private @Nullable JsonPort json;
    private @Nullable Ids ids;
    private @Nullable Scheduler scheduler;
    private @Nullable OptimisticWrites writes;
    private @Nullable String baseUrl;
    private Credentials credentials = Credentials.cookie();
    private MutatorRegistry registry = MutatorRegistry.create();
    private Runnable beatSoon = () -> {};
    private long retentionMillis = DEFAULT_RETENTION_MILLIS;
    private long retryBaseMillis = 1_000;
    private long retryCapMillis = 30_000;

    private Builder() {}

    /** The node's origin, such as {@code https://app.example.com}; calls go to {@code <base>/v1/mutate/<name>}. */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
      return this;
    }

    /** The HTTP port. */
    public Builder http(HttpPort http) {
      this.http = Objects.requireNonNull(http, "http");
      return this;
    }

    /** The durable store the queue is written to. */
    public Builder store(DurableStore store) {
      this.store = Objects.requireNonNull(store, "store");
      return this;
    }

    /** The JSON text port. */
    public Builder json(JsonPort json) {
      this.json = Objects.requireNonNull(json, "json");
      return this;
    }

    /** The random-id port, for idempotency keys. */
    public Builder ids(Ids ids) {
      this.ids = Objects.requireNonNull(ids, "ids");
      return this;
    }

    /** The scheduler: retry timers and the clock. */
    public Builder scheduler(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /** The record store's overlay, which runs twins and settles answered writes. */
    public Builder writes(OptimisticWrites writes) {
      this.writes = Objects.requireNonNull(writes, "writes");
      return this;
    }

    /** Where identity comes from; {@link Credentials#cookie()} by default. */
    public Builder credentials(Credentials credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
      return this;
    }

    /** The app's mutator refs, for calls by name and entries read back after a reload; empty by default. */
    public Builder registry(MutatorRegistry registry) {
      this.registry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /** Asks the live client to send {@code hello} soon, so an answered write settles by LSN quickly. */
    public Builder beatSoon(Runnable beatSoon) {
      this.beatSoon = Objects.requireNonNull(beatSoon, "beatSoon");
      return this;
    }

    /**
     * The node's idempotency retention (24 h by default): an entry older than this is failed as {@code
     * X_OFFLINE_QUEUE_ABANDONED}, never replayed.
     *
     * @throws IllegalArgumentException when under one minute, the node's own floor
     */
    public Builder retentionMillis(long retentionMillis) {
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
    public Builder retryBackoff(long baseMillis, long capMillis) {
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
}
