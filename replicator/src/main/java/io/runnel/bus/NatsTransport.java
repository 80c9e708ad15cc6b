package io.runnel.bus;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.runnel.time.Sleeper;
import io.runnel.time.Threads;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The bus across machines, on core NATS through jnats: subjects as {@link Subjects} builds them, one jnats
 * {@code Dispatcher} (one thread, server order) per subscription ({@link NatsSubscription}).
 *
 * <p>Design and the invariant it keeps: <em>a flush that returns means the server handled every earlier publish of
 * the calling thread</em>. A publish goes into jnats's outgoing buffer; {@link #flush} publishes a marker to the
 * connection's own inbox and waits, within the deadline, until it comes back ({@link NatsEcho}): the server handles
 * a connection's messages in order. A connection that drops can lose what was written to its socket even when the
 * marker then rides the next connection, so each thread remembers the connection and its reconnect count at its
 * first publish since its last flush, and a flush fails when either changed: the caller sends again (consumers
 * drop duplicates by LSN). jnats counts a reconnect before it sends anything queued, so no marker can come back
 * on a new connection unseen. While the connection is not {@code CONNECTED}, publish, flush and subscribe fail at
 * once with {@code X_TRANSPORT_UNAVAILABLE} (jnats's reconnect buffer is 0, so nothing is parked meanwhile), and
 * a drop ends the flushes waiting at that moment.
 *
 * <p>Reconnect: jnats reconnects in place when {@link NatsConfig#maxReconnects} allows it (off by default: its
 * 2.24 in-place reconnect can come back connected yet never send again, and a marker that does not return on a
 * connection that says it is up makes the transport replace it); when jnats gives up and closes the connection, a
 * background thread re-dials every {@link NatsConfig#reconnectWait} with new options until a server answers, and
 * moves every subscription to the new connection. Either way, once the server has the subscriptions again (a marker
 * came back after them), every {@link #onReconnect} listener runs, once per recovery: NATS delivers at most once,
 * so anything published while a subscriber was away is lost to it, and a consumer treats each reconnect as a gap.
 */
public final class NatsTransport implements Transport {

  private static final System.Logger LOG = System.getLogger(NatsTransport.class.getName());
  /** How often an idle connection pings the server; two unanswered pings drop it. */
  private static final Duration PING_INTERVAL = Duration.ofSeconds(5);

  private final NatsConfig config;
  private final Object lock = new Object();
  /** Per thread: where its first publish since its last flush went, or null. */
  private final ThreadLocal<Mark[]> unflushed = ThreadLocal.withInitial(() -> new Mark[1]);
  private final List<NatsSubscription> subscriptions = new CopyOnWriteArrayList<>();
  private final List<Runnable> reconnectListeners = new CopyOnWriteArrayList<>();
  private final ExecutorService events = Threads.serial("runnel-nats-events");
  private final Sleeper sleeper;
  /** Null only until connect() makes the first connection's echo (that connection's listener may run before). */
  private volatile @Nullable NatsEcho echo;
  private volatile boolean closed;
  private final AtomicBoolean down = new AtomicBoolean();

  /** A connection and how many times jnats had reconnected it, when a thread first published on it. */
  private record Mark(Connection connection, long reconnects) {}

  private NatsTransport(NatsConfig config, Sleeper sleeper) {
    this.config = config;
    this.sleeper = sleeper;
  }

  /**
   * Options for one connection. Never shared between connections: jnats's default executor belongs to the
   * options, and the first connection to close shuts it down under the others.
   */
  private Options options() {
    ConnectionListener listener = this::connectionEvent;
    return new Options.Builder()
        .servers(config.servers().stream().map(URI::toString).toArray(String[]::new))
        .noRandomize()
        .connectionName("runnel")
        .connectionTimeout(config.connectTimeout())
        .reconnectWait(config.reconnectWait())
        .maxReconnects(config.maxReconnects())
        .reconnectBufferSize(0)
        .pingInterval(PING_INTERVAL)
        .connectionListener(listener)
        .errorListener(new NatsErrors(config.urls()))
        .build();
  }

  /**
   * Connects to the first server of {@code config} that answers; returns once connected.
   *
   * @throws TransportUnavailableException ({@code X_TRANSPORT_UNAVAILABLE}) when none answers within
   *     {@link NatsConfig#connectTimeout} each; the refusal names the URLs and the fix
   */
  public static NatsTransport connect(NatsConfig config) {
    return connect(config, Sleeper.SYSTEM);
  }

  /**
   * {@link #connect(NatsConfig)}, pausing between re-dials (after jnats gave up) through {@code sleeper}.
   *
   * @throws TransportUnavailableException ({@code X_TRANSPORT_UNAVAILABLE}) as {@link #connect(NatsConfig)} does
   */
  public static NatsTransport connect(NatsConfig config, Sleeper sleeper) {
    Objects.requireNonNull(config, "config");
    NatsTransport t = new NatsTransport(config, Objects.requireNonNull(sleeper, "sleeper"));
    try {
      Connection c = Nats.connect(t.options());
      try {
        t.echo = NatsEcho.on(c);
      } catch (IllegalStateException e) {
        c.close();
        throw new IOException(e.getMessage(), e);
      }
      return t;
    } catch (IOException e) {
      t.events.shutdownNow();
      throw new TransportUnavailableException("No NATS server answered at " + config.urls() + " (" + e.getMessage()
          + ").", "Start the NATS server there (for example: nats-server -js -a 127.0.0.1 -p 4222), or set NATS_URL "
          + "to a running one; unset NATS_URL to run on the in-process bus.");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      t.events.shutdownNow();
      throw new TransportUnavailableException("Interrupted while connecting to NATS at " + config.urls() + ".",
          "Retry.");
    }
  }

  /**
   * Publishes {@code payload} on {@code subject} (buffered until the connection's writer sends it).
   *
   * @throws TransportUnavailableException at once while the connection is down, or when jnats's outgoing queue
   *     stays full
   * @throws IllegalArgumentException for a payload over the server's {@code max_payload}, or a subject NATS refuses
   */
  @Override
  public void publish(String subject, byte[] payload) {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(payload, "payload");
    Connection c = live("publish on " + subject).connection();
    long max = c.getMaxPayload();
    if (max > 0 && payload.length > max) {
      throw new IllegalArgumentException("A payload of " + payload.length + " bytes on " + subject
          + " is over the NATS server's max_payload of " + max + " bytes");
    }
    Mark[] mark = unflushed.get();
    if (mark[0] == null) {
      mark[0] = new Mark(c, c.getStatistics().getReconnects());
    }
    try {
      c.publish(subject, payload);
    } catch (IllegalStateException e) {
      throw down("publish on " + subject, e.getMessage());
    }
  }

  /**
   * Returns once the server handled every earlier publish of this thread, within {@code deadline} (a non-positive
   * one is taken as 1 ms).
   *
   * @throws TransportUnavailableException at once while the connection is down, or when it drops meanwhile; when
   *     the server does not answer in time; or when the connection dropped since this thread's first unflushed
   *     publish (those publishes may be lost)
   */
  @Override
  public void flush(Duration deadline) {
    Objects.requireNonNull(deadline, "deadline");
    Mark[] slot = unflushed.get();
    Mark first = slot[0];
    slot[0] = null;
    NatsEcho e = live("flush");
    checkSameConnection(first, e.connection());
    awaitEcho(e, deadline.isNegative() || deadline.isZero() ? Duration.ofMillis(1) : deadline, "flush");
    checkSameConnection(first, e.connection());
  }

  /** Fails when {@code c} is not the connection, or not the same reconnect of it, that {@code first} went on. */
  private void checkSameConnection(@Nullable Mark first, Connection c) {
    if (first != null && (first.connection() != c || c.getStatistics().getReconnects() != first.reconnects())) {
      throw new TransportUnavailableException("The connection to NATS at " + config.urls() + " dropped after a "
          + "publish and before this flush, so the server may have missed what was published.",
          "Publish again; consumers drop duplicates by LSN.");
    }
  }

  private void awaitEcho(NatsEcho e, Duration deadline, String what) {
    try {
      e.await(deadline);
    } catch (TimeoutException ex) {
      abandonIfStuck(e);
      throw down(what, "the server did not answer within " + deadline.toMillis() + " ms");
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw down(what, "interrupted");
    } catch (IllegalStateException ex) {
      throw down(what, ex.getMessage());
    }
  }

  /**
   * A marker did not return in time although jnats says the connection is up: jnats 2.24 can come back from a
   * reconnect {@code CONNECTED} with what is published afterwards never sent (seen after a server restart). The
   * connection is closed, so the background re-dial replaces it with a new one (and announces the gap).
   */
  private void abandonIfStuck(NatsEcho e) {
    Connection c = e.connection();
    if (closed || e != echo || c.getStatus() != Connection.Status.CONNECTED) {
      return;
    }
    LOG.log(Level.WARNING, "A flush marker did not return from NATS at " + config.urls() + " although the "
        + "connection says it is up; replacing the connection");
    later(() -> {
      try {
        c.close();
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
      }
    });
  }

  /** Runs {@code task} on the event thread, unless the transport closed meanwhile. */
  private void later(Runnable task) {
    try {
      events.execute(task);
    } catch (RejectedExecutionException e) {
      // Closed: nothing is re-dialled or announced any more.
    }
  }

  /**
   * Subscribes {@code handler} to {@code pattern} on a dispatcher of its own (one thread, server order); returns
   * once the server registered the subscription. A handler that throws is logged and the next message follows.
   *
   * @throws TransportUnavailableException at once while the connection is down, or when the server does not
   *     confirm the subscription within the connection timeout
   */
  @Override
  public Subscription subscribe(String pattern, Consumer<TransportMessage> handler) {
    Objects.requireNonNull(pattern, "pattern");
    Objects.requireNonNull(handler, "handler");
    NatsSubscription s = new NatsSubscription(pattern, handler, this::forget);
    NatsEcho e;
    synchronized (lock) {
      e = live("subscribe to " + pattern);
      try {
        s.attach(e.connection());
      } catch (IllegalStateException ex) {
        throw down("subscribe to " + pattern, ex.getMessage());
      }
      subscriptions.add(s);
    }
    try {
      awaitEcho(e, config.connectTimeout(), "subscribe to " + pattern);
    } catch (TransportUnavailableException ex) {
      s.close();
      throw ex;
    }
    return s;
  }

  /** Stops moving {@code s} to new connections: it was closed. */
  private void forget(NatsSubscription s) {
    synchronized (lock) {
      subscriptions.remove(s);
    }
  }

  /** Registers {@code listener}, run on the transport's event thread once per recovery of the connection. */
  @Override
  public void onReconnect(Runnable listener) {
    reconnectListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** The server's {@code max_payload}, in bytes, as its greeting on the current connection said. */
  @Override
  public long maxPayload() {
    long max = echo().connection().getMaxPayload();
    return max > 0 ? max : Long.MAX_VALUE;
  }

  /** Whether the connection is up now (publishes are taken). */
  @Override
  public boolean connected() {
    return !closed && echo().connection().getStatus() == Connection.Status.CONNECTED;
  }

  /** Closes the connection (what is buffered is sent first) and stops re-dialling; subscriptions end. */
  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
    }
    events.shutdownNow();
    try {
      echo().connection().close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The echo of the current connection; connect() makes the first before it hands the transport out. */
  private NatsEcho echo() {
    return Objects.requireNonNull(echo, "connected");
  }

  /** The current connection's echo, when the connection is up. @throws TransportUnavailableException if not */
  private NatsEcho live(String what) {
    if (closed) {
      throw new TransportUnavailableException("This NATS transport is closed, so it cannot " + what + ".",
          "Open a new transport.");
    }
    NatsEcho e = echo();
    Connection.Status status = e.connection().getStatus();
    if (status != Connection.Status.CONNECTED) {
      throw down(what, "the connection is " + status.name().toLowerCase(Locale.ROOT));
    }
    return e;
  }

  private TransportUnavailableException down(String what, @Nullable String why) {
    return new TransportUnavailableException("Could not " + what + " through NATS at " + config.urls() + ": " + why
        + ".", "Retry later: the transport reconnects by itself every " + config.reconnectWait().toMillis()
        + " ms; if the server is down, start it.");
  }

  /** jnats's connection events, on its callback thread; the work goes to {@link #events}. */
  private void connectionEvent(Connection c, ConnectionListener.Events type) {
    NatsEcho current = echo;
    if (closed || current == null || c != current.connection()) {
      return;
    }
    if (type == ConnectionListener.Events.DISCONNECTED || type == ConnectionListener.Events.CLOSED) {
      current.failAll("the connection to NATS dropped");
      if (down.compareAndSet(false, true)) {
        LOG.log(Level.WARNING, "Lost the connection to NATS at " + config.urls() + "; reconnecting");
      }
    }
    if (type == ConnectionListener.Events.RESUBSCRIBED) {
      later(() -> announce(current));
    } else if (type == ConnectionListener.Events.CLOSED) {
      LOG.log(Level.WARNING, "The connection to NATS at " + config.urls() + " closed; re-dialling every "
          + config.reconnectWait().toMillis() + " ms");
      later(this::redial);
    }
  }

  /** Re-dials until a server answers (or the transport closes), then re-attaches every subscription. */
  private void redial() {
    while (!closed) {
      try {
        Connection n = Nats.connect(options());
        NatsEcho e;
        synchronized (lock) {
          if (closed) {
            n.close();
            return;
          }
          e = NatsEcho.on(n);
          for (NatsSubscription s : subscriptions) {
            s.attach(n);
          }
          echo = e;
        }
        announce(e);
        return;
      } catch (IOException | IllegalStateException e) {
        LOG.log(Level.DEBUG, "Re-dial of NATS at " + config.urls() + " failed: " + e.getMessage());
      } catch (InterruptedException e) {
        return;
      }
      try {
        sleeper.sleep(config.reconnectWait());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * Once the server has the subscriptions again (a marker came back after the re-sent SUBs), tells every listener.
   * When the marker does not come back, the connection is not announced: it dropped again, or it is stuck and is
   * replaced ({@link #abandonIfStuck}); the recovery after that announces the gap.
   */
  private void announce(NatsEcho e) {
    try {
      e.await(config.connectTimeout());
    } catch (TimeoutException | IllegalStateException ex) {
      LOG.log(Level.DEBUG, "The marker after reconnecting to NATS did not return: " + ex);
      if (ex instanceof TimeoutException) {
        abandonIfStuck(e);
      }
      return;
    } catch (InterruptedException ex) {
      return;
    }
    down.set(false);
    LOG.log(Level.INFO, "Reconnected to NATS at " + config.urls() + "; consumers treat it as a gap");
    for (Runnable l : reconnectListeners) {
      try {
        l.run();
      } catch (RuntimeException ex) {
        LOG.log(Level.WARNING, "A reconnect listener failed", ex);
      }
    }
  }
}
