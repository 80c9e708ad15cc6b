package io.runnel.sync.channel;

import io.runnel.time.Threads;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What drives a hub's timed work (coalesced presence diffs, heartbeat timeouts): the task reads the hub's clock to
 * decide what is due, so a test drives it by hand with a manual clock instead of sleeping.
 */
@FunctionalInterface
public interface Ticker {

  /**
   * Starts running {@code task} about every {@code period}, never two runs at once.
   *
   * @return what stops it
   */
  Runnable every(Duration period, Runnable task);

  /** A ticker on a daemon thread of its own named {@code name}; a run that throws is logged and the next one runs. */
  // The task runs until the ticker is closed, which shuts its scheduler down; Threads.scheduler logs a run that fails.
  @SuppressWarnings("FutureReturnValueIgnored")
  static Ticker daemon(String name) {
    Objects.requireNonNull(name, "name");
    return (period, task) -> {
      ScheduledExecutorService executor = Threads.scheduler(name);
      long millis = Math.max(1, period.toMillis());
      executor.scheduleWithFixedDelay(() -> {
        try {
          task.run();
        } catch (RuntimeException e) {
          System.getLogger(Ticker.class.getName()).log(System.Logger.Level.WARNING, name + " failed: " + e, e);
        }
      }, millis, millis, TimeUnit.MILLISECONDS);
      return executor::shutdownNow;
    };
  }
}
