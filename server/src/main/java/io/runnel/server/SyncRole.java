package io.runnel.server;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.runnel.bus.Transport;
import io.runnel.sync.SyncNode;
import io.runnel.sync.auth.TicketStore;
import io.runnel.sync.socket.Drained;
import io.runnel.time.Sleeper;
import io.runnel.wire.ConfigInvalidException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * A sync node of an app alone ({@code RUNNEL_ROLE=sync}): one of several behind a load balancer, on the
 * app's PostgreSQL ({@code DATABASE_URL}) and the NATS the replicator publishes on ({@code NATS_URL}). It runs no
 * replicator and no migrations: at boot it waits for the replicator role to have migrated the schema. Its ticket
 * claims are kept in {@code runnel.tickets} ({@link TicketStore#postgres}) and its tickets are signed with the key
 * every sync node derives alike ({@code RUNNEL_TICKET_SECRET}, or from {@code RUNNEL_JWT_SECRET}), so a ticket issued
 * by one node opens one socket on any node. {@link #close()} stops the node, the pool and the bus.
 */
public final class SyncRole implements AutoCloseable {

  /** How long a node waits at boot for the replicator role to migrate the schema. */
  public static final Duration SCHEMA_WAIT = Duration.ofMinutes(2);

  private final AtomicBoolean closed = new AtomicBoolean();
  private final HikariDataSource pool;
  private final Transport bus;
  private final SyncNode node;

  private SyncRole(HikariDataSource pool, Transport bus, SyncNode node) {
    this.pool = pool;
    this.bus = bus;
    this.node = node;
  }

  /**
   * Opens the bus, waits for the schema, creates {@code runnel.tickets} when missing, and starts the node.
   *
   * @param app the app the node serves
   * @param config a configuration of role {@code sync}
   * @throws io.runnel.bus.TransportUnavailableException ({@code X_TRANSPORT_UNAVAILABLE}) when no NATS server
   *     answers at {@code NATS_URL}
   * @throws ConfigInvalidException ({@code X_CONFIG_INVALID}) when the schema is still not migrated after
   *     {@link #SCHEMA_WAIT}, or {@code runnel.tickets} cannot be created
   */
  public static SyncRole start(RunnelServer app, AppConfig config) throws InterruptedException {
    return start(app, config, SCHEMA_WAIT);
  }

  /** {@link #start(RunnelServer, AppConfig)}, waiting at most {@code schemaWait} for the schema. */
  public static SyncRole start(RunnelServer app, AppConfig config, Duration schemaWait) throws InterruptedException {
    Objects.requireNonNull(app, "app");
    Objects.requireNonNull(config, "config");
    if (config.role() != AppConfig.Role.SYNC || config.databaseUrl() == null
        || (config.jwtSecret() == null && config.ticketSecret() == null)) {
      throw new IllegalArgumentException("Not a configuration of role sync: " + config.role());
    }
    Transport bus = config.bus().open();
    HikariDataSource pool = null;
    try {
      pool = AllRole.pool(config.databaseUrl(), 8, "runnel-sync");
      awaitSchema(app, pool, schemaWait);
      TicketStore tickets;
      try {
        tickets = TicketStore.postgres(pool, Clock.systemUTC());
      } catch (SQLException e) {
        throw new ConfigInvalidException("The node could not create runnel.tickets: " + e.getMessage(),
            "Grant the node's database role CREATE on the database, or create the table with the DDL in "
                + "docs/deploy.md.");
      }
      // With an identity provider and no shared JWT secret, the secret only keys what this process signs alone.
      String secret = config.jwtSecret() != null ? config.jwtSecret() : AllRole.randomSecret();
      SyncNode node = Nodes.build(app, config, pool, bus, secret, tickets, config.port(),
          new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), null);
      node.start();
      return new SyncRole(pool, bus, node);
    } catch (RuntimeException | InterruptedException | Error e) {
      if (pool != null) {
        pool.close();
      }
      bus.close();
      throw e;
    }
  }

  /** Returns once none of the app's migrations is pending, polling every second, or refuses after {@code wait}. */
  private static void awaitSchema(RunnelServer app, HikariDataSource pool, Duration wait)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    boolean told = false;
    int pending;
    while ((pending = app.pendingMigrations(pool)) > 0) {
      if (System.nanoTime() > deadline) {
        throw new ConfigInvalidException("The database at DATABASE_URL still has " + pending
            + " " + app.name() + " migrations pending after " + wait.toSeconds() + " s.",
            "Run the replicator role (RUNNEL_ROLE=replicator) on the same DATABASE_URL: it migrates the schema, and "
                + "sync nodes wait for it.");
      }
      if (!told) {
        System.out.println("Runnel: " + pending + " migrations pending; waiting for the replicator role to run them.");
        told = true;
      }
      Sleeper.SYSTEM.sleep(Duration.ofSeconds(1));
    }
  }

  /** The HTTP port the node listens on. */
  public int port() {
    return node.port();
  }

  /** The node's URL, {@code http://localhost:<port>/}. */
  public String url() {
    return "http://localhost:" + port() + "/";
  }

  /**
   * Drains the node over {@code spread} ({@code RUNNEL_DRAIN_SPREAD_MS}; {@link Nodes#drain}): it stops
   * accepting, tells every socket to reconnect elsewhere after a delay of its own, and closes what is left. Answers
   * what it did, or null when it did not finish.
   *
   * @throws InterruptedException when interrupted while waiting
   */
  public @Nullable Drained drainNode(Duration spread) throws InterruptedException {
    return Nodes.drain(node, spread);
  }

  /** Stops everything; a second call does nothing. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      node.stop();
    } finally {
      try {
        pool.close();
      } finally {
        bus.close();
      }
    }
  }
}
