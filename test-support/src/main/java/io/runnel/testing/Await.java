package io.runnel.testing;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Waits in tests: polls a condition until it holds, and fails with what was awaited once a deadline passes. The one
 * polling wait of the tests; a test that can drive time instead (a {@link ManualClock}, a recording sleeper) does
 * that rather than wait.
 *
 * <pre>{@code
 * Await.until("the replicator streams", () -> replicator.stats().state() == State.STREAMING);
 * Await.until(() -> "the window settles, now at " + window.position(), Duration.ofSeconds(5), window::settled);
 * }</pre>
 */
public final class Await {

  /** The wait when a test names none: long enough for a loaded CI machine, short of the suite's patience. */
  public static final Duration DEFAULT = Duration.ofSeconds(30);

  /** How long a poll sleeps between two looks at the condition, unless the caller names its own. */
  public static final Duration POLL = Duration.ofMillis(5);

  private Await() {}

  /**
   * A condition a wait polls; it may throw what its look throws (an I/O error reading {@code /metrics}, an SQL error
   * reading a slot), which ends the wait at once, as it would end the test.
   *
   * @param <E> what a look may throw; {@link RuntimeException} for a condition that throws nothing checked
   */
  @FunctionalInterface
  public interface Condition<E extends Exception> {

    /**
     * Takes one look.
     *
     * @return whether the awaited state holds now
     * @throws E when the look itself fails
     */
    boolean holds() throws E;
  }

  /**
   * Polls {@code condition} until it holds, for at most {@link #DEFAULT}.
   *
   * @throws AssertionError {@code timed out waiting until <what>} once the wait is over
   * @throws InterruptedException when the test's thread is interrupted while it waits
   * @throws E what a look at the condition threw
   */
  public static <E extends Exception> void until(String what, Condition<E> condition) throws InterruptedException, E {
    until(what, DEFAULT, condition);
  }

  /**
   * Polls {@code condition} until it holds, for at most {@code within}.
   *
   * @throws AssertionError {@code timed out waiting until <what>} once {@code within} has passed
   * @throws InterruptedException when the test's thread is interrupted while it waits
   * @throws E what a look at the condition threw
   */
  public static <E extends Exception> void until(String what, Duration within, Condition<E> condition)
      throws InterruptedException, E {
    Objects.requireNonNull(what, "what");
    until(() -> what, within, condition);
  }

  /**
   * As {@link #until(String, Duration, Condition)}, sleeping {@code poll} between two looks.
   *
   * @throws AssertionError {@code timed out waiting until <what>} once {@code within} has passed
   * @throws InterruptedException when the test's thread is interrupted while it waits
   * @throws E what a look at the condition threw
   */
  public static <E extends Exception> void until(String what, Duration within, Duration poll, Condition<E> condition)
      throws InterruptedException, E {
    Objects.requireNonNull(what, "what");
    until(() -> what, within, poll, condition);
  }

  /**
   * Polls {@code condition} until it holds, for at most {@code within}; {@code what} is read only when the wait
   * fails, so it may describe the state the test saw last.
   *
   * @throws AssertionError {@code timed out waiting until <what>} once {@code within} has passed
   * @throws InterruptedException when the test's thread is interrupted while it waits
   * @throws E what a look at the condition threw
   */
  public static <E extends Exception> void until(Supplier<String> what, Duration within, Condition<E> condition)
      throws InterruptedException, E {
    until(what, within, POLL, condition);
  }

  /**
   * As {@link #until(Supplier, Duration, Condition)}, sleeping {@code poll} between two looks: shorter for a
   * condition that is cheap and soon true, longer for one that costs a request.
   *
   * @throws AssertionError {@code timed out waiting until <what>} once {@code within} has passed
   * @throws InterruptedException when the test's thread is interrupted while it waits
   * @throws E what a look at the condition threw
   */
  public static <E extends Exception> void until(
      Supplier<String> what, Duration within, Duration poll, Condition<E> condition) throws InterruptedException, E {
    Objects.requireNonNull(what, "what");
    Objects.requireNonNull(poll, "poll");
    Objects.requireNonNull(condition, "condition");
    long deadline = System.nanoTime() + within.toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out waiting until " + what.get() + " (" + within.toMillis() + " ms)");
      }
      TimeUnit.NANOSECONDS.sleep(poll.toNanos());
    }
  }
}
