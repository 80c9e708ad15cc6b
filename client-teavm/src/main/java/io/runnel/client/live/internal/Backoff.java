package io.runnel.client.live.internal;

/**
 * Equal-jitter backoff: the cap doubles from {@code baseMs} with each failed attempt up to {@code maxMs}, and the
 * delay is half the cap plus a random share of the other half, so a crowd of clients spreads out.
 *
 * @param baseMs the first cap, milliseconds (positive)
 * @param maxMs the largest cap, milliseconds (at least {@code baseMs})
 */
public record Backoff(long baseMs, long maxMs) {

  /** The client's default: 500 ms doubling up to 4 s. */
  public static final Backoff DEFAULT = new Backoff(500, 4000);

  /** Checks the bounds. */
  public Backoff {
    if (baseMs <= 0 || maxMs < baseMs) {
      throw new IllegalArgumentException("Backoff needs 0 < baseMs <= maxMs, not " + baseMs + " and " + maxMs);
    }
  }

  /**
   * The delay before attempt {@code attempt} (0 for the first retry).
   *
   * @param random a draw in [0, 1)
   */
  public long delay(int attempt, double random) {
    long cap = maxMs;
    if (attempt < 30) {
      cap = Math.min(maxMs, baseMs << attempt);
    }
    long half = cap / 2;
    return half + (long) (random * (cap - half));
  }
}
