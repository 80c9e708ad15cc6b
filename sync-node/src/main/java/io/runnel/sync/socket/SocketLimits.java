package io.runnel.sync.socket;

import java.time.Duration;
import java.util.Objects;

/**
 * A sync node's per-socket limits ({@code docs/protocol.md}, "Limits").
 *
 * @param maxFrameBytes the largest inbound frame (default 256 KiB; larger ones close the socket with 1009)
 * @param outboundBytes the outbound queue's bound per socket (default 1 MiB)
 * @param dropsBeforeClose dropped frames after which the socket is closed with 1013 (default 32)
 * @param idle how long a socket may stay silent before it is closed with 4001 (default 120 s)
 * @param sendDeadline how long one send may block before the socket is cut (default 10 s)
 * @param framesPerSecond the frame rate: inbound WebSocket frames a second per socket, refilled continuously
 *     (default 64); a frame over it is refused with {@code X_FRAME_RATE_LIMIT}
 * @param frameBurst the frame rate's depth: frames taken at once after a quiet spell (default 256); it is also the
 *     flood bound, so more than this many frames refused in a row close the socket with 1008
 */
public record SocketLimits(int maxFrameBytes, long outboundBytes, int dropsBeforeClose, Duration idle,
    Duration sendDeadline, double framesPerSecond, int frameBurst) {

  /** The protocol's frame rate: 64 inbound frames a second per socket. */
  private static final double FRAMES_PER_SECOND = 64;
  /** The protocol's frame burst: 256 frames at once. */
  private static final int FRAME_BURST = 256;

  /** The protocol's defaults. */
  public static final SocketLimits DEFAULTS = new SocketLimits(256 * 1024, 1024 * 1024, 32, Duration.ofSeconds(120),
      Duration.ofSeconds(10), FRAMES_PER_SECOND, FRAME_BURST);

  /**
   * Checks every limit is positive.
   *
   * @throws IllegalArgumentException when a limit is not positive
   */
  public SocketLimits {
    Objects.requireNonNull(idle, "idle");
    Objects.requireNonNull(sendDeadline, "sendDeadline");
    if (maxFrameBytes < 1 || outboundBytes < 1 || dropsBeforeClose < 1 || idle.isNegative() || idle.isZero()
        || sendDeadline.isNegative() || sendDeadline.isZero() || !(framesPerSecond > 0)
        || Double.isInfinite(framesPerSecond) || frameBurst < 1) {
      throw new IllegalArgumentException("Socket limits must be positive: " + this);
    }
  }

  /** These limits with the protocol's frame rate (64 frames a second, bursts of 256). */
  public SocketLimits(int maxFrameBytes, long outboundBytes, int dropsBeforeClose, Duration idle,
      Duration sendDeadline) {
    this(maxFrameBytes, outboundBytes, dropsBeforeClose, idle, sendDeadline, FRAMES_PER_SECOND, FRAME_BURST);
  }

  /**
   * These limits with a frame rate of {@code perSecond} inbound frames a second per socket, {@code burst} at once.
   *
   * @throws IllegalArgumentException when either is not positive (or the rate is not finite)
   */
  public SocketLimits withFrameRate(double perSecond, int burst) {
    return new SocketLimits(maxFrameBytes, outboundBytes, dropsBeforeClose, idle, sendDeadline, perSecond, burst);
  }
}
