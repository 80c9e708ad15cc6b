package io.runnel.client.outbox.internal;

import io.runnel.client.OptimisticWrites;
import io.runnel.client.outbox.MutationError;
import io.runnel.client.outbox.OutboxState;
import io.runnel.client.outbox.StoreRefusedException;
import io.runnel.client.port.DurableStore;
import io.runnel.client.port.JsonPort;
import io.runnel.client.port.Scheduler;
import io.runnel.dsl.MutatorRef;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonValue;
import io.runnel.wire.RunnelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The queues' durable side: every entry under its own key ({@link PrincipalQueue#key}), written when it joins a
 * queue, read back in order with its twin bound again, and moved from the provisional queue to a principal's one
 * entry by entry. The queue is never written as a whole.
 *
 * <p>Every tab of the origin writes to the same queues, so a read is a merge ({@link #load}): the entries this tab
 * does not hold join it at their place. Where the store holds one write under two keys (two tabs moved the same
 * provisional entry), the lowest seq is kept and the other key removed, so tabs that merge at once keep the same
 * copy; a write this tab heard settled ({@link #settled}) is never merged again, and its stray keys go.
 */
final class QueueStore {

  /** How many settled write ids are remembered, so a read that raced with a settle does not bring them back. */
  static final int SETTLED_KEPT = 256;

  private final DurableStore store;
  private final JsonPort json;
  private final OptimisticWrites writes;
  private final MutatorRegistry registry;
  private final Scheduler clock;
  private final List<String> settled = new ArrayList<>();
  private Consumer<RunnelException> refused = e -> { };

  QueueStore(DurableStore store, JsonPort json, OptimisticWrites writes, MutatorRegistry registry, Scheduler clock) {
    this.store = store;
    this.json = json;
    this.writes = writes;
    this.registry = registry;
    this.clock = clock;
    store.onRefused(key -> refused.accept(new StoreRefusedException(key)));
  }

  /**
   * Tells {@code listener} of each write the durable store refused, at once ({@link DurableStore#put} answered
   * false) or later ({@link DurableStore#onRefused}, whatever the key).
   */
  void onRefused(Consumer<RunnelException> listener) {
    refused = listener;
  }

  /** Remembers that write {@code writeId} is settled (applied or failed), here or in another tab. */
  void settled(String writeId) {
    settled.add(writeId);
    if (settled.size() > SETTLED_KEPT) {
      settled.remove(0);
    }
  }

  /**
   * Reads {@code q}'s stored entries and merges those it does not hold (their twins bound, not run), then gives
   * {@code done} the merged ones in order. The first read also appends the calls deferred meanwhile and marks the
   * queue loaded. An unreadable entry is removed and listed as failed.
   */
  void load(PrincipalQueue q, Consumer<List<Entry>> done) {
    q.loading = !q.loaded;
    store.list(q.prefix, stored -> {
      List<Entry> merged = read(q, stored);
      if (!q.loaded) {
        for (Entry e : q.deferred) {
          append(q, e);
        }
        q.deferred.clear();
        q.loading = false;
        q.loaded = true;
      }
      done.accept(merged);
    });
  }

  private List<Entry> read(PrincipalQueue q, Map<String, String> stored) {
    List<Entry> merged = new ArrayList<>();
    for (Map.Entry<String, String> s : stored.entrySet()) {
      Entry e;
      try {
        e = Entry.read(s.getValue(), json);
        if (!s.getKey().equals(q.key(e))) {
          throw new IllegalArgumentException("Stored under another key");
        }
      } catch (RuntimeException unreadable) {
        store.remove(s.getKey());
        q.failed.add(new OutboxState.FailedWrite(s.getKey(), "", unreadable(s.getKey())));
        continue;
      }
      q.nextSeq = Math.max(q.nextSeq, e.seq + 1);
      Entry held = Entry.find(q.entries, e.writeId);
      if (settled.indexOf(e.writeId) >= 0) {
        store.remove(s.getKey());
      } else if (held == null) {
        e.twin = twinOf(e);
        q.insert(e);
        merged.add(e);
      } else if (held.seq != e.seq) {
        // One write under two keys: every tab keeps the lower seq.
        Entry later = Entry.before(e, held) ? held : e;
        store.remove(q.key(later));
        if (later == held) {
          q.entries.remove(held);
          held.seq = e.seq;
          q.insert(held);
        }
      }
    }
    List<Entry> inOrder = new ArrayList<>(merged.size());
    for (Entry e : q.entries) {
      if (merged.indexOf(e) >= 0) {
        inOrder.add(e);
      }
    }
    return inOrder;
  }

  /**
   * Gives {@code e} the next place in loaded queue {@code q} (seq {@code max(next, now ms × 1000)}) and stores it
   * under its key there, marking the queue {@link PrincipalQueue#untold}; a store that refuses is reported, and false
   * returned (the entry still joins the queue, for this page to send).
   */
  boolean append(PrincipalQueue q, Entry e) {
    e.seq = Math.max(q.nextSeq, clock.nowMillis() * 1000);
    q.nextSeq = e.seq + 1;
    q.entries.add(e);
    String key = q.key(e);
    if (store.put(key, e.write(json))) {
      q.untold = true;
      return true;
    }
    refused.accept(new StoreRefusedException(key));
    return false;
  }

  /**
   * Moves every entry of {@code from} to the end of {@code to}, in order, keeping its write id (the idempotency
   * key). Each is stored under its new key before its old key is removed: a page closed in between leaves a second
   * copy under the same idempotency key, which the node answers once, never a lost write; an entry the store refused
   * to write under its new key keeps its old one.
   */
  void move(PrincipalQueue from, PrincipalQueue to) {
    for (Entry e : from.entries) {
      String old = from.key(e);
      if (append(to, e)) {
        store.remove(old);
      }
    }
    from.entries.clear();
  }

  /**
   * Removes from {@code from} (and from the store) every entry whose write id {@code in} also holds: the copy a move
   * left when the page closed between writing the new key and removing the old one. {@code dropped} hears each.
   */
  void dropCopies(PrincipalQueue from, PrincipalQueue in, Consumer<Entry> dropped) {
    for (Entry e : List.copyOf(from.entries)) {
      if (Entry.find(in.entries, e.writeId) != null) {
        from.entries.remove(e);
        store.remove(from.key(e));
        dropped.accept(e);
      }
    }
  }

  /**
   * Runs {@code done} once every write this tab made so far is stored, where other tabs read it: a {@code list}
   * answers only after them ({@link DurableStore}), here of a prefix no key has.
   */
  void afterWrites(Runnable done) {
    store.list(Entry.PREFIX + "!written.", nothing -> done.run());
  }

  /** Removes entry {@code e} from {@code q} and from the store. */
  void drop(PrincipalQueue q, Entry e) {
    q.entries.remove(e);
    store.remove(q.key(e));
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

  /** A stored entry that cannot be read back (written by another version, or damaged). */
  private static MutationError unreadable(String storeKey) {
    return new MutationError(ErrorCode.X_OFFLINE_QUEUE_ABANDONED.name(),
        ErrorCode.X_OFFLINE_QUEUE_ABANDONED.httpStatus(),
        "The queued write stored under '" + storeKey + "' could not be read back, so it was not replayed.",
        "Make the change again.");
  }
}
