package io.runnel.sync.socket.internal;

import io.helidon.http.Status;
import io.micrometer.core.instrument.Gauge;
import io.runnel.sync.channel.internal.ChannelHub;
import io.runnel.sync.http.internal.ErrorBodies;
import io.runnel.sync.socket.Drained;
import io.runnel.time.Threads;
import io.runnel.wire.ErrorCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.random.RandomGenerator;

/**
 * A node's drain ({@code docs/operating.md}, "Drain"): it stops accepting, tells every open socket to reconnect after
 * a delay of its own, lets the sockets leave, and closes those still open at the end of the spread window.
 *
 * <p>Design: the sockets' delays are drawn uniformly over {@code [0, spread)} from the injected random source, so
 * a deploy that drains a node spreads its clients' reconnects over the window instead of landing them on the other
 * nodes at once. A client that obeys closes its socket on the {@code reconnect} frame, which leaves its topics then
 * (the hub publishes the leaves to the other nodes). The drain waits until no socket is left or the window plus
 * its grace has passed; then every socket still open leaves its topics, the channel bus is flushed (so every
 * leave, the obeying clients' too, has reached the bus before a socket closes) and the socket is closed with 1001.
 * Invariant: once {@link #stopAccepting()} ran, no upgrade is admitted again, and {@code /readyz} answers 503.
 */
final class Drain {

  /** The longest the drain waits for the channel bus to take the leaves. */
  static final Duration FLUSH = Duration.ofSeconds(2);
  /** The longest the drain (or a stop) waits for the clients to answer their close frames. */
  static final Duration CLOSE = Duration.ofSeconds(2);
  /** The {@code reason} of the {@code reconnect} frames a drain sends. */
  static final String REASON = "drain";

  private static final System.Logger LOG = System.getLogger(Drain.class.getName());

  private final Set<SyncSocket> sockets;
  private final ChannelHub channels;
  private final RandomGenerator random;
  /** What the drain waits past the spread window before it closes the sockets still open. */
  private final Duration grace;
  private final SocketMeters meters;
  private final Object changed = new Object();
  private final AtomicBoolean started = new AtomicBoolean();
  private final CompletableFuture<Drained> done = new CompletableFuture<>();
  private volatile boolean draining;

  /**
   * A drain of the node whose open sockets are {@code sockets} (the live set, which it reads and never changes),
   * drawing delays from {@code random}; it registers the gauge {@code runnel_draining} (1 while draining).
   */
  Drain(Set<SyncSocket> sockets, ChannelHub channels, RandomGenerator random, Duration grace, SocketMeters meters) {
    this.grace = Objects.requireNonNull(grace, "grace");
    this.sockets = Objects.requireNonNull(sockets, "sockets");
    this.channels = Objects.requireNonNull(channels, "channels");
    this.random = Objects.requireNonNull(random, "random");
    this.meters = Objects.requireNonNull(meters, "meters");
    meters.node().tie(Gauge.builder("runnel_draining", this, d -> d.draining ? 1 : 0)
        .description("1 while the node drains (it accepts no socket), else 0").register(meters.node().registry()));
  }

  /** Whether the node has stopped accepting sockets. */
  boolean draining() {
    return draining;
  }

  /** From now on {@code /readyz} answers 503 and every upgrade is shed ({@link #admitUpgrade}). */
  void stopAccepting() {
    draining = true;
  }

  /**
   * Called before an upgrade is decided: nothing while the node accepts; while it drains, throws the refusal that
   * sheds it (503, {@code Retry-After}, {@code X_SOCKET_LIMIT}), before any identity is read, costing no socket.
   */
  void admitUpgrade() {
    if (draining) {
      meters.refused(ErrorCode.X_SOCKET_LIMIT.name());
      throw ErrorBodies.refusal(new NodeException(ErrorCode.X_SOCKET_LIMIT,
          "The node is draining (it is shutting down) and accepts no new socket.",
          "Connect again after Retry-After seconds; the load balancer sends you to a node that is ready."),
          Status.SERVICE_UNAVAILABLE_503, true);
    }
  }

  /** A socket of the node closed: wakes the drain that waits for the sockets to go. */
  void closed() {
    synchronized (changed) {
      changed.notifyAll();
    }
  }

  /**
   * Stops accepting and, the first time only, starts draining over {@code spread} on a thread of its own; answers
   * the drain's outcome, completed when the last socket is closed (the same future to every call).
   *
   * @throws IllegalArgumentException for a negative spread
   */
  CompletableFuture<Drained> start(Duration spread) {
    Objects.requireNonNull(spread, "spread");
    if (spread.isNegative()) {
      throw new IllegalArgumentException("The drain spread must be at least 0, not " + spread);
    }
    stopAccepting();
    if (started.compareAndSet(false, true)) {
      Threads.virtual("sync-node-drain", () -> {
        try {
          done.complete(run(spread));
        } catch (RuntimeException | Error e) {
          done.completeExceptionally(e);
        }
      });
    }
    return done;
  }

  private Drained run(Duration spread) {
    long spreadMs = spread.toMillis();
    long deadline = System.nanoTime() + spread.plus(grace).toNanos();
    int told = 0;
    for (SyncSocket socket : List.copyOf(sockets)) {
      long delay = spreadMs == 0 ? 0 : random.nextLong(spreadMs);
      if (socket.reconnect(delay, REASON)) {
        told++;
      }
    }
    try {
      awaitNoSocket(deadline);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<SyncSocket> left = List.copyOf(sockets);
    for (SyncSocket socket : left) {
      channels.closed(socket);
    }
    channels.flush(FLUSH);
    goAway(left, CLOSE);
    // A presence heartbeat read between the leave and the close seated its socket again; the close left it again.
    channels.flush(FLUSH);
    LOG.log(System.Logger.Level.INFO, "Drained over " + spreadMs + " ms: " + told + " sockets told to reconnect, "
        + left.size() + " closed at the end of the window.");
    return new Drained(told, left.size());
  }

  private void awaitNoSocket(long deadline) throws InterruptedException {
    synchronized (changed) {
      for (long rest = deadline - System.nanoTime(); !sockets.isEmpty() && rest > 0;
          rest = deadline - System.nanoTime()) {
        TimeUnit.NANOSECONDS.timedWait(changed, rest);
      }
    }
  }

  /**
   * Closes {@code sockets} with 1001 (going away), then waits, at most {@code wait} in all, for their closing threads:
   * each waits for its client's answer to the close frame (and cuts a client that gives none), so clients see 1001
   * rather than a reset connection (1006) when the server stops next.
   */
  static void goAway(Collection<SyncSocket> sockets, Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    List<Thread> closing = new ArrayList<>();
    for (SyncSocket socket : sockets) {
      Thread t = socket.goingAway();
      if (t != null) {
        closing.add(t);
      }
    }
    try {
      for (Thread t : closing) {
        t.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
