package io.runnel.client.outbox.internal;

import io.runnel.client.ConnectionState;
import io.runnel.client.OptimisticWrites;
import io.runnel.client.outbox.Mutation;
import io.runnel.client.outbox.MutationOutcome;
import io.runnel.client.outbox.OutboxState;
import io.runnel.client.outbox.StoreRefusedException;
import io.runnel.client.outbox.Subscription;
import io.runnel.client.outbox.Verdict;
import io.runnel.client.port.Ids;
import io.runnel.client.port.JsonPort;
import io.runnel.client.port.Scheduler;
import io.runnel.client.port.Tabs;
import io.runnel.dsl.MutatorRef;
import io.runnel.wire.JsonValue;
import io.runnel.wire.RunnelException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The page's writes: {@link #mutate} stores the call as an outbox entry, runs the mutator's local twin into the
 * optimistic overlay and sends {@code POST /v1/mutate/{name}} with the idempotency key {@code <mutator>:<uuid>};
 * a call that finds no network waits and is replayed, in order and under its original key, when it returns.
 *
 * <p>Design. Each principal (actor id) has its own queue, written to the
 * {@link io.runnel.client.port.DurableStore} entry by entry ({@link QueueStore}) and read back when that principal
 * signs in; another principal's queue is parked, never sent under this identity. The queue is sent by a
 * {@link SendLoop}: one drain pass at a time, cut when the connection it began under drops.
 *
 * <p>The provisional queue. A call made before any principal signed in (first load, never connected, nothing
 * remembered) cannot know whose queue it joins, yet must not fail: its twin runs into the overlay as usual and it
 * waits in the provisional queue, stored entry by entry under {@code runnel.outbox.!provisional.<seq>.<write id>}
 * (read back when the outbox is built, so a reload before any connection keeps it). Nothing of it is sent until the
 * outbox hears {@code Online} with a principal signed in: then, once both queues are read back, its entries join the
 * end of that principal's queue in call order, re-keyed in the store one by one (written under the new key before the
 * old one is removed), and are sent under their original idempotency keys. A principal signed in without a connection
 * (one remembered from an earlier page, {@link #remembered}) is there to display its queue: it neither takes them nor
 * sends its own queue until a node names the same actor ({@link #principal}); the actor the node names does. The rule
 * trusts the page: a write made before anyone was known is sent as whoever the node says this page is, so other tabs
 * are not told of provisional calls (a tab reads the provisional entries stored so far once, when it is built).
 *
 * <p>Several tabs ({@link Tabs}). Every tab of the origin stores its calls in the same per-principal queues, and one
 * tab at a time drains each: the one holding the lock {@code runnel.outbox.<escaped principal>}, asked for when a
 * node names the principal and released when another principal signs in or the outbox stops. On the grant the tab
 * reads the queue again and merges what other tabs stored ({@link QueueStore#load}), so an entry a closed page left
 * in flight is pending again and sent under its original idempotency key (the node answers a replay once). A tab
 * that stores a call tells the others ({@link Siblings}), and every tab with that queue loaded merges it, running
 * the twin into its overlay; the draining tab tells each outcome, and every tab takes the entry out of its queue,
 * settles its overlay and, if it made the call, settles the call's {@link Mutation} (a failure shows in the state of
 * the tab that drains and of the tab that made the call). With {@link Tabs#alone()} the lock is granted at once.
 */
public final class Outbox {

  /** The node's default idempotency retention: 24 hours, in milliseconds. */
  public static final long DEFAULT_RETENTION_MILLIS = 24L * 60 * 60 * 1000;

  private final Ids ids;
  private final Scheduler scheduler;
  private final OptimisticWrites writes;
  private final MutatorRegistry registry;
  private final QueueStore durable;
  private final SendLoop loop;
  private final Siblings tabs;
  private final Runnable beatSoon;

  /** The principals' queues signed in so far, by store-key prefix. */
  private final Map<String, PrincipalQueue> queues = new HashMap<>();
  private final PrincipalQueue provisional = PrincipalQueue.provisional();
  private final Map<String, Call> calls = new HashMap<>();
  private final List<Consumer<OutboxState>> listeners = new ArrayList<>();
  private SignIn signedIn = new Nobody();
  private @Nullable OutboxState published;
  /** Whether the connection has been online (its lists caught up) once: provisional calls wait until it has. */
  private boolean heardOnline;

  /** Whose queue the outbox holds: nobody's yet, or a principal's, shown and, once a node named it, sent. */
  private sealed interface SignIn permits Nobody, Remembered, Named {}

  /** No principal yet: calls wait in the provisional queue. */
  private static final class Nobody implements SignIn {}

  /** An actor remembered from an earlier page: its queue is shown, and nothing of it is sent. */
  private static final class Remembered implements SignIn {
    final PrincipalQueue queue;

    Remembered(PrincipalQueue queue) {
      this.queue = queue;
    }
  }

  /** The actor a node named: its queue is shown and sent. */
  private static final class Named implements SignIn {
    final PrincipalQueue queue;

    Named(PrincipalQueue queue) {
      this.queue = queue;
    }
  }

  Outbox(OutboxBuilder b) {
    this.ids = Objects.requireNonNull(b.ids, "ids");
    this.scheduler = Objects.requireNonNull(b.scheduler, "scheduler");
    this.writes = Objects.requireNonNull(b.writes, "writes");
    this.registry = b.registry;
    this.beatSoon = b.beatSoon;
    JsonPort json = Objects.requireNonNull(b.json, "json");
    this.durable = new QueueStore(Objects.requireNonNull(b.store, "store"), json, writes, registry, scheduler);
    this.loop = new SendLoop(b, new SendLoop.Host() {
      @Override
      public @Nullable PrincipalQueue active() {
        return signedIn instanceof Named n ? n.queue : null;
      }

      @Override
      public boolean leads() {
        return tabs.holds();
      }

      @Override
      public void publish() {
        Outbox.this.publish();
      }

      @Override
      public void settled(PrincipalQueue q, Entry entry, MutationOutcome outcome, @Nullable String write,
          @Nullable String lsn) {
        settle(q, entry, outcome, write, lsn);
      }
    });
    this.tabs = new Siblings(b.tabs, json, this);
    durable.load(provisional, merged -> provisionalRead());
  }

  /** A builder; the ports, the writes seam and the base URL are required. */
  public static OutboxBuilder builder() {
    return new OutboxBuilder();
  }

  /**
   * Signs {@code principal} in as the actor a node named: parks the previous principal's queue (its overlay is
   * dropped, nothing of it is sent, its lock released) and reads this principal's stored entries back, re-applying
   * their twins in order, then asks for this principal's lock and replays them once this tab holds it.
   *
   * @param principal the actor id, {@code ""} for an anonymous actor
   */
  public void principal(String principal) {
    signIn(principal, true);
  }

  /**
   * Signs {@code principal} in to display its queue (an actor remembered from an earlier page): its queue is read back
   * and its twins run, but nothing is sent until {@link #principal} confirms the same actor; another actor parks it.
   */
  public void remembered(String principal) {
    signIn(principal, false);
  }

  private void signIn(String principal, boolean named) {
    Objects.requireNonNull(principal, "principal");
    PrincipalQueue previous = shown();
    if (previous != null && principal.equals(previous.principal)) {
      if (named && !(signedIn instanceof Named)) {
        signedIn = new Named(previous);
        adoptProvisional();
        publish();
        tabs.lead(previous);
      }
      return;
    }
    if (previous != null) {
      loop.reset();
      tabs.release();
      for (Entry e : previous.entries) {
        writes.dropped(e.writeId);
      }
    }
    PrincipalQueue q = queues.computeIfAbsent(Entry.prefix(principal), p -> PrincipalQueue.of(principal));
    signedIn = named ? new Named(q) : new Remembered(q);
    if (q.loaded) {
      runTwins(q);
      adoptProvisional();
      publish();
    } else if (!q.loading) {
      read(q);
    } else {
      publish();
    }
    if (named) {
      tabs.lead(q);
    }
  }

  /** This tab holds {@code q}'s lock now: {@code q} is read again (or is still being read), then drained. */
  void granted(PrincipalQueue q) {
    if (q.loaded) {
      read(q);
    }
  }

  /**
   * Calls {@code ref} with {@code input}: the call is stored, its twin runs into the overlay, and it is sent now or
   * when the network returns; before the first {@link #principal} it waits in the provisional queue.
   */
  public <I> Mutation mutate(MutatorRef<I> ref, I input) {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(input, "input");
    PrincipalQueue shown = shown();
    PrincipalQueue q = shown != null ? shown : provisional;
    JsonValue encoded = ref.codec().encode(input);
    String writeId = ref.name() + ":" + ids.uuid();
    Entry e = new Entry(0, writeId, ref.name(), encoded, scheduler.nowMillis());
    e.twin = () -> writes.apply(writeId, ref, input);
    Call call = new Call(writeId);
    calls.put(writeId, call);
    if (!q.loaded) {
      q.deferred.add(e);
      publish();
      return call;
    }
    durable.append(q, e);
    e.twin.run();
    announce(q);
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

  /** Calls {@code listener} with each write the durable store refused ({@link StoreRefusedException}). */
  public void onError(Consumer<RunnelException> listener) {
    durable.onRefused(Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Tells the outbox how the live connection stands: going {@code Online} hands the provisional queue to the
   * signed-in principal and starts a pass (after any {@code Retry-After}); losing the connection a pass began under
   * (going offline, or online under a newer epoch) ends that pass, returning its in-flight entry to pending. A pass
   * begun with no connection is not cut.
   */
  public void connection(ConnectionState state) {
    // instanceof, not a type switch, which TeaVM writes out at length (docs/client.md, "Type switches").
    if (Objects.requireNonNull(state, "state") instanceof ConnectionState.Online) {
      heardOnline = true;
      adoptProvisional();
      loop.online(state.epoch());
    } else {
      loop.lost(state.epoch());
    }
  }

  /**
   * A connection went online and the page's lists are still loading: no pass starts (a call made meanwhile is stored,
   * shown and waits too) until {@link #connection} hears {@code Online}, which the page sends once they caught up, or
   * hears the connection lost. A write replayed after a reload is so first sent once the records it touches are in
   * the store, and its overlay holds their rows from before it (see {@link OptimisticWrites#sending}).
   */
  public void catchingUp() {
    loop.hold();
  }

  /**
   * Stops sending for good (the page's client closed): the retry timer is cancelled, no pass starts again, and an
   * answer still on its way settles or fails its entry but sends nothing after it. The queue's lock is released for
   * good, so another tab takes the queue over. Calls made after this are stored and shown, for the next page (or
   * another tab) to send.
   */
  public void stop() {
    loop.stop();
    tabs.stop();
    publish();
  }

  /**
   * The page says the network is back (or the tab is shown again): when the send loop waits out its own backoff
   * after a network failure, it retries now; a node's {@code Retry-After} is still waited out, and nothing else
   * changes.
   */
  public void retryNow() {
    loop.retryNow();
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
    PrincipalQueue q = shown();
    boolean removed = q != null && forget(q.failed, writeId);
    if (forget(provisional.failed, writeId) || removed) {
      publish();
    }
  }

  /** Removes write {@code writeId} from {@code failed}: a loop, not removeIf, whose predicates are classes too. */
  private static boolean forget(List<OutboxState.FailedWrite> failed, String writeId) {
    boolean removed = false;
    for (int i = failed.size() - 1; i >= 0; i--) {
      if (failed.get(i).writeId().equals(writeId)) {
        failed.remove(i);
        removed = true;
      }
    }
    return removed;
  }

  /** The current principal's outbox now, followed by the provisional queue's calls not yet handed to anyone. */
  public OutboxState state() {
    List<OutboxState.PendingWrite> pending = new ArrayList<>();
    List<OutboxState.FailedWrite> failed = new ArrayList<>();
    PrincipalQueue q = shown();
    if (q != null) {
      pendingOf(q, pending);
      failed.addAll(q.failed);
    }
    pendingOf(provisional, pending);
    failed.addAll(provisional.failed);
    return new OutboxState(pending, failed);
  }

  private void pendingOf(PrincipalQueue q, List<OutboxState.PendingWrite> pending) {
    for (Entry e : q.entries) {
      pending.add(new OutboxState.PendingWrite(e.writeId, e.mutator, e.createdAt, loop.sending(e)));
    }
    for (Entry e : q.deferred) {
      pending.add(new OutboxState.PendingWrite(e.writeId, e.mutator, e.createdAt, false));
    }
  }

  /** Calls {@code listener} with the state now and after every change, until cancelled. */
  public Subscription listen(Consumer<OutboxState> listener) {
    Objects.requireNonNull(listener, "listener");
    listeners.add(listener);
    listener.accept(state());
    return () -> listeners.remove(listener);
  }

  /** Reads principal queue {@code q} (again), merging what other tabs stored; a second read if one came meanwhile. */
  private void read(PrincipalQueue q) {
    boolean first = !q.loaded;
    durable.load(q, merged -> {
      if (first) {
        restored(q);
      } else {
        merged(q, merged);
      }
      if (q.stale) {
        q.stale = false;
        read(q);
      }
    });
  }

  /** {@code q}'s stored entries are back: when it is still the signed-in queue, its twins run and it is sent. */
  private void restored(PrincipalQueue q) {
    announce(q);
    if (q == shown()) {
      runTwins(q);
      adoptProvisional();
      publish();
      drain();
    }
  }

  /**
   * Entries other tabs stored joined loaded queue {@code q}: their twins run when it is the signed-in queue, except
   * those this page already ran as provisional entries (whose provisional copies go), and the queue is sent.
   */
  private void merged(PrincipalQueue q, List<Entry> merged) {
    for (Entry e : merged) {
      Entry copy = Entry.find(provisional.entries, e.writeId);
      if (copy != null) {
        durable.drop(provisional, copy);
        if (q != shown()) {
          writes.dropped(e.writeId);
        }
      } else if (q == shown()) {
        e.twin.run();
      }
    }
    publish();
    if (!loop.waiting()) {
      drain();
    }
  }

  /** The provisional queue is back: its calls show in the overlay, and join the principal once one is online. */
  private void provisionalRead() {
    PrincipalQueue q = shown();
    if (q != null && q.loaded) {
      durable.dropCopies(provisional, q, e -> { });
    }
    for (Entry e : provisional.entries) {
      e.twin.run();
    }
    adoptProvisional();
    publish();
    drain();
  }

  /**
   * Runs the twins of signed-in queue {@code q} in order, first dropping the provisional copies of its writes (a move
   * a closed page interrupted) and their twins, which already ran.
   */
  private void runTwins(PrincipalQueue q) {
    if (provisional.loaded) {
      durable.dropCopies(provisional, q, e -> writes.dropped(e.writeId));
    }
    for (Entry e : q.entries) {
      e.twin.run();
    }
  }

  /** The signed-in principal's queue, shown whether or not a node named it yet; null before any principal. */
  private @Nullable PrincipalQueue shown() {
    SignIn s = signedIn;
    return s instanceof Named n ? n.queue : s instanceof Remembered r ? r.queue : null;
  }

  /**
   * Hands the provisional queue's entries to the signed-in principal once the outbox has heard {@code Online} and
   * both queues are read back; their twins already ran, so the overlay is left as it is.
   */
  private void adoptProvisional() {
    if (heardOnline && signedIn instanceof Named n && n.queue.loaded && provisional.loaded
        && !provisional.entries.isEmpty()) {
      PrincipalQueue q = n.queue;
      durable.move(provisional, q);
      announce(q);
    }
  }

  /**
   * Tells the other tabs when this one stored entries in principal queue {@code q} they have not heard of, once the
   * store has them: a tab told sooner (IndexedDB commits after {@code put} returns) would read the queue without them
   * and hear of them no more.
   */
  private void announce(PrincipalQueue q) {
    if (q.untold && q != provisional) {
      q.untold = false;
      durable.afterWrites(() -> tabs.queued(q));
    }
  }

  /** This tab's send loop settled entry {@code e} of {@code q}: the other tabs hear it, and the call settles. */
  private void settle(PrincipalQueue q, Entry e, MutationOutcome outcome, @Nullable String write,
      @Nullable String lsn) {
    durable.settled(e.writeId);
    tabs.settled(q, e, outcome, write, lsn);
    Call call = calls.remove(e.writeId);
    if (call != null) {
      call.settle(outcome);
    }
  }

  /**
   * Another tab stored entries in the queue whose store-key prefix is {@code prefix}: read it again when this tab has
   * it loaded, or once it is loaded.
   */
  void queuedElsewhere(String prefix) {
    PrincipalQueue q = queues.get(prefix);
    if (q != null && q.loaded) {
      read(q);
    } else if (q != null) {
      q.stale = true;
    }
  }

  /**
   * Another tab settled write {@code writeId} (of {@code mutator}) in the queue whose store-key prefix is
   * {@code prefix}, as {@code verdict} says: it leaves this page's queues and overlay, and the call settles (its
   * failure listed) when this page made it. A verdict to retry settles nothing.
   */
  void settledElsewhere(String prefix, String writeId, String mutator, Verdict verdict) {
    MutationOutcome outcome;
    if (verdict instanceof Verdict.Applied a) {
      String write = a.write();
      String lsn = a.lsn();
      if (write != null && lsn != null) {
        writes.answered(writeId, write, lsn);
        beatSoon.run();
      } else {
        writes.dropped(writeId);
      }
      outcome = new MutationOutcome.Applied(a.result());
    } else if (verdict instanceof Verdict.Refused r) {
      writes.dropped(writeId);
      outcome = new MutationOutcome.Failed(r.error());
    } else {
      return;
    }
    durable.settled(writeId);
    PrincipalQueue q = queues.get(prefix);
    Entry e = q == null ? null : Entry.find(q.entries, writeId);
    if (q != null && e != null) {
      q.entries.remove(e);
    }
    Entry copy = Entry.find(provisional.entries, writeId);
    if (copy != null) {
      durable.drop(provisional, copy);
    }
    Call call = calls.remove(writeId);
    if (call != null) {
      if (outcome instanceof MutationOutcome.Failed f) {
        (q != null ? q : provisional).failed.add(new OutboxState.FailedWrite(writeId, mutator, f.error()));
      }
      call.settle(outcome);
    }
    publish();
  }

  private void publish() {
    OutboxState now = state();
    if (published != null && now.same(published)) {
      return;
    }
    published = now;
    for (Consumer<OutboxState> l : List.copyOf(listeners)) {
      l.accept(now);
    }
  }
}
