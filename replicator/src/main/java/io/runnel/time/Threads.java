package io.runnel.time;

import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import org.jspecify.annotations.Nullable;

/**
 * The one place library code starts threads. Every thread is named (a thread dump says whose it is), and a failure
 * that escapes one is logged at {@code ERROR} under this class with the thread's name, where the JDK's default would
 * print it to standard error. A test of the build ({@code LibraryTimeRulesTest}) fails when library code starts a
 * thread, makes an executor or sleeps anywhere else.
 */
public final class Threads {

  private static final System.Logger LOG = System.getLogger(Threads.class.getName());

  private Threads() {}

  private static void logged(Thread t, Throwable e) {
    LOG.log(System.Logger.Level.ERROR, "Thread '" + t.getName() + "' failed: " + e, e);
  }

  /** Starts a virtual thread named {@code name} running {@code task}. */
  public static Thread virtual(String name, Runnable task) {
    Thread t = virtualFactory(name).newThread(Objects.requireNonNull(task, "task"));
    t.start();
    return t;
  }

  /** A factory of virtual threads, each named {@code name}, for an executor or a queue's writers. */
  public static ThreadFactory virtualFactory(String name) {
    return Thread.ofVirtual().name(Objects.requireNonNull(name, "name")).uncaughtExceptionHandler(Threads::logged)
        .factory();
  }

  /** An executor that runs its tasks one at a time, in order, each on a virtual thread named {@code name}. */
  public static ExecutorService serial(String name) {
    return Executors.newSingleThreadExecutor(virtualFactory(name));
  }

  /**
   * Starts a platform daemon thread named {@code name} running {@code task}: for a long-lived loop that blocks in a
   * driver (the replicator's stream), which should not pin a virtual thread's carrier.
   */
  public static Thread daemon(String name, Runnable task) {
    return Thread.ofPlatform().name(Objects.requireNonNull(name, "name")).daemon(true)
        .uncaughtExceptionHandler(Threads::logged).start(Objects.requireNonNull(task, "task"));
  }

  /**
   * A scheduled executor on one platform daemon thread named {@code name}, for periodic work (sweeps, grace timers,
   * tickers). Every task that throws is logged at {@code ERROR}, whether or not its caller reads the future (a
   * periodic one then stops, as the JDK's do), so a caller may ignore the future. Its owner shuts it down when it
   * stops; it cannot be reconfigured.
   */
  public static ScheduledExecutorService scheduler(String name) {
    ThreadFactory daemons = Thread.ofPlatform().name(Objects.requireNonNull(name, "name")).daemon(true)
        .uncaughtExceptionHandler(Threads::logged).factory();
    return Executors.unconfigurableScheduledExecutorService(new LoggingScheduler(daemons));
  }

  /**
   * A scheduled task's failure is kept in its future, where nobody who ignored the future would see it, and a
   * periodic task that throws is not run again: this logs each such failure as an escaped one is.
   */
  private static final class LoggingScheduler extends ScheduledThreadPoolExecutor {
    LoggingScheduler(ThreadFactory threads) {
      super(1, threads);
    }

    @Override
    protected void afterExecute(Runnable task, @Nullable Throwable thrown) {
      super.afterExecute(task, thrown);
      if (task instanceof Future<?> f && f.isDone() && !f.isCancelled()) {
        try {
          f.get();
        } catch (ExecutionException e) {
          logged(Thread.currentThread(), e.getCause() == null ? e : e.getCause());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /**
   * Registers {@code task} to run on a thread named {@code name} when the JVM shuts down (SIGTERM, Ctrl-C, the last
   * thread ending: {@link Runtime#addShutdownHook}); a failure that escapes it is logged.
   *
   * @throws IllegalStateException when the JVM is already shutting down
   */
  public static void onShutdown(String name, Runnable task) {
    Thread hook = Thread.ofPlatform().name(Objects.requireNonNull(name, "name"))
        .uncaughtExceptionHandler(Threads::logged).unstarted(Objects.requireNonNull(task, "task"));
    Runtime.getRuntime().addShutdownHook(hook);
  }
}
