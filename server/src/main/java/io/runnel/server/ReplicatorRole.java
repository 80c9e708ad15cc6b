package io.runnel.server;

import com.zaxxer.hikari.HikariDataSource;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.runnel.bus.Transport;
import io.runnel.replicator.Replicator;
import io.runnel.replicator.ReplicatorConfig;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.sync.Degraded;
import io.runnel.sync.metrics.JvmMeters;
import io.runnel.wire.JsonObject;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An app's replicator alone ({@code RUNNEL_ROLE=replicator}): migrates the app's schema (Flyway, which
 * serialises concurrent runs with its own lock, so two replicas may start together), then streams the slot onto NATS
 * through the slot's advisory lock: of several replicas on one slot one streams and the others stand by, taking over
 * within seconds of its end ({@code docs/replicator.md}). Its HTTP port ({@code PORT}) serves only
 * {@code GET /healthz} (200 while the process runs), {@code GET /readyz} (200 while streaming or standing by, 503
 * while starting or backing off; JSON with the state, the lag and the last failure) and {@code GET /metrics}
 * (Prometheus text of a Micrometer registry: the replicator's series and its bus's, as the {@code all} role shows
 * them, and the JVM's). {@link #close()} stops the stream, which releases the lock for a standby.
 */
public final class ReplicatorRole implements AutoCloseable {

  private final AtomicBoolean closed = new AtomicBoolean();
  private final HikariDataSource pool;
  private final Transport bus;
  private final Replicator replicator;
  private final WebServer server;
  private final PrometheusMeterRegistry meters;
  private final JvmMeters jvm;

  private ReplicatorRole(HikariDataSource pool, Transport bus, Replicator replicator, WebServer server,
      PrometheusMeterRegistry meters, JvmMeters jvm) {
    this.pool = pool;
    this.bus = bus;
    this.replicator = replicator;
    this.server = server;
    this.meters = meters;
    this.jvm = jvm;
  }

  /**
   * Opens the bus, migrates, starts the replicator (streaming or standing by) and listens; returns at once after.
   *
   * @param app the app whose schema it migrates and whose entities it publishes
   * @param config a configuration of role {@code replicator}
   * @throws io.runnel.bus.TransportUnavailableException ({@code X_TRANSPORT_UNAVAILABLE}) when no NATS server
   *     answers at {@code NATS_URL}
   * @throws org.flywaydb.core.api.FlywayException when the migrations cannot run (the message names why)
   */
  public static ReplicatorRole start(RunnelServer app, AppConfig config) {
    Objects.requireNonNull(app, "app");
    Objects.requireNonNull(config, "config");
    ReplicatorConfig replication = config.replication();
    if (config.role() != AppConfig.Role.REPLICATOR || replication == null || replication.database() == null) {
      throw new IllegalArgumentException("Not a configuration of role replicator: " + config.role());
    }
    Transport bus = config.bus().open();
    HikariDataSource pool = null;
    Replicator replicator = null;
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    JvmMeters jvm = JvmMeters.bind(meters);
    try {
      pool = AllRole.pool(replication.database(), 2, "runnel-replicator");
      app.migrate(pool);
      replicator = Replicator.builder().config(replication).entities(app.entities()).transport(bus)
          .meters(meters).build();
      replicator.start();
      Replicator r = replicator;
      AtomicBoolean lagging = new AtomicBoolean();
      WebServer server = WebServer.builder().host("0.0.0.0").port(config.port())
          .routing(rules -> rules
              .get("/healthz", (req, res) -> json(res, Status.OK_200,
                  JsonObject.builder().put("status", "up").build()))
              .get("/readyz", (req, res) -> ready(res, r.stats(), config.lagDegraded().toMillis(), lagging))
              .get("/metrics", (req, res) -> {
                res.header(HeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
                res.send(meters.scrape());
              }))
          .build().start();
      return new ReplicatorRole(pool, bus, replicator, server, meters, jvm);
    } catch (RuntimeException | Error e) {
      if (replicator != null) {
        replicator.stop();
      }
      if (pool != null) {
        pool.close();
      }
      bus.close();
      jvm.close();
      meters.close();
      throw e;
    }
  }

  /** Whether {@code state} is ready: streaming, or standing by behind the lock's holder. */
  static boolean ready(ReplicatorStats.State state) {
    return state == ReplicatorStats.State.STREAMING || state == ReplicatorStats.State.STANDBY;
  }

  /**
   * The body of {@code /readyz}: 200 while streaming or standing by; {@code degraded} lists
   * {@code "replication_lag"} past {@code lagDegradedMs} (until below half of it) and {@code "wal_retention"} while
   * the slot's retention is low, and does not change the status.
   */
  private static void ready(ServerResponse res, ReplicatorStats s, long lagDegradedMs, AtomicBoolean lagging) {
    long lagMs = Math.round(s.lagSeconds() * 1000);
    boolean lag;
    synchronized (lagging) {
      lag = Degraded.lagging(lagging.get(), lagMs, lagDegradedMs);
      lagging.set(lag);
    }
    json(res, ready(s.state()) ? Status.OK_200 : Status.SERVICE_UNAVAILABLE_503, JsonObject.builder()
        .put("ready", ready(s.state()))
        .put("state", s.state().name().toLowerCase(Locale.ROOT))
        .put("streaming", s.state() == ReplicatorStats.State.STREAMING)
        .put("lagBytes", s.lagBytes())
        .put("lagMs", Math.round(s.lagSeconds() * 1000))
        .put("restarts", s.restarts())
        .put("lastFailure", s.lastFailure())
        .put("slotLost", s.slotLost())
        .put("degraded", Degraded.reasons(lag, s.retentionLow()))
        .build());
  }

  private static void json(ServerResponse res, Status status, JsonObject body) {
    res.status(status);
    res.header(HeaderNames.CONTENT_TYPE, "application/json");
    res.send(body.toString());
  }

  /** The HTTP port of the health and metrics routes. */
  public int port() {
    return server.port();
  }

  /** What the replicator is doing now. */
  public ReplicatorStats stats() {
    return replicator.stats();
  }

  /** Stops everything; a second call does nothing. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      replicator.stop();
    } finally {
      try {
        server.stop();
      } finally {
        try {
          pool.close();
        } finally {
          try {
            bus.close();
          } finally {
            jvm.close();
            meters.close();
          }
        }
      }
    }
  }
}
