package io.runnel.sync.live.internal;

import io.runnel.time.Threads;
import java.lang.System.Logger.Level;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A FIFO lane: tasks submitted from any thread run one at a time, in submission order, on a virtual thread started
 * only while there is work. Each window has one, so a window's deliveries are serialized and windows never wait on
 * each other. A task that throws is logged and the lane goes on; the window handles its own failures.
 */
final class Lane {

  private static final System.Logger LOG = System.getLogger(Lane.class.getName());

  private final String name;
  private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean draining = new AtomicBoolean();
  private final AtomicLong pending;

  /**
   * @param name names the lane's thread
   * @param pending a node-wide count of tasks submitted and not yet finished, for {@code settled} positions
   */
  Lane(String name, AtomicLong pending) {
    this.name = name;
    this.pending = pending;
  }

  /** Queues {@code task} behind every task submitted before it. */
  void submit(Runnable task) {
    pending.incrementAndGet();
    tasks.add(task);
    if (draining.compareAndSet(false, true)) {
      Threads.virtual(name, this::drain);
    }
  }

  private void drain() {
    while (true) {
      Runnable t;
      while ((t = tasks.poll()) != null) {
        try {
          t.run();
        } catch (RuntimeException | Error e) {
          LOG.log(Level.ERROR, "A task of lane " + name + " failed", e);
        } finally {
          pending.decrementAndGet();
        }
      }
      draining.set(false);
      // A task added after the poll came back empty but before the flag dropped would be stranded: look again.
      if (tasks.isEmpty() || !draining.compareAndSet(false, true)) {
        return;
      }
    }
  }
}
