package io.runnel.sync.socket.internal;

import io.helidon.webserver.ConnectionContext;
import io.helidon.websocket.WsSession;
import io.runnel.time.Threads;
import java.lang.System.Logger.Level;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The end of one {@link SyncSocket}'s connection: the closing handshake, sent without ever blocking the caller, and
 * the cut of a connection whose client does not take part in it.
 *
 * <p>Invariant: a connection the node closes ends within 2 s: the close frame is sent from a thread of its own, and
 * a client that has not taken it and answered with its own close frame by then is cut (RFC 6455 section 7.1.1: the
 * server closes the TCP connection once the closing handshake is done; a client that never reads would hold it open
 * for good). The client's answer is told by {@link #ended()}.
 */
final class ClosingHandshake {

  private static final System.Logger LOG = System.getLogger(SyncSocket.class.getName());

  /** Counted down when the connection ended: the client answered a close, or the connection failed. */
  private final CountDownLatch ended = new CountDownLatch(1);

  /** The connection ended: the client answered a close, or the connection failed. */
  void ended() {
    ended.countDown();
  }

  /**
   * Closes {@code s} with {@code code} from a thread of its own, cutting the connection when the client has not
   * answered within 2 s; answers that thread.
   */
  Thread close(WsSession s, int code, String reason) {
    return Threads.virtual("socket-close", () -> {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      Thread closer = Threads.virtual("socket-close-frame", () -> {
        try {
          s.close(code, reason);
        } catch (RuntimeException e) {
          cut(s);
        }
      });
      boolean answered = false;
      try {
        closer.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        answered = ended.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (closer.isAlive() || !answered) {
        cut(s);
      }
    });
  }

  /** Whether the TCP connection under {@code s} is still up (true when that cannot be told). */
  static boolean connected(WsSession s) {
    try {
      return !(s.socketContext() instanceof ConnectionContext c) || c.serverSocket().isConnected();
    } catch (RuntimeException e) {
      return true;
    }
  }

  /**
   * Cuts the connection under {@code s} from any thread: closes its TCP socket, so a send blocked on a client that
   * does not read fails at once and the reader sees the end. (Helidon's {@code WsSession.terminate()} is no use
   * here: it first sends a close frame, which blocks behind the stuck send, and then throws in the caller by
   * design, for the connection's own handler thread to catch.)
   */
  static void cut(WsSession s) {
    try {
      if (s.socketContext() instanceof ConnectionContext c) {
        c.serverSocket().close();
        return;
      }
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "Closing the TCP socket failed: " + e.getMessage());
    }
    try {
      s.terminate();
    } catch (RuntimeException e) {
      // CloseConnectionException: terminate() ends with it by design.
    }
  }
}
