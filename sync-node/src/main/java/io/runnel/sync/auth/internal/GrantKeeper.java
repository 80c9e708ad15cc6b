package io.runnel.sync.auth.internal;

import io.runnel.sync.auth.Authenticator;
import io.runnel.sync.auth.Grant;
import io.runnel.time.Threads;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Re-decides the grants of a node's open sockets over time through {@link Authenticator#refresh}
 * ({@code docs/auth.md}, "Identity over time").
 *
 * <p>Design: each socket has a {@link GrantWatch} holding the time of its next check on the node's clock: the check
 * interval after the last one, and never later than the grant's {@code expiresAt}. The node's sweeper offers every
 * watch the time each second; a watch that is due starts one check on a virtual thread of its own, so neither the
 * sweeper, a socket's reader nor a window's lane ever waits for the authenticator, which may do I/O. At most
 * {@link #CONCURRENCY} refreshes run at once on a node; the others wait their turn on their own threads.
 *
 * <p>Invariant: a socket never runs past its grant's {@code expiresAt} on a grant nobody re-decided, except while
 * the authenticator throws, and then for at most the grace; one check per socket runs at a time, so the outcomes of
 * one socket's checks apply in order.
 */
public final class GrantKeeper {

  /** The default check interval. */
  public static final Duration DEFAULT_EVERY = Duration.ofSeconds(30);
  /** The default grace for an expired grant whose refresh throws. */
  public static final Duration DEFAULT_GRACE = Duration.ofSeconds(60);
  /** Refreshes that run at once on one node. */
  static final int CONCURRENCY = 64;

  private static final System.Logger LOG = System.getLogger(GrantKeeper.class.getName());

  private final Authenticator authenticator;
  private final Clock clock;
  private final long everyMillis;
  private final long graceMillis;
  private final Semaphore slots = new Semaphore(CONCURRENCY);
  private final AtomicBoolean failing = new AtomicBoolean();
  private final LongAdder kept = new LongAdder();
  private final LongAdder changed = new LongAdder();
  private final LongAdder closed = new LongAdder();
  private final LongAdder failures = new LongAdder();

  private GrantKeeper(Authenticator authenticator, Clock clock, Duration every, Duration grace) {
    this.authenticator = authenticator;
    this.clock = clock;
    this.everyMillis = every.toMillis();
    this.graceMillis = grace.toMillis();
  }

  /**
   * A keeper asking {@code authenticator} on {@code clock}: every {@code every} per socket and at each grant's
   * expiry; an expired grant whose refresh throws is kept for at most {@code grace} past its expiry.
   *
   * @throws IllegalArgumentException when {@code every} is under 1 ms or {@code grace} is negative
   */
  public static GrantKeeper create(Authenticator authenticator, Clock clock, Duration every, Duration grace) {
    Objects.requireNonNull(authenticator, "authenticator");
    Objects.requireNonNull(clock, "clock");
    if (Objects.requireNonNull(every, "every").toMillis() < 1) {
      throw new IllegalArgumentException("The grant check interval must be at least 1 ms, not " + every);
    }
    if (Objects.requireNonNull(grace, "grace").isNegative()) {
      throw new IllegalArgumentException("The grant grace may not be negative: " + grace);
    }
    return new GrantKeeper(authenticator, clock, every, grace);
  }

  /** A watch over {@code holder}'s grant, whose first check is due one interval from now or at its expiry. */
  public GrantWatch watch(GrantHolder holder) {
    return new GrantWatch(this, Objects.requireNonNull(holder, "holder"), next(clock.millis(), holder.grant()));
  }

  /** The checks so far, by outcome. */
  public GrantStats stats() {
    return new GrantStats(kept.sum(), changed.sum(), closed.sum(), failures.sum());
  }

  /** Starts {@code check} on a virtual thread of its own. */
  void start(Runnable check) {
    Threads.virtual("grant-check", check);
  }

  /**
   * Re-decides {@code holder}'s grant now and applies the outcome.
   *
   * @return when the next check is due (epoch ms), or {@link Long#MAX_VALUE} when the socket was closed
   */
  long decide(GrantHolder holder) {
    // The next check is timed from when this one started, not from when its outcome was counted: a clock that moves
    // meanwhile (a manual one in tests, or a slow authenticator) must not push the retry a whole interval further.
    long started = clock.millis();
    Grant current = holder.grant();
    Grant next;
    try {
      slots.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return clock.millis();
    }
    try {
      next = authenticator.refresh(current);
    } catch (Exception e) {
      return failed(holder, current, e, started);
    } finally {
      slots.release();
    }
    if (failing.compareAndSet(true, false)) {
      LOG.log(Level.INFO, "Grant refreshes succeed again");
    }
    long now = clock.millis();
    if (next == null) {
      if (current.expiresAt() <= now) {
        return close(holder, "The grant expired and the authenticator cannot refresh it; reconnect with fresh "
            + "credentials.");
      }
      kept.increment();
      return next(started, current);
    }
    if (!Objects.equals(next.actor().id(), current.actor().id())) {
      return close(holder, "The grant was re-decided for another actor; reconnect as that actor.");
    }
    if (next.expiresAt() <= now) {
      return close(holder, "The grant was revoked or has expired; reconnect with fresh credentials.");
    }
    if (!holder.open()) {
      return Long.MAX_VALUE;
    }
    boolean same = next.actor().equals(current.actor());
    try {
      holder.regrant(next);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Applying a refreshed grant failed; the socket is closed", e);
      return close(holder, "The node could not apply the re-decided grant; reconnect.");
    }
    (same ? kept : changed).increment();
    return next(started, next);
  }

  /**
   * A refresh threw: the socket keeps {@code current} and is asked again at the next check, or at its expiry; once
   * expired, until the grace runs out, and then it is closed. The first failure after a success is logged, the rest
   * only counted.
   */
  private long failed(GrantHolder holder, Grant current, Exception e, long started) {
    if (failing.compareAndSet(false, true)) {
      LOG.log(Level.WARNING, "The authenticator could not refresh a grant; sockets keep their grants and are asked "
          + "again at the next check (logged once until a refresh succeeds)", e);
    }
    long now = clock.millis();
    long deadline = plus(current.expiresAt(), graceMillis);
    if (now >= deadline) {
      failures.increment();
      return close(holder, "The grant expired and could not be re-decided within the grace; reconnect.");
    }
    long due = Math.min(plus(started, everyMillis), current.expiresAt() > started ? current.expiresAt() : deadline);
    // Counted last, once the next check is known: whoever watches the count sees the retry already scheduled.
    failures.increment();
    return due;
  }

  private long close(GrantHolder holder, String reason) {
    if (holder.open()) {
      closed.increment();
      holder.expire(reason);
    }
    return Long.MAX_VALUE;
  }

  /** The next check for {@code grant} after one at {@code now}: an interval later, never past its expiry. */
  private long next(long now, Grant grant) {
    return Math.min(plus(now, everyMillis), grant.expiresAt());
  }

  private static long plus(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
