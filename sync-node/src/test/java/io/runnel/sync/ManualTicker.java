package io.runnel.sync;

import io.runnel.sync.channel.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A {@link Ticker} a test drives by hand: {@link #tick()} runs the scheduled work once, on the test's thread. */
final class ManualTicker implements Ticker {

  private final List<Runnable> tasks = new ArrayList<>();

  @Override
  public synchronized Runnable every(Duration period, Runnable task) {
    tasks.add(task);
    return () -> {
      synchronized (this) {
        tasks.remove(task);
      }
    };
  }

  /** Runs every scheduled task once. */
  synchronized void tick() {
    tasks.forEach(Runnable::run);
  }
}
