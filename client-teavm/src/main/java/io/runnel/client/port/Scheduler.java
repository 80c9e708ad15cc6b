package io.runnel.client.port;

/** Runs tasks later on the client's one thread: the browser's {@code setTimeout}; a fake the tests advance. */
public interface Scheduler {

  /** A scheduled task that may still be called off. */
  interface Cancellable {
    /** Calls the task off; does nothing when it already ran. */
    void cancel();
  }

  /**
   * Runs {@code task} after {@code delayMillis} milliseconds (0: as soon as the current task returns).
   *
   * @throws IllegalArgumentException for a negative delay
   */
  Cancellable schedule(long delayMillis, Runnable task);

  /** The current time, epoch milliseconds (the browser's {@code Date.now()}). */
  long nowMillis();
}
