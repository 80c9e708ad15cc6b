package io.runnel.sync.socket.internal;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A token bucket: {@code rate} tokens a second, refilled continuously, holding at most {@code burst}; it starts
 * full. Time is the caller's clock, in the unit given at creation (nanoseconds of a monotonic clock, or milliseconds),
 * and a clock that does not move forward refills nothing. The node's frame rate per socket, accept budget and event
 * rate per sender ({@code docs/protocol.md}, "Limits") are each one. Thread-safe.
 */
public final class TokenBucket {

  private final double perTick;
  private final int burst;
  private double tokens;
  private long at;

  /**
   * A full bucket.
   *
   * @param rate tokens a second, above 0
   * @param burst the most tokens it holds, at least 1
   * @param unit the unit of every {@code now} passed in
   * @param now the time now, in {@code unit}
   * @throws IllegalArgumentException when {@code rate} or {@code burst} is not positive
   */
  public TokenBucket(double rate, int burst, TimeUnit unit, long now) {
    if (!(rate > 0) || burst < 1) {
      throw new IllegalArgumentException("A token bucket needs a positive rate and burst, not " + rate + ", " + burst);
    }
    this.perTick = rate / Objects.requireNonNull(unit, "unit").convert(1, TimeUnit.SECONDS);
    this.burst = burst;
    this.tokens = burst;
    this.at = now;
  }

  /**
   * Takes one token at {@code now}.
   *
   * @return 0 when taken, else how long until a token is there, in the bucket's unit, at least 1 (nothing taken)
   */
  public synchronized long take(long now) {
    refill(now);
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return Math.max(1, (long) Math.ceil((1 - tokens) / perTick));
  }

  /** Gives one token back (never past the burst): for a take whose work did not happen. */
  public synchronized void refund() {
    tokens = Math.min(burst, tokens + 1);
  }

  /** Whether the bucket has refilled to its burst by {@code now} (a sender quiet that long can be forgotten). */
  public synchronized boolean full(long now) {
    refill(now);
    return tokens >= burst;
  }

  private void refill(long now) {
    if (now > at) {
      tokens = Math.min(burst, tokens + (now - at) * perTick);
      at = now;
    }
  }
}
