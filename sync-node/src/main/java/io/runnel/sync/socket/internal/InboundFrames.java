package io.runnel.sync.socket.internal;

import io.runnel.protocol.FrameException;
import io.runnel.sync.socket.SocketLimits;
import io.runnel.wire.ErrorCode;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The inbound side of one {@link SyncSocket}: WebSocket frames, text fragments or binary, in; whole text frames out
 * to {@link SyncSocket#handle(String)}, under the socket's frame rate.
 *
 * <p>Invariant: every WebSocket frame takes its token before anything reads it, so fragments cost what whole frames
 * do. A fragment over the rate is refused and drops its whole message: the rest of it is skipped, never assembled.
 * Frames refused in a row are counted; once more than the burst were, the flood goes on and the socket is closed
 * with 1008. A binary frame drops any text message in progress and is refused when it is final. Runs on the
 * connection's reader thread only; {@link #lastInbound()} is read by the node's sweep too.
 */
final class InboundFrames {

  private final SocketLimits limits;
  private final LongSupplier nanos;
  private final SocketMeters meters;
  private final SyncSocket socket;
  private final SocketOutbox outbox;
  private final FrameAssembler fragments;
  /** Frame budget: {@link SocketLimits#framesPerSecond()}, at most {@link SocketLimits#frameBurst()} tokens. */
  private final TokenBucket frameBudget;
  private volatile long lastInbound;
  private int floods;
  /** Set while the rest of a text message a fragment over the rate dropped is still coming (reader thread only). */
  private boolean skipping;

  /** The inbound side of {@code socket} under {@code limits}, its rate measured on {@code nanos} (monotonic). */
  InboundFrames(SocketLimits limits, LongSupplier nanos, SocketMeters meters, SyncSocket socket, SocketOutbox outbox) {
    this.limits = limits;
    this.nanos = nanos;
    this.meters = meters;
    this.socket = socket;
    this.outbox = outbox;
    this.fragments = new FrameAssembler(limits.maxFrameBytes());
    this.frameBudget = new TokenBucket(limits.framesPerSecond(), limits.frameBurst(), TimeUnit.NANOSECONDS,
        nanos.getAsLong());
  }

  /** The socket opened: its idle time counts from now. */
  void opened() {
    lastInbound = nanos.getAsLong();
  }

  /** When the last WebSocket frame came (the monotonic clock, nanoseconds), for the idle sweep. */
  long lastInbound() {
    return lastInbound;
  }

  /**
   * One WebSocket frame of a text message: it takes its token before anything reads it, so fragments cost what whole
   * frames do. A fragment over the rate is refused and drops its message; the rest of that message is not read.
   */
  void text(String text, boolean last) {
    lastInbound = nanos.getAsLong();
    if (!socket.open()) {
      return;
    }
    if (!withinRate()) {
      fragments.reset();
      skipping = !last;
      return;
    }
    if (skipping) {
      skipping = !last;
      return;
    }
    String frame;
    try {
      frame = fragments.append(text, last);
    } catch (FrameException e) {
      meters.refused(e.code().name());
      socket.close(1009, e.cause());
      return;
    }
    if (frame != null) {
      socket.handle(frame);
    }
  }

  /** One WebSocket frame of a binary message, final or not: it takes a token, and it drops a text message. */
  void binary(boolean last) {
    lastInbound = nanos.getAsLong();
    fragments.reset();
    skipping = false;
    if (socket.open() && withinRate() && last) {
      outbox.refuse(new NodeException(ErrorCode.X_FRAME_INVALID, "The node reads text frames only; a binary frame "
          + "came.", "Send each frame as one JSON text frame."), null);
    }
  }

  /** Takes one token; false when the socket is over its frame rate. */
  private boolean admit() {
    if (frameBudget.take(nanos.getAsLong()) == 0) {
      floods = 0;
      return true;
    }
    return false;
  }

  /**
   * Takes a token for one frame; when over the rate, refuses it, or closes with 1008 once more frames than the burst
   * were refused in a row (the flood goes on).
   */
  private boolean withinRate() {
    if (admit()) {
      return true;
    }
    String rate = perSecond(limits.framesPerSecond());
    if (++floods > limits.frameBurst()) {
      socket.close(1008, "Frame flood: over " + rate + " frames a second for too long.");
      return false;
    }
    outbox.refuse(new NodeException(ErrorCode.X_FRAME_RATE_LIMIT, "Over " + rate + " frames a second (burst "
        + limits.frameBurst() + ").", "Send fewer frames; beat hello every heartbeatMs."), null);
    return false;
  }

  /** A rate as people write it: {@code 64}, or {@code 0.5}. */
  private static String perSecond(double rate) {
    return rate == Math.rint(rate) && rate < Long.MAX_VALUE ? Long.toString((long) rate) : Double.toString(rate);
  }
}
