package io.runnel.example;

import io.runnel.sync.Drained;
import io.runnel.wire.RunnelException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The main job, {@code ./runnel run}: reads the configuration ({@link AppConfig}), starts the team board whole
 * ({@link BoardApp}), prints the URL to open, the database's JDBC URL, the bus and how to sign in, and runs until
 * Ctrl-C or SIGTERM, which drain the sync node first (its clients are told to reconnect over
 * {@code RUNNEL_DRAIN_SPREAD_MS}, default 10 s) and then stop everything cleanly. A bad configuration prints its {@code X_CONFIG_INVALID} error and exits
 * with 2 ({@code RUNNEL_LOG_FORMAT} included: {@link LogFormat}); a part that refuses at boot (a NATS server that does not answer: {@code X_TRANSPORT_UNAVAILABLE}) prints
 * its error, naming the fix, and exits with 1.
 */
public final class Main {

  private Main() {}

  /**
   * Runs until the process is interrupted.
   *
   * @param args none are read
   * @throws Exception when a part cannot start; the message names the cause
   */
  public static void main(String[] args) throws Exception {
    AppConfig config;
    try {
      config = AppConfig.fromEnvironment(System.getenv(), Path.of("").toAbsolutePath());
      LogFormat.fromEnvironment(System.getenv(), config.dev()).install();
    } catch (RunnelException e) {
      System.err.println(e.code() + ": " + e.cause() + " Fix: " + e.fix());
      System.exit(2);
      return;
    }
    BoardApp app;
    try {
      app = BoardApp.start(config);
    } catch (RunnelException e) {
      System.err.println(e.code() + ": " + e.cause() + " Fix: " + e.fix());
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("Runnel: draining over " + config.drainSpread().toMillis() + " ms, then stopping.");
      try {
        Drained drained = app.drainNode();
        if (drained != null) {
          System.out.println("Runnel: drained: " + drained.told() + " sockets told to reconnect, " + drained.closed()
              + " closed at the end of the window.");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        app.close();
      }
      stopped.countDown();
    }, "runnel-stop"));
    printBanner(System.out, app, config);
    stopped.await();
  }

  static void printBanner(PrintStream out, BoardApp app, AppConfig config) {
    EmbeddedDatabase db = app.embedded();
    out.println("Runnel: the team board is up.");
    out.println("  open:      " + app.url());
    out.println("  JDBC URL:  " + app.jdbcUrl() + (db != null ? " (user postgres, password postgres)" : ""));
    if (db != null) {
      out.println("  database:  embedded PostgreSQL " + db.serverVersion() + ", data in " + config.dataDirectory()
          + " (kept between runs; delete it to start afresh)");
      out.println("  psql:      psql -h 127.0.0.1 -p " + db.port() + " -U postgres postgres");
    }
    out.println("  bus:       " + config.bus().describe());
    if (config.dev()) {
      out.println("  sign in:   pick ada or alan (acme) or grace (globex) on the page; a script signs in with");
      out.println("             curl -s -X POST " + app.url() + "v1/dev/sign-in -d '{\"user\":\"ada\"}'");
    } else {
      out.println("  sign in:   with a token signed by RUNNEL_JWT_SECRET (HS256; claims sub, org_id, exp)");
    }
    out.println("Press Ctrl-C to stop.");
    out.flush();
  }
}
