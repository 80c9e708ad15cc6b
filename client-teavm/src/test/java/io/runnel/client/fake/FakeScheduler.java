package io.runnel.client.fake;

import io.runnel.client.port.Scheduler;
import java.util.ArrayList;
import java.util.List;

/** A scheduler the test advances by hand: tasks run in due order, ties in scheduling order; never a real clock. */
public final class FakeScheduler implements Scheduler {

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
  private long now;
  private long seq;

  /** A clock at 1,000,000 ms. */
  public FakeScheduler() {
    this(1_000_000);
  }

  /** A clock at {@code startMillis}. */
  public FakeScheduler(long startMillis) {
    this.now = startMillis;
  }

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

  /** Moves the clock forward by {@code millis}, running every task due on the way, in due order. */
  public void advance(long millis) {
    long until = now + millis;
    while (true) {
      Task next = null;
      for (Task t : tasks) {
        if (!t.cancelled && t.due <= until && (next == null || t.due < next.due
            || (t.due == next.due && t.seq < next.seq))) {
          next = t;
        }
      }
      if (next == null) {
        break;
      }
      tasks.remove(next);
      now = Math.max(now, next.due);
      next.run.run();
    }
    now = until;
    tasks.removeIf(t -> t.cancelled);
  }

  /** Runs what is due now (tasks scheduled with delay 0). */
  public void runDue() {
    advance(0);
  }

  /** The delays from now of the timers still armed. */
  public List<Long> armed() {
    List<Long> out = new ArrayList<>();
    for (Task t : tasks) {
      if (!t.cancelled) {
        out.add(t.due - now);
      }
    }
    return out;
  }
}
