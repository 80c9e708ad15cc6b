package io.runnel.server;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.runnel.bus.Transport;
import io.runnel.replicator.DatabaseUrl;
import io.runnel.replicator.Replicator;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.sync.SyncNode;
import io.runnel.sync.auth.TicketStore;
import io.runnel.sync.socket.Drained;
import io.runnel.time.Sleeper;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * An app running whole in one process ({@code RUNNEL_ROLE=all}): PostgreSQL (embedded, or
 * {@code DATABASE_URL}), the app's Flyway migrations, the replicator streaming the WAL onto the bus (in-process,
 * or NATS at {@code NATS_URL}), and one sync node serving Runnel's routes, the development sign-in
 * ({@link DevSignIn}) and the page on {@code PORT}. {@link #close()} stops them in the reverse order.
 */
public final class AllRole implements AutoCloseable {

  private static final long STREAMING_WAIT_SECONDS = 30;

  private final RunnelServer app;
  private final AppConfig config;
  private final @Nullable EmbeddedDatabase embedded;
  private final DatabaseUrl database;
  private final HikariDataSource pool;
  private final Transport bus;
  private final Replicator replicator;
  private final String secret;
  private final int port;
  private final PrometheusMeterRegistry meters;
  private @Nullable SyncNode node;

  private AllRole(RunnelServer app, AppConfig config, @Nullable EmbeddedDatabase embedded, DatabaseUrl database,
      HikariDataSource pool, Transport bus, Replicator replicator, String secret, SyncNode node,
      PrometheusMeterRegistry meters) {
    this.app = app;
    this.config = config;
    this.embedded = embedded;
    this.database = database;
    this.pool = pool;
    this.bus = bus;
    this.replicator = replicator;
    this.secret = secret;
    this.node = node;
    this.port = node.port();
    this.meters = meters;
  }

  /**
   * Starts everything and returns once the node listens and the replicator streams. The bus is opened first, so an
   * unreachable NATS server stops the boot before anything else starts.
   *
   * @throws io.runnel.bus.TransportUnavailableException ({@code X_TRANSPORT_UNAVAILABLE}) when no NATS server
   *     answers at {@code NATS_URL}, naming the URL and the fix
   * @throws IllegalStateException when the replicator does not stream within 30 s (its stats name the reason)
   * @throws java.io.UncheckedIOException when the embedded PostgreSQL cannot start
   */
  public static AllRole start(RunnelServer app, AppConfig config) throws InterruptedException {
    Objects.requireNonNull(app, "app");
    Objects.requireNonNull(config, "config");
    Transport bus = config.bus().open();
    try {
      return start(app, config, bus);
    } catch (RuntimeException | InterruptedException | Error e) {
      bus.close();
      throw e;
    }
  }

  private static AllRole start(RunnelServer app, AppConfig config, Transport bus) throws InterruptedException {
    DatabaseUrl external = config.databaseUrl();
    EmbeddedDatabase embedded = null;
    DatabaseUrl database;
    if (external == null) {
      embedded = EmbeddedDatabase.start(config.dataDirectory(), config.databasePort());
      database = DatabaseUrl.parse("the embedded PostgreSQL", embedded.jdbcUrl());
    } else {
      database = external;
    }
    HikariDataSource pool = pool(database, 8, "runnel-" + app.name());
    app.migrate(pool);
    // One registry for the replicator and the node: one /metrics shows both.
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Replicator replicator = Replicator.builder().database(database).config(Objects.requireNonNull(config.replication(),
        "replication")).entities(app.entities()).transport(bus).meters(meters).build();
    replicator.start();
    awaitStreaming(replicator);
    String secret = config.jwtSecret() != null ? config.jwtSecret() : randomSecret();
    SyncNode node = node(app, config, pool, bus, secret, config.port(), meters, replicator);
    node.start();
    return new AllRole(app, config, embedded, database, pool, bus, replicator, secret, node, meters);
  }

  private static SyncNode node(RunnelServer app, AppConfig config, HikariDataSource pool, Transport bus, String secret,
      int port, PrometheusMeterRegistry meters, Replicator replicator) {
    // One process: its ticket claims stay in its memory.
    return Nodes.build(app, config, pool, bus, secret, TicketStore.inMemory(), port, meters, replicator::stats);
  }

  /** A pool of at most {@code size} connections to {@code database}. */
  public static HikariDataSource pool(DatabaseUrl database, int size, String name) {
    HikariConfig hc = new HikariConfig();
    hc.setJdbcUrl(database.jdbcUrl());
    hc.setDataSourceProperties(database.properties());
    hc.setMaximumPoolSize(size);
    hc.setPoolName(name);
    return new HikariDataSource(hc);
  }

  private static void awaitStreaming(Replicator replicator) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STREAMING_WAIT_SECONDS);
    while (replicator.stats().state() != ReplicatorStats.State.STREAMING) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("The replicator did not stream within 30 s: " + replicator.stats());
      }
      Sleeper.SYSTEM.sleep(Duration.ofMillis(10));
    }
  }

  /** 32 random bytes as Base64: a secret for this process alone. */
  static String randomSecret() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  /** The page's URL, {@code http://localhost:<port>/}. */
  public String url() {
    return "http://localhost:" + port + "/";
  }

  /** The HTTP port the node listens on. */
  public int port() {
    return port;
  }

  /** The database's JDBC URL (without credentials). */
  public String jdbcUrl() {
    return database.jdbcUrl();
  }

  /** The embedded PostgreSQL, or null when {@code DATABASE_URL} named the database. */
  public @Nullable EmbeddedDatabase embedded() {
    return embedded;
  }

  /** The pool the node's mutators and reads use. */
  public HikariDataSource pool() {
    return pool;
  }

  /**
   * Drains the sync node over the configured spread ({@code RUNNEL_DRAIN_SPREAD_MS}; {@link SyncNode#drain()}) and
   * waits until it is done, at most the spread plus 10 s: it stops accepting, every socket is told to reconnect
   * (elsewhere) after a delay of its own, and the sockets still open at the end are closed. Answers what it did, or
   * null when the node is not running. The node keeps running its routes until {@link #close()}.
   *
   * @throws InterruptedException when interrupted while waiting
   */
  public @Nullable Drained drainNode() throws InterruptedException {
    SyncNode n;
    synchronized (this) {
      n = node;
    }
    if (n == null) {
      return null;
    }
    return Nodes.drain(n, config.drainSpread());
  }

  /** Stops the sync node only (its sockets close and its port stops answering); the rest goes on. */
  public synchronized void stopNode() {
    SyncNode n = node;
    node = null;
    if (n != null) {
      n.stop();
    }
  }

  /**
   * Starts a new sync node on the same port after {@link #stopNode()}; tokens signed before stay valid.
   *
   * @throws IllegalStateException when the node runs
   */
  public synchronized void startNode() {
    if (node != null) {
      throw new IllegalStateException("The node is running");
    }
    SyncNode n = node(app, config, pool, bus, secret, port, meters, replicator);
    n.start();
    node = n;
  }

  @Override
  public void close() {
    try {
      stopNode();
    } finally {
      try {
        replicator.stop();
        bus.close();
        pool.close();
      } finally {
        if (embedded != null) {
          embedded.close();
        }
      }
    }
  }
}
