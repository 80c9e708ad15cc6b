package io.runnel.sync.live.internal;

import io.runnel.protocol.Lsn;
import io.runnel.replicator.ChangeEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The transactions the dispatcher handed out recently, kept so a window whose read lands can replay those its
 * snapshot did not see: a transaction whose commit record precedes the read's position P but which was not yet
 * visible when the read took its snapshot was dispatched before the window existed, and would otherwise be lost
 * (invariant 3b).
 *
 * <p>Bounded by a change count: the oldest transactions' changes are dropped first, and their xids and commit LSNs
 * kept a while longer so a landing read can tell when something it might need is gone (it then reads again rather
 * than diverge). Thread-safe: the dispatcher appends, window lanes read.
 */
final class RecentTransactions {

  /** One dispatched transaction, with its changes or, once evicted, without them. */
  private record Txn(long xid, Lsn commit, List<ChangeEvent> changes) {}

  private final int maxChanges;
  private final int maxEvicted;
  private final Deque<Txn> kept = new ArrayDeque<>();
  private final Deque<Txn> evicted = new ArrayDeque<>();
  private int keptChanges;

  RecentTransactions(int maxChanges, int maxEvicted) {
    this.maxChanges = maxChanges;
    this.maxEvicted = maxEvicted;
  }

  /** Records a complete transaction (its changes in order). */
  synchronized void add(List<ChangeEvent> changes) {
    if (changes.isEmpty()) {
      return;
    }
    ChangeEvent first = changes.get(0);
    kept.addLast(new Txn(first.xid(), first.lsn().lsn(), List.copyOf(changes)));
    keptChanges += changes.size();
    while (keptChanges > maxChanges && kept.size() > 1) {
      Txn old = kept.removeFirst();
      keptChanges -= old.changes().size();
      evicted.addLast(new Txn(old.xid(), old.commit(), List.of()));
      if (evicted.size() > maxEvicted) {
        evicted.removeFirst();
      }
    }
  }

  /** Records a transaction whose changes were too many to keep: a read needing them must read again. */
  synchronized void addWithoutChanges(long xid, Lsn commit) {
    evicted.addLast(new Txn(xid, commit, List.of()));
    if (evicted.size() > maxEvicted) {
      evicted.removeFirst();
    }
  }

  /** What a landing read must replay, and whether the buffer still held all of it. */
  record Replay(List<ChangeEvent> changes, boolean complete) {}

  /**
   * The changes of {@code table} from transactions that committed before {@code position} but are not visible in
   * {@code snapshot}, in commit order.
   */
  synchronized Replay invisibleBefore(String table, XidSnapshot snapshot, Lsn position) {
    boolean complete = true;
    for (Txn t : evicted) {
      if (t.commit().compareTo(position) < 0 && !snapshot.isVisible(t.xid())) {
        complete = false;
      }
    }
    List<ChangeEvent> out = new ArrayList<>();
    for (Txn t : kept) {
      if (t.commit().compareTo(position) < 0 && !snapshot.isVisible(t.xid())) {
        for (ChangeEvent c : t.changes()) {
          if (c.table().equals(table)) {
            out.add(c);
          }
        }
      }
    }
    return new Replay(out, complete);
  }
}
