package io.runnel.client.outbox;

import io.runnel.client.ConnectionState;
import io.runnel.client.OptimisticWrites;
import io.runnel.client.port.DurableStore;
import io.runnel.client.port.Ids;
import io.runnel.client.port.JsonPort;
import io.runnel.client.port.Scheduler;
import io.runnel.dsl.MutatorRef;
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
 * read back when that principal signs in; another principal's queue is parked, never sent under this identity. The
 * queue is sent by a {@link SendLoop}: one drain pass at a time, cut when the connection it began under drops.
 */
public final class Outbox {

  /** The node's default idempotency retention: 24 hours, in milliseconds. */
  public static final long DEFAULT_RETENTION_MILLIS = 24L * 60 * 60 * 1000;

  private final DurableStore store;
  private final JsonPort json;
  private final Ids ids;
  private final Scheduler scheduler;
  private final OptimisticWrites writes;
  private final MutatorRegistry registry;
  private final SendLoop loop;

  private final Map<String, PrincipalQueue> queues = new HashMap<>();
  private final Map<String, Mutation> calls = new HashMap<>();
  private final List<Consumer<OutboxState>> listeners = new ArrayList<>();
  private @Nullable PrincipalQueue active;
  private @Nullable OutboxState published;

  Outbox(OutboxBuilder b) {
    this.store = Objects.requireNonNull(b.store, "store");
    this.json = Objects.requireNonNull(b.json, "json");
    this.ids = Objects.requireNonNull(b.ids, "ids");
    this.scheduler = Objects.requireNonNull(b.scheduler, "scheduler");
    this.writes = Objects.requireNonNull(b.writes, "writes");
    this.registry = b.registry;
    this.loop = new SendLoop(b, new SendLoop.Host() {
      @Override
      public @Nullable PrincipalQueue active() {
        return active;
      }

      @Override
      public void publish() {
        Outbox.this.publish();
      }

      @Override
      public void settled(Entry entry, MutationOutcome outcome) {
        settle(entry, outcome);
      }
    });
  }

  /** A builder; the ports, the writes seam and the base URL are required. */
  public static OutboxBuilder builder() {
    return new OutboxBuilder();
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
      loop.reset();
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
    if (!loop.waiting()) {
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
      case ConnectionState.Online o -> loop.online(o.epoch());
      case ConnectionState.Connecting c -> loop.lost(c.epoch());
      case ConnectionState.Offline off -> loop.lost(off.epoch());
      case ConnectionState.Closed closed -> loop.lost(closed.epoch());
    }
  }

  /**
   * Stops sending for good (the page's client closed): the retry timer is cancelled, no pass starts again, and an
   * answer still on its way settles or fails its entry but sends nothing after it. Calls made after this are stored
   * and shown, for the next page to send.
   */
  public void stop() {
    loop.stop();
    publish();
  }

  /**
   * Starts a pass now, unless one is running or the node asked to wait ({@code Retry-After}); a new call starts
   * one by itself unless a retry is already scheduled.
   */
  public void drain() {
    loop.drain();
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
          loop.sending(e)));
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

  private void settle(Entry e, MutationOutcome outcome) {
    Mutation call = calls.remove(e.writeId);
    if (call != null) {
      call.settle(outcome);
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
}
