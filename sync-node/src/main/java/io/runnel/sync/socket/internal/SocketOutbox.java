package io.runnel.sync.socket.internal;

import io.helidon.websocket.WsSession;
import io.runnel.protocol.ServerFrame;
import io.runnel.sync.socket.SocketLimits;
import io.runnel.time.Threads;
import io.runnel.wire.RunnelException;
import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The outbound side of one {@link SyncSocket}: every frame it sends goes through its own {@link OutboundQueue},
 * written on the queue's thread, so a client that stops reading stalls nobody else.
 *
 * <p>Invariant: a frame offered to an open socket is either queued (counted sent) or dropped (counted, and remembered
 * so the next drain asks the channel hub for what it lost; one offered before the socket opened or after it closed is
 * neither, and refused); the {@link SocketLimits#dropsBeforeClose()}-th drop, and only it,
 * closes the socket with 1013, from a thread of its own. A send that fails ends the socket: a socket left open with
 * no writer would swallow every later frame.
 */
final class SocketOutbox {

  private static final System.Logger LOG = System.getLogger(SyncSocket.class.getName());

  private final SocketLimits limits;
  private final SocketMeters meters;
  private final SyncSocket socket;
  private final AtomicInteger drops = new AtomicInteger();
  /** Set when a frame was dropped, so the next drain asks the channel hub for the rosters it lost. */
  private final AtomicBoolean lostFrames = new AtomicBoolean();
  private volatile @Nullable OutboundQueue queue;

  SocketOutbox(SocketLimits limits, SocketMeters meters, SyncSocket socket) {
    this.limits = limits;
    this.meters = meters;
    this.socket = socket;
  }

  /** The socket opened on {@code s}: its queue writes there from now on, and runs {@code drained} when it empties. */
  void opened(WsSession s, Runnable drained) {
    OutboundQueue q = new OutboundQueue(limits.outboundBytes(), text -> written(s, text), "socket-writer");
    queue = q;
    q.onDrained(drained);
  }

  /** Answers {@code refuse} with {@code e} (for {@code sid}, if any), counted under its code. */
  void refuse(RunnelException e, @Nullable String sid) {
    meters.refused(e.code().name());
    answer(ServerFrame.Refuse.of(e, sid, null));
  }

  /**
   * Queues the answer to a frame the client sent ({@code hello}, {@code refuse}) behind whatever is queued, past the
   * data bound ({@link OutboundQueue#offerAnswer}); false when even that room is full.
   */
  boolean answer(ServerFrame frame) {
    return queue(FrameCodec.encode(frame), true);
  }

  /** Queues a frame; false when it was dropped over the bound. */
  boolean send(ServerFrame frame) {
    return send(FrameCodec.encode(frame));
  }

  /** Queues one frame's text; false when it was dropped over the bound (or the socket is closed). */
  boolean send(String text) {
    return queue(text, false);
  }

  private boolean queue(String text, boolean answer) {
    OutboundQueue q = queue;
    if (q == null || !socket.open()) {
      return false;
    }
    long bytes = FrameAssembler.utf8Length(text);
    if (answer ? q.offerAnswer(text, bytes) : q.offer(text, bytes)) {
      meters.framesSent.increment();
      meters.bytesSent.increment((double) bytes);
      return true;
    }
    lostFrames.set(true);
    dropped();
    return false;
  }

  /** Counts a frame dropped (or not sent for a desynced subscription); closes the socket at the limit. */
  void dropped() {
    meters.framesDropped.increment();
    if (drops.incrementAndGet() == limits.dropsBeforeClose()) {
      // On a thread of its own: the sender may hold a channel topic's lock, and closing leaves every topic, which
      // takes this socket's hub state first (the hub's lock order is socket, then topic).
      Threads.virtual("socket-drops-close",
          () -> socket.close(1013, "Too many frames dropped: the client is not reading."));
    }
  }

  /** Whether a frame was dropped since the last call (which clears it). */
  boolean takeLostFrames() {
    return lostFrames.getAndSet(false);
  }

  /** Since when ({@link System#nanoTime()}) the writer has been blocked in one send; 0 when it is not sending. */
  long sendingSince() {
    OutboundQueue q = queue;
    return q == null ? 0 : q.sendingSince();
  }

  /** Closes the queue, if the socket opened one; later frames are not sent. */
  void close() {
    OutboundQueue q = queue;
    if (q != null) {
      q.close();
    }
  }

  /**
   * The writer's send of one frame. A send that fails ends the writer, so it ends the socket too: a socket left open
   * with no writer would swallow every later frame, {@code hello} answers included.
   */
  private void written(WsSession s, String text) {
    try {
      s.send(text, true);
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "Socket send failed: " + e.getMessage());
      socket.cleanUp();
      ClosingHandshake.cut(s);
      throw e;
    }
  }
}
