package io.runnel.client.store.internal;

import io.runnel.client.OptimisticWrites;
import io.runnel.client.store.ClientRecord;
import io.runnel.client.store.RecordRejectedException;
import io.runnel.client.store.TwinFailedException;
import io.runnel.dsl.Actor;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.Row;
import io.runnel.protocol.Position;
import io.runnel.protocol.WireRecord;
import io.runnel.wire.RunnelException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The page's records: one per {@code type:key}, shared by every live list.
 *
 * <p>Design: two layers. <em>Truth</em> holds each synced record with the LSN it was read or changed at; an older
 * version never replaces a newer one ({@code docs/protocol.md}, "LSN"). The <em>overlay</em> is the pending writes'
 * twins, replayed in order over truth whenever either changes, so two pending writes on one record land in order on
 * top of someone else's change. Every change happens inside a {@link #batch}; listeners hear once, at the end of
 * the outermost batch, so a view never sees a frame half applied. A record is held by the lists that contain it and
 * evicted when the last one lets go.
 *
 * <p>A write settles (its overlay goes) when it has been {@link #answered} and either a frame named its digest
 * ({@link #noteWrites}; recent digests are remembered, since the echo may come first) or a {@code hello} answer's
 * LSN reached the answer's LSN ({@link #helloLsn}). A write settled by its digest may have been echoed on one
 * subscription only, so the records it touched linger in the overlay (no twin runs: each shows truth's row once
 * truth's LSN for it moved on from the moment the write settled, or reached the answer's LSN, else the twin's last
 * row; a delete stays a delete) until a {@code hello} LSN reaches its answer's,
 * and a list whose own echo is still on its way neither loses an inserted record nor shows a deleted one.
 *
 * <p>A write the outbox has sent ({@link #sending}) may show in truth before the store can tell (its echo can beat
 * its answer, and a snapshot names no writes), so until it settles or is dropped the overlay replays over the truth
 * its records had when it was first sent (for a record it read and truth lacked then, the first row that arrives),
 * moved on only by the echoes of writes that settle: no twin counts its own echo again (no 1, 2, 3, 2), and someone
 * else's change to those records shows with the write's echo.
 */
public final class RecordStore implements OptimisticWrites {

  /** How many recent write digests are remembered for answers that come after their echo. */
  static final int RECENT_DIGESTS = 1024;

  private record Synced(EntityRef type, String key, Row row, Position lsn) {}

  private final Map<String, EntityRef> entities = new HashMap<>();
  private final Map<String, Synced> truth = new HashMap<>();
  private final Map<String, Set<Object>> holders = new HashMap<>();
  private final Overlay overlay = new Overlay();
  private final List<Overlay.Pending<?>> lingering = new ArrayList<>();
  private Map<String, Overlay.Change> overlayView = Map.of();
  private final Set<String> recentDigests = new LinkedHashSet<>();
  private final List<Runnable> listeners = new ArrayList<>();
  private final List<Consumer<RunnelException>> errorListeners = new ArrayList<>();
  private @Nullable Position helloLsn;
  private Actor actor = Actor.anonymous();
  private int depth;
  private boolean dirty;

  private RecordStore() {}

  /** An empty store. */
  public static RecordStore create() {
    return new RecordStore();
  }

  /**
   * Makes {@code type} known, so records of its name are decoded with its columns.
   *
   * @throws IllegalArgumentException when another entity of the same name is known
   */
  public void register(EntityRef type) {
    EntityRef known = entities.putIfAbsent(type.name(), type);
    if (known != null && known != type) {
      throw new IllegalArgumentException("Two entities are named '" + type.name() + "'");
    }
  }

  /** Calls {@code listener} after every batch that changed anything (truth, holders or the overlay). */
  public void listen(Runnable listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Stops calling {@code listener}. */
  public void unlisten(Runnable listener) {
    listeners.remove(listener);
  }

  /**
   * Calls {@code listener} with each rejected record ({@code X_RECORD_REJECTED}), each twin that threw and each
   * second copy of a pending write (ignored).
   */
  public void onError(Consumer<RunnelException> listener) {
    errorListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Runs {@code changes} as one batch: listeners hear once, when the outermost batch ends. */
  public void batch(Runnable changes) {
    depth++;
    try {
      changes.run();
    } finally {
      depth--;
      if (depth == 0 && dirty) {
        publish();
      }
    }
  }

  /**
   * Takes a synced record read or changed at {@code lsn} into truth, unless truth holds a newer version, and
   * returns its key; a structurally bad record is reported and dropped whole, and null returned.
   */
  public @Nullable String accept(WireRecord record, Position lsn) {
    EntityRef type = entities.get(record.type());
    if (type == null) {
      report(new RecordRejectedException("A record of type '" + record.type() + "' (key '" + record.key()
          + "') arrived, and the client knows no entity of that name.", null));
      return null;
    }
    Row row;
    String key;
    try {
      row = type.rowFromJson(record.row(), record.type());
      key = type.keyOf(row);
    } catch (RuntimeException e) {
      report(new RecordRejectedException("The row of " + record.type() + " '" + record.key()
          + "' does not fit the entity: " + e.getMessage(), e));
      return null;
    }
    if (!key.equals(record.key())) {
      report(new RecordRejectedException("A " + record.type() + " record carries key '" + record.key()
          + "' but its row's key is '" + key + "'.", null));
      return null;
    }
    String id = ClientRecord.id(type.name(), key);
    Synced old = truth.get(id);
    if (old == null || lsn.reached(old.lsn())) {
      if (old == null || !type.sameRow(old.row(), row)) {
        dirty = true;
      }
      truth.put(id, new Synced(type, key, row, lsn));
      if (old == null) {
        holdFirstArrival(id, row);
      }
      changed();
    }
    return key;
  }

  /**
   * Whether {@code a} and {@code b}, rows of the registered entity {@code type}, are equal ({@link Row#equals}),
   * compared column by column through the entity's column types ({@link EntityRef#sameRow}); false when no entity
   * of that name is registered.
   */
  public boolean sameRow(String type, Row a, Row b) {
    EntityRef entity = entities.get(type);
    return entity != null && entity.sameRow(a, b);
  }

  /** Marks the current batch as changed, so listeners hear at its end (a list whose order changed calls it). */
  public void touch() {
    dirty = true;
    changed();
  }

  /** Marks {@code holder} as holding record {@code type:key}. */
  public void hold(Object holder, String type, String key) {
    holders.computeIfAbsent(ClientRecord.id(type, key), k -> new HashSet<>()).add(holder);
  }

  /** {@code holder} lets go of record {@code type:key}; the last holder letting go evicts it. */
  public void release(Object holder, String type, String key) {
    String id = ClientRecord.id(type, key);
    Set<Object> h = holders.get(id);
    if (h != null && h.remove(holder) && h.isEmpty()) {
      holders.remove(id);
      if (truth.remove(id) != null) {
        dirty = true;
        changed();
      }
    }
  }

  /** Whether truth holds record {@code type:key}. */
  public boolean holds(String type, String key) {
    return truth.containsKey(ClientRecord.id(type, key));
  }

  /** The synced row of record {@code type:key}, or null. */
  public @Nullable Row synced(String type, String key) {
    Synced s = truth.get(ClientRecord.id(type, key));
    return s == null ? null : s.row();
  }

  /** The LSN the synced record {@code type:key} was read or changed at, or null. */
  public @Nullable Position syncedLsn(String type, String key) {
    Synced s = truth.get(ClientRecord.id(type, key));
    return s == null ? null : s.lsn();
  }

  /** The row the page shows for record {@code type:key} (truth with the overlay), or null. */
  public @Nullable Row get(String type, String key) {
    Overlay.Change c = overlayView.get(ClientRecord.id(type, key));
    return c != null ? c.row() : synced(type, key);
  }

  /**
   * The records of entity {@code type} that pending writes changed, by key: the row, or null where a write deleted
   * the record.
   */
  public Map<String, @Nullable Row> optimistic(String type) {
    Map<String, @Nullable Row> out = new LinkedHashMap<>();
    for (Overlay.Change c : overlayView.values()) {
      if (c.type().name().equals(type)) {
        out.put(c.key(), c.row());
      }
    }
    return out;
  }

  /** The count of pending (unsettled) writes. */
  public int pendingWrites() {
    return overlay.pending().size();
  }

  /** A frame named the write digests {@code digests}: remembers them and settles the answered writes they name. */
  public void noteWrites(List<String> digests) {
    for (String d : digests) {
      if (recentDigests.add(d) && recentDigests.size() > RECENT_DIGESTS) {
        Iterator<String> oldest = recentDigests.iterator();
        oldest.next();
        oldest.remove();
      }
    }
    settle();
  }

  /** A {@code hello} answer's {@code lsn}: every answered write at or below it settles. */
  public void helloLsn(Position lsn) {
    helloLsn = lsn;
    // A loop, not removeIf: each predicate is one more class in a bundle.
    for (int i = lingering.size() - 1; i >= 0; i--) {
      Overlay.Pending<?> p = lingering.get(i);
      if (p.lsn != null && lsn.reached(p.lsn)) {
        lingering.remove(i);
        dirty = true;
      }
    }
    settle();
    changed();
  }

  /**
   * Who the pending writes are made as, given to their twins ({@link io.runnel.dsl.LocalTx#actor()}); the overlay
   * is built again when it changes.
   */
  public void actor(Actor actor) {
    Objects.requireNonNull(actor, "actor");
    if (!Objects.equals(this.actor.id(), actor.id()) || !Objects.equals(this.actor.orgId(), actor.orgId())) {
      this.actor = actor;
      dirty = true;
      changed();
    }
  }

  /** The principal changed (another actor): truth, holders, pending writes and remembered digests all go. */
  public void clear() {
    truth.clear();
    holders.clear();
    overlay.pending().clear();
    lingering.clear();
    recentDigests.clear();
    helloLsn = null;
    dirty = true;
    changed();
  }

  @Override
  public <I> void apply(String writeId, MutatorRef<I> mutator, I input) {
    Objects.requireNonNull(writeId, "writeId");
    Objects.requireNonNull(input, "input");
    if (overlay.find(writeId) != null) {
      report(new TwinFailedException(mutator.name(), writeId, new IllegalStateException("Write '" + writeId
          + "' is already pending, so this second copy is ignored")));
      return;
    }
    overlay.pending().add(new Overlay.Pending<>(writeId, mutator, input));
    if (mutator.local() != null) {
      dirty = true;
      changed();
    }
  }

  @Override
  public void sending(String writeId) {
    Overlay.Pending<?> p = overlay.find(writeId);
    Map<String, Overlay.Change> last = p == null ? null : p.last;
    if (p != null && last != null && p.held == null) {
      Map<String, @Nullable Row> held = new HashMap<>();
      for (String id : last.keySet()) {
        Synced s = truth.get(id);
        held.put(id, s == null ? null : s.row());
      }
      p.held = held;
      Set<String> awaited = new HashSet<>();
      for (String id : p.unseen) {
        if (!truth.containsKey(id)) {
          awaited.add(id);
        }
      }
      p.awaited = awaited;
    }
  }

  @Override
  public void answered(String writeId, String digest, String lsn) {
    Overlay.Pending<?> p = overlay.find(writeId);
    if (p != null) {
      p.digest = Objects.requireNonNull(digest, "digest");
      p.lsn = Position.parse(lsn);
      settle();
    }
  }

  @Override
  public void dropped(String writeId) {
    Overlay.Pending<?> p = overlay.find(writeId);
    if (p != null) {
      overlay.pending().remove(p);
      dirty = true;
      changed();
    }
  }

  private void settle() {
    boolean any = false;
    for (Overlay.Pending<?> p : List.copyOf(overlay.pending())) {
      if (p.digest == null || p.lsn == null) {
        continue;
      }
      boolean byHello = helloLsn != null && helloLsn.reached(p.lsn);
      if (byHello || recentDigests.contains(p.digest)) {
        overlay.pending().remove(p);
        Map<String, Overlay.Change> last = p.last;
        if (last != null) {
          trustEcho(last.keySet());
        }
        if (!byHello && last != null) {
          Map<String, @Nullable Position> since = new HashMap<>();
          for (String id : last.keySet()) {
            Synced s = truth.get(id);
            since.put(id, s == null ? null : s.lsn());
          }
          p.since = since;
          lingering.add(p);
        }
        any = true;
      }
    }
    if (any) {
      dirty = true;
      changed();
    }
  }

  /**
   * Record {@code id} came into truth with {@code row}: a sent write that read it while truth lacked it holds this
   * first row as its truth, as if it had been there when the write was sent. The write's echo (or a list's first
   * snapshot) may be that row only when it was read after the write committed; the outbox sends a replayed write
   * once the page's lists caught up, so it is rarely so.
   */
  private void holdFirstArrival(String id, Row row) {
    for (Overlay.Pending<?> p : overlay.pending()) {
      Set<String> awaited = p.awaited;
      Map<String, @Nullable Row> held = p.held;
      if (awaited != null && held != null && awaited.remove(id)) {
        held.put(id, row);
      }
    }
  }

  /**
   * A write that touched records {@code ids} settled, so truth's rows for them hold its echo: the writes still sent
   * and unsettled replay over those rows from now on (the settled write's effect is no longer theirs to add).
   */
  private void trustEcho(Set<String> ids) {
    for (Overlay.Pending<?> q : overlay.pending()) {
      Map<String, @Nullable Row> held = q.held;
      if (held != null) {
        for (String id : ids) {
          if (held.containsKey(id)) {
            Synced s = truth.get(id);
            held.put(id, s == null ? null : s.row());
          }
        }
      }
    }
  }

  /** Publishes now unless a batch is open. */
  private void changed() {
    if (depth == 0 && dirty) {
      publish();
    }
  }

  private void publish() {
    dirty = false;
    Map<String, Overlay.Change> view = overlay.pending().isEmpty() ? new LinkedHashMap<>() : overlay.replay(actor,
        id -> {
          for (Overlay.Pending<?> p : overlay.pending()) {
            Map<String, @Nullable Row> held = p.held;
            if (held != null && held.containsKey(id)) {
              return held.get(id);
            }
          }
          Synced s = truth.get(id);
          return s == null ? null : s.row();
        },
        (p, e) -> report(new TwinFailedException(p.mutator.name(), p.writeId, e)));
    for (Overlay.Pending<?> p : lingering) {
      Map<String, Overlay.Change> last = p.last;
      Map<String, @Nullable Position> since = p.since;
      Position at = p.lsn;
      if (last != null && since != null && at != null) {
        for (Map.Entry<String, Overlay.Change> e : last.entrySet()) {
          Overlay.Change c = e.getValue();
          Synced now = truth.get(e.getKey());
          if (now == null && since.get(e.getKey()) != null) {
            // Truth had the row when the write settled and has dropped it since (a later delete, or no list holds
            // it now): the write's row must not come back.
            continue;
          }
          // Truth's row shows only once it is newer than when the write settled, or reached the write's own LSN.
          boolean echoed = now != null && (!now.lsn().equals(since.get(e.getKey())) || now.lsn().reached(at));
          if (!view.containsKey(e.getKey())) {
            view.put(e.getKey(), c.row() == null || !echoed || now == null ? c
                : new Overlay.Change(c.type(), c.key(), now.row()));
          }
        }
      }
    }
    overlayView = view;
    for (Runnable l : List.copyOf(listeners)) {
      l.run();
    }
  }

  private void report(RunnelException e) {
    for (Consumer<RunnelException> l : List.copyOf(errorListeners)) {
      l.accept(e);
    }
  }
}
