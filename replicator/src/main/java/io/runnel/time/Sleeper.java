package io.runnel.time;

import java.time.Duration;

/**
 * How library code waits for time to pass (a backoff, a retry's pause, a probe's interval): never by
 * {@code Thread.sleep} of its own, always through the sleeper its owner was given, so that a test hands it one that
 * records the pause and returns at once, and drives time instead of waiting for it.
 *
 * <pre>{@code
 * Replicator.builder()...sleeper(Sleeper.SYSTEM);   // the default
 * }</pre>
 */
@FunctionalInterface
public interface Sleeper {

  /** The real one: {@link Thread#sleep(Duration)}. */
  Sleeper SYSTEM = Thread::sleep;

  /**
   * Pauses the calling thread for {@code duration} (zero or negative: not at all).
   *
   * @throws InterruptedException when the thread is interrupted meanwhile (its owner is stopping)
   */
  void sleep(Duration duration) throws InterruptedException;
}
