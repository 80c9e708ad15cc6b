package io.runnel.client.live;

import io.runnel.client.port.Scheduler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A scheduler the test advances by hand: tasks run in due order, ties in scheduling order. */
final class FakeScheduler implements Scheduler {

  private static final class Task implements Cancellable {
    final long due;
    final long seq;
    final Runnable run;
    boolean cancelled;

    Task(long due, long seq, Runnable run) {
      this.due = due;
      this.seq = seq;
      this.run = run;
    }

    @Override
    public void cancel() {
      cancelled = true;
    }
  }

  private final List<Task> tasks = new ArrayList<>();
  private long now = 1_000_000;
  private long seq;

  @Override
  public Cancellable schedule(long delayMillis, Runnable task) {
    if (delayMillis < 0) {
      throw new IllegalArgumentException("negative delay");
    }
    Task t = new Task(now + delayMillis, seq++, task);
    tasks.add(t);
    return t;
  }

  @Override
  public long nowMillis() {
    return now;
  }

  /** Moves the clock forward by {@code millis}, running every task due on the way. */
  void advance(long millis) {
    long until = now + millis;
    while (true) {
      Task next = tasks.stream().filter(t -> !t.cancelled && t.due <= until)
          .min(Comparator.comparingLong((Task t) -> t.due).thenComparingLong(t -> t.seq)).orElse(null);
      if (next == null) {
        break;
      }
      tasks.remove(next);
      now = Math.max(now, next.due);
      next.run.run();
    }
    now = until;
  }

  /** Runs what is due now (tasks scheduled with delay 0). */
  void runDue() {
    advance(0);
  }
}
