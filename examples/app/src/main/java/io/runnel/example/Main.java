package io.runnel.example;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The main job, {@code ./runnel run}: starts the embedded PostgreSQL (data kept under {@code RUNNEL_DATA_DIR},
 * default {@code .runnel/pgdata}), prints its JDBC URL and waits for Ctrl-C, then stops it cleanly.
 *
 * <p>The reference app (sync node, replicator, page) is wired in here as its issues land.
 */
public final class Main {

  private Main() {}

  /**
   * Runs until the process is interrupted.
   *
   * @param args none are read
   * @throws Exception when PostgreSQL cannot start; the message names the cause
   */
  public static void main(String[] args) throws Exception {
    AppConfig config;
    try {
      config = AppConfig.fromEnvironment(System.getenv(), Path.of("").toAbsolutePath());
    } catch (io.runnel.wire.RunnelException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    EmbeddedDatabase db = EmbeddedDatabase.start(config.dataDirectory(), config.databasePort());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      db.close();
      stopped.countDown();
    }, "runnel-stop"));
    printBanner(System.out, db, config);
    stopped.await();
  }

  static void printBanner(PrintStream out, EmbeddedDatabase db, AppConfig config) {
    out.println("Runnel: embedded PostgreSQL " + db.serverVersion() + " is up (wal_level=logical).");
    out.println("  JDBC URL:  " + db.jdbcUrl());
    out.println("  psql:      psql -h 127.0.0.1 -p " + db.port() + " -U postgres postgres");
    out.println("  data:      " + config.dataDirectory() + " (kept between runs; delete it to start afresh)");
    out.println("Press Ctrl-C to stop.");
    out.flush();
  }
}
