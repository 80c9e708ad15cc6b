package io.runnel.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock a test moves by hand (tests advance a clock, never sleep). */
public final class ManualClock extends Clock {

  private volatile long millis;

  private ManualClock(long millis) {
    this.millis = millis;
  }

  /** A clock standing at {@code instant}. */
  public static ManualClock at(Instant instant) {
    return new ManualClock(instant.toEpochMilli());
  }

  /** A clock standing at the current time. */
  public static ManualClock now() {
    return new ManualClock(System.currentTimeMillis());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis);
  }

  private volatile long nanos;

  @Override
  public long millis() {
    return millis;
  }

  /**
   * Moves the clock forward by {@code d}: its wall time and its monotonic reading ({@link #nanos()}) alike. Both are
   * volatile, so a node's threads see the move at once; the monotonic reading moves first.
   */
  public synchronized void advance(Duration d) {
    nanos += d.toNanos();
    millis += d.toMillis();
  }

  /**
   * A monotonic reading in nanoseconds, as {@link System#nanoTime()} gives one: it starts at 0 and moves only with
   * {@link #advance}, for code that measures elapsed time on a monotonic clock ({@code SyncNode.Builder.monotonic}).
   */
  public long nanos() {
    return nanos;
  }
}
