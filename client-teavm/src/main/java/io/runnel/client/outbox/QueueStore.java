package io.runnel.client.outbox;

import io.runnel.client.OptimisticWrites;
import io.runnel.client.port.DurableStore;
import io.runnel.client.port.JsonPort;
import io.runnel.dsl.MutatorRef;
import io.runnel.wire.JsonValue;
import io.runnel.wire.RunnelException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The queues' durable side: every entry under its own key ({@link PrincipalQueue#key}), written when it joins a
 * queue, read back in order with its twin bound again, and moved from the provisional queue to a principal's one
 * entry by entry. The queue is never written as a whole.
 */
final class QueueStore {

  private final DurableStore store;
  private final JsonPort json;
  private final OptimisticWrites writes;
  private final MutatorRegistry registry;
  private Consumer<RunnelException> refused = e -> { };

  QueueStore(DurableStore store, JsonPort json, OptimisticWrites writes, MutatorRegistry registry) {
    this.store = store;
    this.json = json;
    this.writes = writes;
    this.registry = registry;
  }

  /** Tells {@code listener} of each write the durable store refused. */
  void onRefused(Consumer<RunnelException> listener) {
    refused = listener;
  }

  /**
   * Reads {@code q}'s stored entries back (their twins bound, not run), appends the calls deferred meanwhile, marks
   * it loaded and runs {@code done}; an unreadable entry is removed and listed as failed.
   */
  void load(PrincipalQueue q, Runnable done) {
    q.loading = true;
    store.list(q.prefix, stored -> {
      read(q, stored);
      done.run();
    });
  }

  private void read(PrincipalQueue q, Map<String, String> stored) {
    List<Entry> read = new ArrayList<>();
    for (Map.Entry<String, String> s : stored.entrySet()) {
      try {
        Entry e = Entry.read(s.getValue(), json);
        if (!s.getKey().equals(q.key(e))) {
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
  }

  /**
   * Gives {@code e} the next place in loaded queue {@code q} and stores it under its key there; a store that refuses
   * is reported, and false returned (the entry still joins the queue, for this page to send).
   */
  boolean append(PrincipalQueue q, Entry e) {
    e.seq = q.nextSeq++;
    q.entries.add(e);
    String key = q.key(e);
    if (store.put(key, e.write(json))) {
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
    Set<String> held = new HashSet<>();
    for (Entry e : in.entries) {
      held.add(e.writeId);
    }
    for (Entry e : List.copyOf(from.entries)) {
      if (held.contains(e.writeId)) {
        from.entries.remove(e);
        store.remove(from.key(e));
        dropped.accept(e);
      }
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
}
