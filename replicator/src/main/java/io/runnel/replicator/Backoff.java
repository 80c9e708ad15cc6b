package io.runnel.replicator;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The pause before the replicator dials again after a stream ended: exponential from {@code initial}, doubling with
 * each failure in a row up to {@code max}, with full jitter on the upper half (a pause is drawn uniformly from
 * {@code [cap / 2, cap]}), so a fleet of replicators does not redial in step. A stream that confirmed something starts
 * the count again. Used by the replicator's own thread only.
 */
final class Backoff {

  private final Duration initial;
  private final Duration max;
  /** Failures in a row, counting the one just seen; 0 before the first. */
  private int attempt;

  Backoff(Duration initial, Duration max) {
    this.initial = initial;
    this.max = max;
  }

  /**
   * The pause after a stream that ended; {@code progressed} says whether it confirmed anything, when the next pause
   * is the first again.
   */
  Duration next(boolean progressed) {
    attempt = progressed ? 1 : attempt + 1;
    long base = initial.toMillis() << Math.min(attempt - 1, 16);
    long capped = Math.min(base, max.toMillis());
    return Duration.ofMillis(capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1));
  }
}
