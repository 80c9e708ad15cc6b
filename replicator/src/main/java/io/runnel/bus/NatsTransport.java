package io.runnel.bus;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.Consumer;
import io.nats.client.Dispatcher;
import io.nats.client.ErrorListener;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bus across machines, on core NATS through jnats: subjects as {@link Subjects} builds them, one jnats
 * {@link Dispatcher} (one thread, server order) per subscription.
 *
 * <p>Design and the invariant it keeps: <em>a flush that returns means the server read every earlier publish of
 * the calling thread</em>. A publish goes into jnats's outgoing buffer; {@link #flush} sends a PING and waits for
 * the PONG within the deadline, which the server answers only after reading everything sent before it. A
 * connection that drops can lose what was written to its socket even when the flush then rides the next
 * connection, so each thread remembers the disconnect count ({@code epoch}) at its first publish since its last
 * flush, and a flush after a disconnect in between fails: the caller sends again (consumers drop duplicates by
 * LSN). While the connection is not {@code CONNECTED}, publish, flush and subscribe fail at once with
 * {@code X_TRANSPORT_UNAVAILABLE} (jnats's reconnect buffer is 0, so nothing is parked meanwhile).
 *
 * <p>Reconnect: jnats reconnects by itself ({@link NatsConfig#maxReconnects} attempts,
 * {@link NatsConfig#reconnectWait} apart) and re-sends the subscriptions; when it gives up and closes the
 * connection, a background thread re-dials every {@code reconnectWait} until a server answers and re-attaches every
 * subscription. Either way, once the server has the subscriptions again (a flush after re-subscribing), every
 * {@link #onReconnect} listener runs, once per recovery: NATS delivers at most once, so anything published while
 * a subscriber was away is lost to it, and a consumer treats each reconnect as a gap.
 */
public final class NatsTransport implements Transport {

  private static final System.Logger LOG = System.getLogger(NatsTransport.class.getName());
  /** No publish since the last flush. */
  private static final long NONE = Long.MAX_VALUE;
  /** How often an idle connection pings the server; two unanswered pings drop it. */
  private static final Duration PING_INTERVAL = Duration.ofSeconds(5);

  private final NatsConfig config;
  private final Options options;
  private final Object lock = new Object();
  private final AtomicLong epoch = new AtomicLong();
  private final ThreadLocal<long[]> unflushedSince = ThreadLocal.withInitial(() -> new long[] {NONE});
  private final List<NatsSubscription> subscriptions = new CopyOnWriteArrayList<>();
  private final List<Runnable> reconnectListeners = new CopyOnWriteArrayList<>();
  private final ExecutorService events =
      Executors.newSingleThreadExecutor(Thread.ofVirtual().name("runnel-nats-events").factory());
  private volatile Connection connection;
  private volatile boolean closed;

  private NatsTransport(NatsConfig config) {
    this.config = config;
    ConnectionListener listener = this::connectionEvent;
    this.options = new Options.Builder()
        .servers(config.servers().stream().map(java.net.URI::toString).toArray(String[]::new))
        .noRandomize()
        .connectionName("runnel")
        .connectionTimeout(config.connectTimeout())
        .reconnectWait(config.reconnectWait())
        .maxReconnects(config.maxReconnects())
        .reconnectBufferSize(0)
        .pingInterval(PING_INTERVAL)
        .connectionListener(listener)
        .errorListener(new Errors())
        .build();
  }

  /**
   * Connects to the first server of {@code config} that answers; returns once connected.
   *
   * @throws TransportUnavailableException ({@code X_TRANSPORT_UNAVAILABLE}) when none answers within
   *     {@link NatsConfig#connectTimeout} each; the refusal names the URLs and the fix
   */
  public static NatsTransport connect(NatsConfig config) {
    Objects.requireNonNull(config, "config");
    NatsTransport t = new NatsTransport(config);
    try {
      t.connection = Nats.connect(t.options);
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
    long at = epoch.get();
    Connection c = live("publish on " + subject);
    long max = c.getMaxPayload();
    if (max > 0 && payload.length > max) {
      throw new IllegalArgumentException("A payload of " + payload.length + " bytes on " + subject
          + " is over the NATS server's max_payload of " + max + " bytes");
    }
    long[] since = unflushedSince.get();
    since[0] = Math.min(since[0], at);
    try {
      c.publish(subject, payload);
    } catch (IllegalStateException e) {
      throw down("publish on " + subject, e.getMessage());
    }
  }

  /**
   * Returns once the server read every earlier publish of this thread, within {@code deadline} (a non-positive
   * one is taken as 1 ms).
   *
   * @throws TransportUnavailableException at once while the connection is down; when the server does not answer
   *     in time; or when the connection dropped since this thread's first unflushed publish (they may be lost)
   */
  @Override
  public void flush(Duration deadline) {
    Objects.requireNonNull(deadline, "deadline");
    long[] since = unflushedSince.get();
    long first = since[0];
    since[0] = NONE;
    Connection c = live("flush");
    Duration wait = deadline.isNegative() || deadline.isZero() ? Duration.ofMillis(1) : deadline;
    try {
      c.flush(wait);
    } catch (TimeoutException e) {
      throw down("flush", "the server did not answer within " + wait.toMillis() + " ms");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw down("flush", "interrupted");
    } catch (IllegalStateException e) {
      throw down("flush", e.getMessage());
    }
    if (first != NONE && epoch.get() != first) {
      throw new TransportUnavailableException("The connection to NATS at " + config.urls() + " dropped after a "
          + "publish and before this flush, so the server may have missed what was published.",
          "Publish again; consumers drop duplicates by LSN.");
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
  public Subscription subscribe(String pattern, java.util.function.Consumer<TransportMessage> handler) {
    Objects.requireNonNull(pattern, "pattern");
    Objects.requireNonNull(handler, "handler");
    NatsSubscription s = new NatsSubscription(pattern, handler);
    Connection c;
    synchronized (lock) {
      c = live("subscribe to " + pattern);
      try {
        s.attach(c);
      } catch (IllegalStateException e) {
        throw down("subscribe to " + pattern, e.getMessage());
      }
      subscriptions.add(s);
    }
    try {
      c.flush(config.connectTimeout());
    } catch (TimeoutException | IllegalStateException e) {
      s.close();
      throw down("subscribe to " + pattern, "the server did not confirm it: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      s.close();
      throw down("subscribe to " + pattern, "interrupted");
    }
    return s;
  }

  /** Registers {@code listener}, run on the transport's event thread once per recovery of the connection. */
  @Override
  public void onReconnect(Runnable listener) {
    reconnectListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** The server's {@code max_payload}, in bytes, as its greeting on the current connection said. */
  @Override
  public long maxPayload() {
    long max = connection.getMaxPayload();
    return max > 0 ? max : Long.MAX_VALUE;
  }

  /** Whether the connection is up now (publishes are taken). */
  public boolean connected() {
    return !closed && connection.getStatus() == Connection.Status.CONNECTED;
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
      connection.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Connection live(String what) {
    if (closed) {
      throw new TransportUnavailableException("This NATS transport is closed, so it cannot " + what + ".",
          "Open a new transport.");
    }
    Connection c = connection;
    Connection.Status status = c.getStatus();
    if (status != Connection.Status.CONNECTED) {
      throw down(what, "the connection is " + status.name().toLowerCase(Locale.ROOT));
    }
    return c;
  }

  private TransportUnavailableException down(String what, String why) {
    return new TransportUnavailableException("Could not " + what + " through NATS at " + config.urls() + ": " + why
        + ".", "Retry later: the transport reconnects by itself every " + config.reconnectWait().toMillis()
        + " ms; if the server is down, start it.");
  }

  /** jnats's connection events, on its callback thread; the work goes to {@link #events}. */
  private void connectionEvent(Connection c, ConnectionListener.Events type) {
    if (type == ConnectionListener.Events.DISCONNECTED || type == ConnectionListener.Events.CLOSED) {
      epoch.incrementAndGet();
    }
    if (closed || c != connection) {
      return;
    }
    if (type == ConnectionListener.Events.DISCONNECTED) {
      LOG.log(Level.WARNING, "Lost the connection to NATS at " + config.urls() + "; reconnecting");
    } else if (type == ConnectionListener.Events.RESUBSCRIBED) {
      events.execute(() -> announce(c));
    } else if (type == ConnectionListener.Events.CLOSED) {
      LOG.log(Level.WARNING, "jnats gave up reconnecting to NATS at " + config.urls() + "; re-dialling every "
          + config.reconnectWait().toMillis() + " ms");
      events.execute(this::redial);
    }
  }

  /** Re-dials until a server answers (or the transport closes), then re-attaches every subscription. */
  private void redial() {
    while (!closed) {
      try {
        Connection n = Nats.connect(options);
        synchronized (lock) {
          if (closed) {
            n.close();
            return;
          }
          connection = n;
          for (NatsSubscription s : subscriptions) {
            s.attach(n);
          }
        }
        announce(n);
        return;
      } catch (IOException e) {
        LOG.log(Level.DEBUG, "Re-dial of NATS at " + config.urls() + " failed: " + e.getMessage());
      } catch (InterruptedException e) {
        return;
      }
      try {
        Thread.sleep(config.reconnectWait());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * Once the server has the subscriptions again (a flush answers after the re-sent SUBs), tells every listener.
   * A listener is told even when that flush fails: a gap announced twice costs a re-read, one missed costs data.
   */
  private void announce(Connection c) {
    try {
      c.flush(config.connectTimeout());
    } catch (TimeoutException | IllegalStateException e) {
      LOG.log(Level.DEBUG, "The flush after reconnecting to NATS failed: " + e.getMessage());
    } catch (InterruptedException e) {
      return;
    }
    LOG.log(Level.INFO, "Reconnected to NATS at " + config.urls() + "; consumers treat it as a gap");
    for (Runnable l : reconnectListeners) {
      try {
        l.run();
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "A reconnect listener failed", e);
      }
    }
  }

  /** One subscription: a dispatcher of its own on the current connection, moved to a new one after a re-dial. */
  private final class NatsSubscription implements Subscription {
    private final String pattern;
    private final java.util.function.Consumer<TransportMessage> handler;
    private final AtomicBoolean open = new AtomicBoolean(true);
    private volatile Connection on;
    private volatile Dispatcher dispatcher;

    NatsSubscription(String pattern, java.util.function.Consumer<TransportMessage> handler) {
      this.pattern = pattern;
      this.handler = handler;
    }

    /** Subscribes on {@code c} through a new dispatcher. */
    void attach(Connection c) {
      Dispatcher d = c.createDispatcher(this::deliver);
      d.subscribe(pattern);
      on = c;
      dispatcher = d;
    }

    private void deliver(Message m) {
      if (!open.get()) {
        return;
      }
      byte[] data = m.getData();
      try {
        handler.accept(new TransportMessage(m.getSubject(), data == null ? new byte[0] : data));
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "Subscriber '" + pattern + "' failed on a message of " + m.getSubject(), e);
      }
    }

    @Override
    public String pattern() {
      return pattern;
    }

    @Override
    public void close() {
      if (!open.compareAndSet(true, false)) {
        return;
      }
      synchronized (lock) {
        subscriptions.remove(this);
      }
      try {
        on.closeDispatcher(dispatcher);
      } catch (IllegalStateException | IllegalArgumentException e) {
        // The connection is closed already: the dispatcher went with it.
      }
    }
  }

  /** jnats's asynchronous errors, logged; a slow consumer's dropped messages show up as a seq hole downstream. */
  private final class Errors implements ErrorListener {
    @Override
    public void errorOccurred(Connection conn, String error) {
      LOG.log(Level.WARNING, "NATS at " + config.urls() + " reported: " + error);
    }

    @Override
    public void exceptionOccurred(Connection conn, Exception exp) {
      LOG.log(Level.DEBUG, "NATS connection to " + config.urls() + ": " + exp);
    }

    @Override
    public void slowConsumerDetected(Connection conn, Consumer consumer) {
      LOG.log(Level.WARNING, "A subscriber is too slow: NATS messages were dropped (consumers see a seq hole "
          + "and re-read)");
    }
  }
}
