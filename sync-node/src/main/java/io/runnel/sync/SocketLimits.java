package io.runnel.sync;

import java.time.Duration;
import java.util.Objects;

/**
 * A sync node's per-socket limits ({@code PROTOCOL.md}, "Limits").
 *
 * @param maxFrameBytes the largest inbound frame (default 256 KiB; larger ones close the socket with 1009)
 * @param outboundBytes the outbound queue's bound per socket (default 1 MiB)
 * @param dropsBeforeClose dropped frames after which the socket is closed with 1013 (default 32)
 * @param idle how long a socket may stay silent before it is closed with 4001 (default 120 s)
 * @param sendDeadline how long one send may block before the socket is cut (default 10 s)
 */
public record SocketLimits(int maxFrameBytes, long outboundBytes, int dropsBeforeClose, Duration idle,
    Duration sendDeadline) {

  /** The protocol's defaults. */
  public static final SocketLimits DEFAULTS =
      new SocketLimits(256 * 1024, 1024 * 1024, 32, Duration.ofSeconds(120), Duration.ofSeconds(10));

  /** Checks every limit is positive. */
  public SocketLimits {
    Objects.requireNonNull(idle, "idle");
    Objects.requireNonNull(sendDeadline, "sendDeadline");
    if (maxFrameBytes < 1 || outboundBytes < 1 || dropsBeforeClose < 1 || idle.isNegative() || idle.isZero()
        || sendDeadline.isNegative() || sendDeadline.isZero()) {
      throw new IllegalArgumentException("Socket limits must be positive: " + this);
    }
  }
}
