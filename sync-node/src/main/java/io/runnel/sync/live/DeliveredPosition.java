package io.runnel.sync.live;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * The node's delivered position: the LSN through which every window has queued the frames its changes caused
 * ({@code PROTOCOL.md}: the {@code lsn} of the {@code hello} answer, which lets a client settle a write that changed
 * nothing it holds).
 *
 * <p>The dispatcher records each transaction with the number of windows it was handed to; each window reports
 * when it has handled it. The position is the last transaction before the first one still being handled. A
 * replicator position heartbeat ({@link #passed}) is recorded the same way with no windows: it becomes the
 * position once every transaction before it is handled. Positions are 24-hex strings, so a heartbeat's point
 * ({@code …00000000}) and a row's LSN compare as text; the position never goes backwards.
 */
final class DeliveredPosition {

  private static final class Pending {
    String lsn;
    int windows;

    Pending(String lsn, int windows) {
      this.lsn = lsn;
      this.windows = windows;
    }
  }

  private final Deque<Pending> pending = new ArrayDeque<>();
  /** The entries of {@link #pending} still waiting for windows, by LSN: a window's {@link #done} finds its own. */
  private final Map<String, Pending> waiting = new HashMap<>();
  private String position = "";

  /** A transaction ending at {@code lsn} was handed to {@code windows} windows. */
  synchronized void dispatched(String lsn, int windows) {
    if (windows == 0) {
      if (pending.isEmpty()) {
        raise(lsn);
        return;
      }
      Pending last = pending.peekLast();
      if (last.windows <= 0) {
        // Nothing left to wait for at the tail: one entry stands for both, so heartbeats behind a slow window
        // do not pile up.
        if (lsn.compareTo(last.lsn) > 0) {
          last.lsn = lsn;
        }
        return;
      }
    }
    Pending same = windows > 0 ? waiting.get(lsn) : null;
    if (same != null) {
      // The same transaction handed out again (a redelivery) while its first hand-out is still being handled: the
      // first entry waits for both, which holds the position back no less than two entries would.
      same.windows += windows;
      return;
    }
    Pending p = new Pending(lsn, windows);
    pending.addLast(p);
    if (windows > 0) {
      waiting.put(lsn, p);
    }
    advance();
  }

  /**
   * The bus passed {@code point} (24 hex, ending in {@code 00000000}): every transaction committed below it was
   * dispatched before this call, so once those are handled, the position is {@code point}.
   */
  synchronized void passed(String point) {
    dispatched(point, 0);
  }

  /** One window handled the transaction ending at {@code lsn}. */
  synchronized void done(String lsn) {
    Pending p = waiting.get(lsn);
    if (p != null && --p.windows <= 0) {
      waiting.remove(lsn);
    }
    advance();
  }

  private void advance() {
    while (!pending.isEmpty() && pending.peekFirst().windows <= 0) {
      raise(pending.removeFirst().lsn);
    }
  }

  private void raise(String lsn) {
    if (lsn.compareTo(position) > 0) {
      position = lsn;
    }
  }

  /** The delivered position (24 hex), or empty before the first transaction. */
  synchronized String position() {
    return position;
  }
}
