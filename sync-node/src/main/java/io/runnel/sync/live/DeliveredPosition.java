package io.runnel.sync.live;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The node's delivered position: the LSN through which every window has queued the frames its changes caused
 * ({@code PROTOCOL.md}: the {@code lsn} of the {@code hello} answer, which lets a client settle a write that changed
 * nothing it holds).
 *
 * <p>The dispatcher records each transaction with the number of windows it was handed to; each window reports
 * when it has handled it. The position is the last transaction before the first one still being handled.
 */
final class DeliveredPosition {

  private static final class Pending {
    final String lsn;
    int windows;

    Pending(String lsn, int windows) {
      this.lsn = lsn;
      this.windows = windows;
    }
  }

  private final Deque<Pending> pending = new ArrayDeque<>();
  private String position = "";

  /** A transaction ending at {@code lsn} was handed to {@code windows} windows. */
  synchronized void dispatched(String lsn, int windows) {
    if (windows == 0 && pending.isEmpty()) {
      position = lsn;
      return;
    }
    pending.addLast(new Pending(lsn, windows));
    advance();
  }

  /** One window handled the transaction ending at {@code lsn}. */
  synchronized void done(String lsn) {
    for (Pending p : pending) {
      if (p.lsn.equals(lsn)) {
        p.windows--;
        break;
      }
    }
    advance();
  }

  private void advance() {
    while (!pending.isEmpty() && pending.peekFirst().windows <= 0) {
      position = pending.removeFirst().lsn;
    }
  }

  /** The delivered position (24 hex), or empty before the first transaction. */
  synchronized String position() {
    return position;
  }
}
