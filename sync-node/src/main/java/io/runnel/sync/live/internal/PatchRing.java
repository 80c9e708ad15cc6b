package io.runnel.sync.live.internal;

import io.runnel.dsl.Row;
import io.runnel.protocol.Position;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A window's recent history, for resume: the window's visible list (before any row rule) after each patch, with
 * the patch's LSN and the writes it carried, above a floor (the position and list when the window's rows were last
 * read, raised by eviction).
 *
 * <p>Keeping lists rather than ops lets a resume re-filter history for one subscriber's row rule: rows are
 * immutable and shared, so an entry costs a reference per row. Entries count against a node-wide {@link Budget};
 * when it is spent, the oldest entries of any window go first. Thread-safe: the window's lane appends and
 * resumes, the budget evicts from whichever lane overspent.
 */
final class PatchRing {

  /**
   * One patch: the window's visible list after it, at {@code lsn}.
   *
   * @param lsn the window's position after the patch
   * @param visible the visible list after it, before any row rule
   * @param writes each write digest the transaction carried, with the keys it changed
   * @param bytes the entry's estimated size
   */
  record Entry(Position lsn, List<Row> visible, Map<String, Set<String>> writes, long bytes) {}

  /**
   * A node-wide byte budget over every window's ring; evicts the oldest entries first. It remembers entries in the
   * order they were added; an entry its ring already dropped (a reset, a close) is skipped when its turn comes,
   * and such leftovers are compacted away once they outnumber the live entries.
   */
  static final class Budget {
    private record Added(PatchRing ring, Entry entry) {}

    private final long bytes;
    private final Deque<Added> order = new ArrayDeque<>();
    private long used;
    private long live;

    Budget(long bytes) {
      this.bytes = bytes;
    }

    synchronized void added(PatchRing ring, Entry entry) {
      used += entry.bytes();
      live++;
      order.addLast(new Added(ring, entry));
      while (used > bytes && !order.isEmpty()) {
        Added oldest = order.removeFirst();
        if (oldest.ring().evict(oldest.entry())) {
          used -= oldest.entry().bytes();
          live--;
        }
      }
      if (order.size() > 2 * live + 1024) {
        order.removeIf(a -> !a.ring().holds(a.entry()));
      }
    }

    synchronized void released(long size, int entries) {
      used -= size;
      live -= entries;
    }

    synchronized long used() {
      return used;
    }
  }

  private final Budget budget;
  private final Deque<Entry> entries = new ArrayDeque<>();
  private Position floor;
  private List<Row> base;
  /** Whether more than one list state had the floor's position, so no cursor there can resume. */
  private boolean ambiguousFloor;

  PatchRing(Budget budget, Position floor, List<Row> base) {
    this.budget = budget;
    this.floor = floor;
    this.base = base;
  }

  /** Starts over after a read: no history below {@code floor}, whose list is {@code base}. */
  void reset(Position floor, List<Row> base) {
    long freed = 0;
    int count;
    synchronized (this) {
      for (Entry e : entries) {
        freed += e.bytes();
      }
      count = entries.size();
      entries.clear();
      this.floor = floor;
      this.base = base;
      this.ambiguousFloor = false;
    }
    budget.released(freed, count);
  }

  /**
   * Records {@code visible} at {@code lsn}. A position holds one list state: when the window's position did not
   * move (changes below a read's position applied after it), the ring starts over at that position, marked so
   * that a cursor at it, which may stand for either state, gets a snapshot.
   */
  void record(Position lsn, List<Row> visible, Map<String, Set<String>> writes) {
    boolean collides;
    synchronized (this) {
      collides = entries.isEmpty() ? lsn.equals(floor) : lsn.equals(entries.peekLast().lsn());
    }
    if (collides) {
      reset(lsn, visible);
      synchronized (this) {
        ambiguousFloor = true;
      }
    } else {
      add(lsn, visible, writes);
    }
  }

  /** Whether a cursor at the floor cannot resume (two list states shared that position). */
  synchronized boolean floorAmbiguous() {
    return ambiguousFloor;
  }

  /** Appends a patch's result. */
  void add(Position lsn, List<Row> visible, Map<String, Set<String>> writes) {
    Entry e = new Entry(lsn, visible, writes, 64L + 16L * visible.size() + 64L * writes.size());
    synchronized (this) {
      entries.addLast(e);
    }
    budget.added(this, e);
  }

  /** Drops {@code e} if it is still this ring's oldest entry, raising the floor to it; whether it did. */
  // Identity on purpose: the entry handed out earlier, not an equal one.
  @SuppressWarnings("ReferenceEquality")
  synchronized boolean evict(Entry e) {
    if (entries.peekFirst() != e) {
      return false;
    }
    entries.pollFirst();
    floor = e.lsn();
    base = e.visible();
    ambiguousFloor = false;
    return true;
  }

  /** Whether {@code e} is still in this ring. */
  synchronized boolean holds(Entry e) {
    return entries.contains(e);
  }

  /** The floor: no resume from below it. */
  synchronized Position floor() {
    return floor;
  }

  /** What a resume from {@code lsn} replays: the list at {@code lsn}, then every later entry; null if unknown. */
  synchronized @Nullable Replay since(Position lsn) {
    if (lsn.equals(floor)) {
      return new Replay(base, List.copyOf(entries));
    }
    List<Entry> after = new ArrayList<>();
    List<Row> at = null;
    for (Entry e : entries) {
      if (at != null) {
        after.add(e);
      } else if (e.lsn().equals(lsn)) {
        at = e.visible();
      }
    }
    return at == null ? null : new Replay(at, after);
  }

  /**
   * A replay: the window's list at the resume point, and the entries after it.
   *
   * @param at the visible list at the cursor
   * @param entries the later entries, oldest first
   */
  record Replay(List<Row> at, List<Entry> entries) {}
}
