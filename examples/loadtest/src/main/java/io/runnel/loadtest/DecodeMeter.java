package io.runnel.loadtest;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Times one decoder inside its worker JVM: {@link #start} before the stream opens, {@link #change} for every row
 * change the decoder hands over (from any thread); when the expected count is reached it reads the clock and the
 * CPU of this process and of the PostgreSQL server, and releases {@link #await}.
 */
final class DecodeMeter {

  private final String decoder;
  private final long expected;

  private final long postmasterPid;
  private final AtomicLong count = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final CountDownLatch done = new CountDownLatch(1);
  private long startNanos;
  private long clientTicks0;
  private long serverTicks0;
  private volatile long firstNanos;
  private volatile long lastNanos;
  private volatile long clientTicks;
  private volatile long serverTicks;

  DecodeMeter(String decoder, long expected, long postmasterPid) {
    this.decoder = decoder;
    this.expected = expected;
    this.postmasterPid = postmasterPid;
  }

  /** Marks the start: the clock and both CPU readings. */
  void start() {
    clientTicks0 = ProcStat.read(ProcessHandle.current().pid()).orElseThrow().ownTicks();
    serverTicks0 = ServerCpu.ticks(postmasterPid);
    startNanos = System.nanoTime();
  }

  /** Counts one change of {@code payloadBytes}; the last expected one stops the clock. */
  void change(long payloadBytes) {
    long n = count.incrementAndGet();
    bytes.addAndGet(payloadBytes);
    if (n == 1) {
      firstNanos = System.nanoTime();
    }
    if (n == expected) {
      lastNanos = System.nanoTime();
      clientTicks = ProcStat.read(ProcessHandle.current().pid()).orElseThrow().ownTicks() - clientTicks0;
      serverTicks = ServerCpu.ticks(postmasterPid) - serverTicks0;
      done.countDown();
    }
  }

  /** The count that stops the clock. */
  long expected() {
    return expected;
  }

  /** How many changes were counted so far. */
  long count() {
    return count.get();
  }

  /**
   * Waits for the expected count.
   *
   * @throws IllegalStateException when it does not come within {@code seconds}
   */
  DecodeRun await(long seconds) throws InterruptedException {
    if (!done.await(seconds, TimeUnit.SECONDS)) {
      throw new IllegalStateException(decoder + " counted " + count.get() + " of " + expected + " changes in "
          + seconds + " s");
    }
    return new DecodeRun(decoder, expected, lastNanos - startNanos, lastNanos - firstNanos, clientTicks,
        serverTicks, bytes.get());
  }
}
