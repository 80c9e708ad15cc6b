package io.runnel.sync.live.internal;

import io.runnel.dsl.ColumnType;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import io.runnel.protocol.Position;
import io.runnel.replicator.ChangeEvent;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Which windows a change must reach, found by lookups, never by scanning every window.
 *
 * <p>Per table: windows whose filter pins a column to a constant are indexed by that column's value (a change
 * reaches those whose constant its new row holds); windows pinning nothing are listed apart; and a key index maps
 * each record key to the windows that may hold that row, because an UPDATE under REPLICA IDENTITY DEFAULT carries
 * no old row, so a row leaving a pinned value ({@code status} open to closed) is found only by its key. Windows
 * that are reading receive every change of their table until their rows are indexed.
 *
 * <p>Invariant: the key index may list a window that no longer holds a row (extra deliveries are ignored), but never
 * misses one that does. The dispatcher thread adds entries as rows enter a window's filter and removes them as they
 * leave, in bus order; a window adds its read's rows before it stops reading, and prunes rows it dropped, guarded by
 * the LSN of the entry so an older prune never removes a newer entry.
 */
final class RoutingIndex {

  private final Map<String, Table> tables = new ConcurrentHashMap<>();
  private final AtomicLong additions = new AtomicLong();
  private final Function<String, @Nullable EntityRef> entityOfTable;

  /** @param entityOfTable the declared entity of a table, to spell old rows' keys */
  RoutingIndex(Function<String, @Nullable EntityRef> entityOfTable) {
    this.entityOfTable = entityOfTable;
  }

  private static final class Table {
    final Set<LiveWindow> unpinned = ConcurrentHashMap.newKeySet();
    final Set<LiveWindow> reading = ConcurrentHashMap.newKeySet();
    final Map<String, Map<Object, Set<LiveWindow>>> pinned = new ConcurrentHashMap<>();
    final Map<String, Map<LiveWindow, Position>> keys = new ConcurrentHashMap<>();
    final Set<LiveWindow> all = ConcurrentHashMap.newKeySet();
    final Map<String, ColumnType> pinnedTypes = new ConcurrentHashMap<>();
  }

  private Table table(String name) {
    return tables.computeIfAbsent(name, n -> new Table());
  }

  /**
   * How many times a window started reading (added, refilled or re-read): a window that started reading after a
   * transaction began may have missed its start.
   */
  long additions() {
    return additions.get();
  }

  /** Adds {@code w}, reading (it receives every change of its table until {@link #doneReading}). */
  void add(LiveWindow w) {
    Table t = table(w.table());
    t.reading.add(w);
    // Numbered once it is in the reading set, so a transaction that began before sees it as joining midway.
    w.addedAt(additions.incrementAndGet());
    t.all.add(w);
    if (w.pinColumn() == null) {
      t.unpinned.add(w);
    } else {
      t.pinnedTypes.putIfAbsent(w.pinColumn(), w.columnType(w.pinColumn()));
      t.pinned.computeIfAbsent(w.pinColumn(), c -> new ConcurrentHashMap<>())
          .computeIfAbsent(w.pinValue(), v -> ConcurrentHashMap.newKeySet()).add(w);
    }
  }

  /** Removes {@code w} and every key entry of it. */
  void remove(LiveWindow w) {
    Table t = table(w.table());
    t.reading.remove(w);
    t.unpinned.remove(w);
    t.all.remove(w);
    if (w.pinColumn() != null) {
      Map<Object, Set<LiveWindow>> byValue = t.pinned.get(w.pinColumn());
      if (byValue != null) {
        Set<LiveWindow> set = byValue.get(w.pinValue());
        if (set != null) {
          set.remove(w);
        }
      }
    }
    for (String key : w.indexedKeys()) {
      unindex(t, key, w, null);
    }
  }

  /** Marks {@code w} as reading again (a refill or re-read): it receives every change of its table. */
  void startReading(LiveWindow w) {
    table(w.table()).reading.add(w);
    w.addedAt(additions.incrementAndGet());
  }

  /** Indexes the keys a read returned (at read position {@code lsn}), then lets routing find {@code w} by them. */
  void doneReading(LiveWindow w, Iterable<String> keys, Position lsn) {
    Table t = table(w.table());
    for (String k : keys) {
      index(t, k, w, lsn);
    }
    t.reading.remove(w);
  }

  /** Forgets that {@code w} may hold {@code key}, unless a change newer than {@code lsn} indexed it since. */
  void prune(LiveWindow w, String key, Position lsn) {
    unindex(table(w.table()), key, w, lsn);
  }

  /**
   * The windows {@code change} must reach; called on the dispatcher thread in bus order, it also keeps the key
   * index in step with the change.
   */
  Set<LiveWindow> route(ChangeEvent change) {
    Table t = tables.get(change.table());
    if (t == null) {
      return Set.of();
    }
    return switch (change) {
      case ChangeEvent.Truncate x -> new HashSet<>(t.all);
      // An oversized row carries its key only, so no pinned value routes it: every window of its table re-reads.
      case ChangeEvent.Insert i when i.oversized() -> new HashSet<>(t.all);
      case ChangeEvent.Update u when u.oversized() -> new HashSet<>(t.all);
      case ChangeEvent.Insert i -> route(t, i.key(), i.row(), null, i.omitted(), false, i.lsn());
      case ChangeEvent.Update u -> route(t, u.key(), u.row(), oldKey(u.table(), u.old()), u.omitted(), true,
          u.lsn());
      case ChangeEvent.Delete d -> route(t, d.key(), null, oldKey(d.table(), d.old()), d.omitted(), true, d.lsn());
    };
  }

  /**
   * The windows a change of one row of {@code t} must reach, keeping the key index in step: {@code row} is its new
   * row (null for a delete), {@code oldKey} the key of its old row if it carried one, {@code byKey} whether the
   * windows that may hold its key hear of it (not for an insert).
   */
  private Set<LiveWindow> route(Table t, @Nullable String key, @Nullable Row row, @Nullable String oldKey,
      List<String> omitted, boolean byKey, Position lsn) {
    Set<LiveWindow> out = new HashSet<>(t.unpinned);
    out.addAll(t.reading);
    if (row != null) {
      for (Map.Entry<String, Map<Object, Set<LiveWindow>>> e : t.pinned.entrySet()) {
        Object v = row.get(e.getKey());
        if (v != null) {
          Set<LiveWindow> set = e.getValue().get(routingValue(t, e.getKey(), v));
          if (set != null) {
            out.addAll(set);
          }
        }
      }
    }
    if (byKey) {
      addKeyed(t, key, out);
      addKeyed(t, oldKey, out);
    }
    for (LiveWindow w : out) {
      boolean stays = row != null && w.mayHold(row, omitted);
      if (oldKey != null && !oldKey.equals(key)) {
        unindex(t, oldKey, w, null);
      }
      if (key != null) {
        if (stays) {
          index(t, key, w, lsn);
        } else {
          unindex(t, key, w, null);
        }
      }
    }
    return out;
  }

  /** The old row's key of an update or delete that carried one, else null. */
  private @Nullable String oldKey(String table, @Nullable Row old) {
    EntityRef entity = entityOfTable.apply(table);
    if (old == null || entity == null) {
      return null;
    }
    for (String k : entity.key()) {
      if (old.get(k) == null) {
        return null;
      }
    }
    return entity.keyOf(old);
  }

  private static Object routingValue(Table t, String column, Object value) {
    ColumnType type = t.pinnedTypes.get(column);
    return type == null ? value : type.routingValue(value);
  }

  private static void addKeyed(Table t, @Nullable String key, Set<LiveWindow> out) {
    if (key == null) {
      return;
    }
    Map<LiveWindow, Position> ws = t.keys.get(key);
    if (ws != null) {
      out.addAll(ws.keySet());
    }
  }

  /**
   * Indexes {@code key} for {@code w}: the per-key map is looked up and written in one atomic step. The per-key maps
   * are immutable and replaced on each write (most keys are held by one window: a one-entry map costs a few dozen
   * bytes where a concurrent map cost some two hundred, for every row of every window).
   */
  private static void index(Table t, String key, LiveWindow w, Position lsn) {
    t.keys.compute(key, (k, ws) -> {
      w.indexed(key);
      if (ws == null) {
        return Map.of(w, lsn);
      }
      Position had = ws.get(w);
      if (had != null && had.reached(lsn)) {
        return ws;
      }
      Map<LiveWindow, Position> m = new HashMap<>(ws);
      m.put(w, lsn);
      return Map.copyOf(m);
    });
  }

  /** Unindexes {@code key} for {@code w} unless its entry is newer than {@code olderThan}, in one atomic step. */
  private static void unindex(Table t, String key, LiveWindow w, @Nullable Position olderThan) {
    t.keys.computeIfPresent(key, (k, ws) -> {
      Position lsn = ws.get(w);
      if (lsn == null || (olderThan != null && lsn.isAfter(olderThan))) {
        return ws;
      }
      w.unindexed(key);
      if (ws.size() == 1) {
        return null;
      }
      Map<LiveWindow, Position> m = new HashMap<>(ws);
      m.remove(w);
      return Map.copyOf(m);
    });
  }

  /** How many key entries the index holds: one per window and key it routes by, over every table. */
  int keyEntries() {
    int n = 0;
    for (Table t : tables.values()) {
      for (Map<LiveWindow, Position> ws : t.keys.values()) {
        n += ws.size();
      }
    }
    return n;
  }
}
