package io.runnel.sync.live.internal;

import io.runnel.protocol.Position;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * The node's delivered position: the LSN through which every window has queued the frames its changes caused
 * ({@code docs/protocol.md}: the {@code lsn} of the {@code hello} answer, which lets a client settle a write that
 * changed nothing it holds).
 *
 * <p>The dispatcher records each transaction with the number of windows it was handed to; each window reports
 * when it has handled it. The position is the last transaction before the first one still being handled. A
 * replicator position heartbeat ({@link #passed}) is recorded the same way with no windows: it becomes the
 * position once every transaction before it is handled. A heartbeat's point sorts before every row committed at
 * its LSN ({@link Position}); the position never goes backwards.
 *
 * <p>Each entry also carries a PostgreSQL time (a transaction's commit time, a heartbeat's {@code at}): the node's
 * <b>asOf</b> is the latest time of an entry the position passed, the PostgreSQL time through which the node holds
 * every change. It never goes backwards either.
 */
final class DeliveredPosition {

  private static final class Pending {
    Position lsn;
    int windows;
    long at;

    Pending(Position lsn, int windows, long at) {
      this.lsn = lsn;
      this.windows = windows;
      this.at = at;
    }
  }

  private final Deque<Pending> pending = new ArrayDeque<>();
  /** The entries of {@link #pending} still waiting for windows, by LSN: a window's {@link #done} finds its own. */
  private final Map<Position, Pending> waiting = new HashMap<>();
  private Position position = Position.ZERO;
  private long asOf;

  /**
   * A transaction ending at {@code lsn} was handed to {@code windows} windows; {@code at} is its commit time (epoch
   * ms, PostgreSQL's clock; 0 when unknown).
   */
  synchronized void dispatched(Position lsn, int windows, long at) {
    if (windows == 0) {
      if (pending.isEmpty()) {
        raise(lsn, at);
        return;
      }
      Pending last = pending.peekLast();
      if (last.windows <= 0) {
        // Nothing left to wait for at the tail: one entry stands for both, so heartbeats behind a slow window
        // do not pile up.
        if (lsn.isAfter(last.lsn)) {
          last.lsn = lsn;
        }
        last.at = Math.max(last.at, at);
        return;
      }
    }
    Pending same = windows > 0 ? waiting.get(lsn) : null;
    if (same != null) {
      // The same transaction handed out again (a redelivery) while its first hand-out is still being handled: the
      // first entry waits for both, which holds the position back no less than two entries would.
      same.windows += windows;
      same.at = Math.max(same.at, at);
      return;
    }
    Pending p = new Pending(lsn, windows, at);
    pending.addLast(p);
    if (windows > 0) {
      waiting.put(lsn, p);
    }
    advance();
  }

  /**
   * The bus passed {@code point} (a point: row 0): every transaction committed below it was dispatched before this
   * call, so once those are handled, the position is {@code point}, and the node holds every
   * change committed before {@code at} (epoch ms, PostgreSQL's clock; 0 when unknown).
   */
  synchronized void passed(Position point, long at) {
    dispatched(point, 0, at);
  }

  /** One window handled the transaction ending at {@code lsn}. */
  synchronized void done(Position lsn) {
    Pending p = waiting.get(lsn);
    if (p != null && --p.windows <= 0) {
      waiting.remove(lsn);
    }
    advance();
  }

  private void advance() {
    while (!pending.isEmpty() && pending.peekFirst().windows <= 0) {
      Pending p = pending.removeFirst();
      raise(p.lsn, p.at);
    }
  }

  private void raise(Position lsn, long at) {
    if (lsn.isAfter(position)) {
      position = lsn;
    }
    asOf = Math.max(asOf, at);
  }

  /** The asOf (epoch ms, PostgreSQL's clock): every change committed before it is queued; 0 before the first. */
  synchronized long asOf() {
    return asOf;
  }

  /**
   * The delivered position, or {@link Position#ZERO} before the first transaction (no change or heartbeat is ever
   * at zero: rows count from 1, and a heartbeat at {@code 0/0} is refused).
   */
  synchronized Position position() {
    return position;
  }
}
