package io.runnel.server;

import io.runnel.replicator.ReplicatorConfig;
import io.runnel.sync.socket.Drained;
import io.runnel.time.Threads;
import io.runnel.wire.ConfigInvalidException;
import io.runnel.wire.RunnelException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

/**
 * An app's main, every role of a deploy: reads the configuration ({@link AppConfig}) and starts what
 * {@code RUNNEL_ROLE} names: the app whole ({@link AllRole}, {@code all}, the default), the replicator alone
 * ({@link ReplicatorRole}) or a sync node alone ({@link SyncRole}). It prints what runs and where,
 * and runs until Ctrl-C or SIGTERM, which drain a sync node first (its clients are told to reconnect over
 * {@code RUNNEL_DRAIN_SPREAD_MS}, default 10 s) and then stop everything cleanly. A bad configuration prints its
 * {@code X_CONFIG_INVALID} error and exits with 2 ({@code RUNNEL_LOG_FORMAT} included: {@link LogFormat}); a part that
 * refuses at boot (a NATS server that does not answer: {@code X_TRANSPORT_UNAVAILABLE}) prints its error, naming the
 * fix, and exits with 1.
 */
public final class RunnelMain {

  private RunnelMain() {}

  /**
   * Runs {@code app} as the environment says until the process is interrupted; a bad configuration exits with 2, a
   * part that refuses at boot with 1.
   *
   * @throws Exception when a part cannot start; the message names the cause
   */
  public static void run(RunnelServer app) throws Exception {
    AppConfig config;
    try {
      config = app.config(System.getenv(), Path.of("").toAbsolutePath());
      LogFormat.fromEnvironment(System.getenv(), config.dev()).install();
    } catch (RunnelException e) {
      System.err.println(e.code() + ": " + e.cause() + " Fix: " + e.fix());
      System.exit(2);
      return;
    }
    AutoCloseable running;
    try {
      running = switch (config.role()) {
        case ALL -> AllRole.start(app, config);
        case REPLICATOR -> ReplicatorRole.start(app, config);
        case SYNC -> SyncRole.start(app, config);
      };
    } catch (RunnelException e) {
      System.err.println(e.code() + ": " + e.cause() + " Fix: " + e.fix());
      System.exit(e instanceof ConfigInvalidException ? 2 : 1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Threads.onShutdown("runnel-stop", () -> {
      try {
        drain(running, config);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      System.out.println("Runnel: stopping.");
      try {
        running.close();
      } catch (Exception e) {
        System.err.println("Runnel: stopping failed: " + e);
      }
      stopped.countDown();
    });
    switch (running) {
      case AllRole all -> printBanner(System.out, app, all, config);
      case ReplicatorRole r -> printBanner(System.out, r, config);
      case SyncRole s -> printBanner(System.out, app, s, config);
      default -> throw new IllegalStateException("Unknown role process " + running);
    }
    stopped.await();
  }

  /**
   * A sync node (roles {@code all} and {@code sync}) drains first: its clients are told to reconnect over
   * {@code RUNNEL_DRAIN_SPREAD_MS} ({@code docs/operating.md}, "Drain"); a replicator has no sockets to drain.
   */
  private static void drain(AutoCloseable running, AppConfig config) throws InterruptedException {
    Drained drained;
    if (running instanceof AllRole app) {
      System.out.println("Runnel: draining over " + config.drainSpread().toMillis() + " ms, then stopping.");
      drained = app.drainNode();
    } else if (running instanceof SyncRole role) {
      System.out.println("Runnel: draining over " + config.drainSpread().toMillis() + " ms, then stopping.");
      drained = role.drainNode(config.drainSpread());
    } else {
      return;
    }
    if (drained != null) {
      System.out.println("Runnel: drained: " + drained.told() + " sockets told to reconnect, " + drained.closed()
          + " closed at the end of the window.");
    }
  }

  /** The banner of role {@code all}: where to open it, its database, its bus and how to sign in. */
  public static void printBanner(PrintStream out, RunnelServer server, AllRole app, AppConfig config) {
    EmbeddedDatabase db = app.embedded();
    out.println("Runnel: " + server.title() + " is up.");
    out.println("  open:      " + app.url());
    out.println("  JDBC URL:  " + app.jdbcUrl() + (db != null ? " (user postgres, password postgres)" : ""));
    if (db != null) {
      out.println("  database:  embedded PostgreSQL " + db.serverVersion() + ", data in " + config.dataDirectory()
          + " (kept between runs; delete it to start afresh)");
      out.println("  psql:      psql -h 127.0.0.1 -p " + db.port() + " -U postgres postgres");
    }
    out.println("  bus:       " + config.bus().describe());
    printSignIn(out, server, app.url(), config);
    out.println("Press Ctrl-C to stop.");
    out.flush();
  }

  /** The banner of role {@code replicator}: its state, database, slot, publication, bus and health. */
  public static void printBanner(PrintStream out, ReplicatorRole role, AppConfig config) {
    out.println("Runnel: the replicator is up (" + role.stats().state().name().toLowerCase(Locale.ROOT)
        + "; one replicator per slot streams, the others stand by).");
    // The configuration requires both for this role.
    ReplicatorConfig replication = Objects.requireNonNull(config.replication(), "replication");
    out.println("  database:  " + Objects.requireNonNull(config.databaseUrl(), "databaseUrl").jdbcUrl() + ", slot "
        + replication.slot() + ", publication " + replication.publication());
    out.println("  bus:       " + config.bus().describe());
    out.println("  health:    http://localhost:" + role.port() + "/readyz and /metrics");
    out.flush();
  }

  /** The banner of role {@code sync}: where to open it, its database, its bus and how to sign in. */
  public static void printBanner(PrintStream out, RunnelServer server, SyncRole role, AppConfig config) {
    out.println("Runnel: a sync node of " + server.title() + " is up.");
    out.println("  open:      " + role.url());
    out.println("  database:  " + Objects.requireNonNull(config.databaseUrl(), "databaseUrl").jdbcUrl()); // required
    out.println("  bus:       " + config.bus().describe());
    printSignIn(out, server, role.url(), config);
    out.flush();
  }

  private static void printSignIn(PrintStream out, RunnelServer server, String url, AppConfig config) {
    AppConfig.Jwt jwt = config.jwt();
    if (jwt.jwksUrl() != null) {
      out.println("  sign in:   with a token from the identity provider at " + jwt.jwksUrl() + " (" + jwt.algorithm()
          + "; claims sub, " + jwt.orgClaim() + ", exp" + (jwt.issuer() == null ? "" : "; iss " + jwt.issuer())
          + (jwt.audience() == null ? "" : "; aud " + jwt.audience()) + ")");
    } else if (config.dev() && !server.devUsers().isEmpty()) {
      out.println("  sign in:   pick " + DevSignIn.names(server.devUsers()) + " on the page; a script signs in with");
      out.println("             curl -s -X POST " + url + "v1/dev/sign-in -d '{\"user\":\""
          + server.devUsers().get(0).id() + "\"}'");
    } else {
      out.println("  sign in:   with a token signed by RUNNEL_JWT_SECRET (HS256; claims sub, org_id, exp)");
    }
  }
}
