package io.runnel.sync.live.internal;

import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Matcher;
import io.runnel.dsl.Order;
import io.runnel.dsl.Row;
import io.runnel.protocol.Op;
import io.runnel.protocol.WireRecord;
import io.runnel.replicator.ChangeEvent;
import io.runnel.wire.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The rows a window holds, in query order, and how one change moves them.
 *
 * <p>Design: a read fetches up to {@code capacity} rows ({@code limit} plus a few kept beyond the limit, so a row
 * leaving does not always cost a read). The window then holds every matching row that sorts at or before its
 * <em>boundary</em>, the last row the read returned, or every matching row at all when the read came back short
 * ({@link #complete()}). Changes keep that invariant: a row enters when it matches and sorts within the boundary,
 * leaves when it stops matching or is deleted; rows past capacity are dropped and the boundary pulled in. When
 * fewer than {@code limit} rows remain within a boundary, the visible list may be missing rows that exist, so the
 * window must be refilled by a read. An update whose row arrives without its unchanged TOASTed columns is completed
 * from the held row; a partial row that would enter cannot be adopted, and the window is re-read instead.
 */
final class WindowRows {

  /** What applying a change asks of the window. */
  enum Outcome {
    /** Applied (or nothing to do). */
    APPLIED,
    /** A row would enter without all its columns: re-read the window. */
    NEEDS_READ
  }

  private final EntityRef entity;
  private final Matcher matcher;
  private final int limit;
  private final int capacity;
  private final TreeSet<Row> held;
  private final Map<String, Row> byKey = new HashMap<>();
  private boolean complete;
  private @Nullable Row boundary;
  private long removals;

  WindowRows(EntityRef entity, Matcher matcher, int limit, int capacity) {
    this.entity = entity;
    this.matcher = matcher;
    this.limit = limit;
    this.capacity = capacity;
    this.held = new TreeSet<>(matcher);
  }

  /** Replaces everything with a read's rows (in query order); {@code complete} when the read came back short. */
  void load(List<Row> rows, boolean complete) {
    held.clear();
    byKey.clear();
    for (Row r : rows) {
      held.add(r);
      byKey.put(entity.keyOf(r), r);
    }
    this.complete = complete;
    this.boundary = complete || held.isEmpty() ? null : held.last();
  }

  /** How many held rows have left (removed by a change) so far. */
  long removals() {
    return removals;
  }

  /** Whether every matching row is held. */
  boolean complete() {
    return complete;
  }

  /** Whether {@code key} is held. */
  boolean holds(String key) {
    return byKey.containsKey(key);
  }

  /** The held row of {@code key}, or null. */
  @Nullable Row row(String key) {
    return byKey.get(key);
  }

  /** Every held key. */
  List<String> keys() {
    return new ArrayList<>(byKey.keySet());
  }

  /** The visible list: the first {@code limit} held rows, in query order. */
  List<Row> visible() {
    List<Row> out = new ArrayList<>(Math.min(limit, held.size()));
    Iterator<Row> it = held.iterator();
    while (it.hasNext() && out.size() < limit) {
      out.add(it.next());
    }
    return out;
  }

  /** Whether rows may be missing from the visible list, so the window must be refilled by a read. */
  boolean needsRefill() {
    return !complete && held.size() < limit;
  }

  /**
   * Applies one change of this window's table.
   *
   * @return {@link Outcome#NEEDS_READ} when a partial row would enter, or an oversized change (its key only) came
   */
  Outcome apply(ChangeEvent change) {
    return switch (change) {
      case ChangeEvent.Insert i when i.oversized() -> tooLarge(i.key(), null);
      case ChangeEvent.Update u when u.oversized() -> tooLarge(u.key(), u.old());
      case ChangeEvent.Insert i -> consider(i.row());
      case ChangeEvent.Update u -> update(u);
      case ChangeEvent.Delete d -> {
        removeKey(d.key());
        String oldKey = keyOrNull(d.old());
        if (oldKey != null) {
          removeKey(oldKey);
        }
        yield Outcome.APPLIED;
      }
      case ChangeEvent.Truncate t -> {
        removals += held.size();
        held.clear();
        byKey.clear();
        complete = true;
        boundary = null;
        yield Outcome.APPLIED;
      }
    };
  }

  /**
   * An insert or update too large for the bus: only its key came, and its other values are unknown (not unchanged).
   * What the window held of the row goes; a read brings the row back where it belongs.
   */
  private Outcome tooLarge(@Nullable String key, @Nullable Row old) {
    removeKey(key);
    if (old != null) {
      removeKey(keyOrNull(old));
    }
    return Outcome.NEEDS_READ;
  }

  private Outcome update(ChangeEvent.Update change) {
    Row held = removeKey(change.key());
    if (change.old() != null) {
      String oldKey = keyOrNull(change.old());
      Row before = oldKey == null ? null : removeKey(oldKey);
      held = held != null ? held : before;
    }
    Row next = change.row();
    if (!change.omitted().isEmpty()) {
      if (held == null) {
        return couldEnter(next, change.omitted()) ? Outcome.NEEDS_READ : Outcome.APPLIED;
      }
      next = held.merge(next);
    }
    return consider(next);
  }

  /**
   * Drops held rows past capacity, pulling the boundary in.
   *
   * @return the keys dropped
   */
  List<String> trim() {
    List<String> dropped = new ArrayList<>();
    while (held.size() > capacity) {
      Row last = held.pollLast();
      String key = entity.keyOf(last);
      byKey.remove(key);
      dropped.add(key);
      complete = false;
      boundary = held.last();
    }
    return dropped;
  }

  private Outcome consider(@Nullable Row row) {
    if (row == null || !matcher.matches(row)) {
      return Outcome.APPLIED;
    }
    if (!complete && (boundary == null || matcher.compare(row, boundary) > 0)) {
      return Outcome.APPLIED;
    }
    held.add(row);
    byKey.put(entity.keyOf(row), row);
    return Outcome.APPLIED;
  }

  /** Whether a row lacking {@code omitted} columns might match and sort within the boundary. */
  private boolean couldEnter(@Nullable Row partial, List<String> omitted) {
    if (partial == null) {
      return false;
    }
    for (String column : omitted) {
      if (readsColumn(column)) {
        return true;
      }
    }
    if (!matcher.matches(partial)) {
      return false;
    }
    return complete || (boundary != null && matcher.compare(partial, boundary) <= 0);
  }

  private boolean readsColumn(String column) {
    for (Order o : matcher.select().effectiveOrder()) {
      if (o.column().equals(column)) {
        return true;
      }
    }
    return matcher.select().filter() != null && Filters.reads(matcher.select().filter(), column);
  }

  private @Nullable Row removeKey(@Nullable String key) {
    if (key == null) {
      return null;
    }
    Row r = byKey.remove(key);
    if (r != null) {
      held.remove(r);
      removals++;
    }
    return r;
  }

  private @Nullable String keyOrNull(Row row) {
    for (String k : entity.key()) {
      if (row.get(k) == null) {
        return null;
      }
    }
    return entity.keyOf(row);
  }

  /**
   * The ops that turn list {@code before} into list {@code after}: deletes first, then, left to right, a placed put
   * for each record that is new or whose predecessor changed, and an in-place put for each record whose row changed.
   */
  static List<Op> diff(EntityRef entity, List<Row> before, List<Row> after) {
    return diff(entity, before, after, new IdentityHashMap<>(), new IdentityHashMap<>());
  }

  /**
   * The same, taking each row's JSON from {@code json} and its key from {@code keys} (both by row identity) and
   * adding those it makes: a window's subscribers share its rows, so one transaction makes each once.
   */
  static List<Op> diff(EntityRef entity, List<Row> before, List<Row> after, Map<Row, JsonObject> json,
      Map<Row, String> keys) {
    Map<String, Row> old = new HashMap<>();
    List<String> cur = new ArrayList<>(before.size());
    for (Row r : before) {
      String k = keys.computeIfAbsent(r, entity::keyOf);
      old.put(k, r);
      cur.add(k);
    }
    Map<String, Row> next = new HashMap<>();
    List<String> target = new ArrayList<>(after.size());
    for (Row r : after) {
      String k = keys.computeIfAbsent(r, entity::keyOf);
      next.put(k, r);
      target.add(k);
    }
    List<Op> ops = new ArrayList<>();
    for (Iterator<String> it = cur.iterator(); it.hasNext(); ) {
      String k = it.next();
      if (!next.containsKey(k)) {
        ops.add(new Op.Del(entity.name(), k));
        it.remove();
      }
    }
    for (int i = 0; i < target.size(); i++) {
      String k = target.get(i);
      Row row = Objects.requireNonNull(next.get(k), "target holds next's keys");
      if (i < cur.size() && cur.get(i).equals(k)) {
        if (!row.equals(old.get(k))) {
          ops.add(new Op.Update(new WireRecord(entity.name(), k, json.computeIfAbsent(row, entity::rowToJson))));
        }
        continue;
      }
      int at = cur.indexOf(k);
      if (at >= 0) {
        cur.remove(at);
      }
      cur.add(i, k);
      ops.add(new Op.Place(new WireRecord(entity.name(), k, json.computeIfAbsent(row, entity::rowToJson)),
          i == 0 ? null : target.get(i - 1)));
    }
    return ops;
  }
}
