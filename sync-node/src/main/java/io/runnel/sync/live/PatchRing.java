package io.runnel.sync.live;

import io.runnel.dsl.Row;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
  record Entry(String lsn, List<Row> visible, Map<String, Set<String>> writes, long bytes) {}

  /** A node-wide byte budget over every window's ring; evicts the oldest entries first. */
  static final class Budget {
    private final long bytes;
    private final Deque<PatchRing> order = new ArrayDeque<>();
    private long used;

    Budget(long bytes) {
      this.bytes = bytes;
    }

    synchronized void added(PatchRing ring, long size) {
      used += size;
      order.addLast(ring);
      while (used > bytes && !order.isEmpty()) {
        PatchRing oldest = order.removeFirst();
        used -= oldest.evictOldest();
      }
    }

    synchronized void released(long size) {
      used -= size;
    }

    synchronized long used() {
      return used;
    }
  }

  private final Budget budget;
  private final Deque<Entry> entries = new ArrayDeque<>();
  private String floor;
  private List<Row> base;

  PatchRing(Budget budget, String floor, List<Row> base) {
    this.budget = budget;
    this.floor = floor;
    this.base = base;
  }

  /** Starts over after a read: no history below {@code floor}, whose list is {@code base}. */
  void reset(String floor, List<Row> base) {
    long freed = 0;
    synchronized (this) {
      for (Entry e : entries) {
        freed += e.bytes();
      }
      entries.clear();
      this.floor = floor;
      this.base = base;
    }
    budget.released(freed);
  }

  /** Appends a patch's result. */
  void add(String lsn, List<Row> visible, Map<String, Set<String>> writes) {
    long bytes = 64L + 16L * visible.size() + 64L * writes.size();
    synchronized (this) {
      entries.addLast(new Entry(lsn, visible, writes, bytes));
    }
    budget.added(this, bytes);
  }

  /** Drops the oldest entry, raising the floor to it; returns the bytes freed (0 when empty). */
  synchronized long evictOldest() {
    Entry e = entries.pollFirst();
    if (e == null) {
      return 0;
    }
    floor = e.lsn();
    base = e.visible();
    return e.bytes();
  }

  /** The floor: no resume from below it. */
  synchronized String floor() {
    return floor;
  }

  /** What a resume from {@code lsn} replays: the list at {@code lsn}, then every later entry; null if unknown. */
  synchronized Replay since(String lsn) {
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
