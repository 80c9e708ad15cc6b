package io.runnel.example;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The embedded default: a real PostgreSQL started from Maven artifacts (zonky), configured for logical
 * replication, its data kept in a directory between runs.
 */
public final class EmbeddedDatabase implements AutoCloseable {

  private final EmbeddedPostgres postgres;

  private EmbeddedDatabase(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /**
   * Starts PostgreSQL on {@code dataDirectory} (created and initialised on first use, reused afterwards).
   *
   * @param port the port, or 0 for a free one
   * @throws UncheckedIOException when PostgreSQL cannot start (its log, printed above, names the reason)
   */
  public static EmbeddedDatabase start(Path dataDirectory, int port) {
    try {
      Files.createDirectories(dataDirectory);
      EmbeddedPostgres.Builder b = EmbeddedPostgres.builder()
          .setDataDirectory(dataDirectory)
          .setCleanDataDirectory(false)
          .setServerConfig("wal_level", "logical")
          .setServerConfig("max_replication_slots", "10")
          .setServerConfig("max_wal_senders", "10")
          .setServerConfig("synchronous_commit", "on")
          .setPGStartupWait(Duration.ofSeconds(60));
      if (port > 0) {
        b.setPort(port);
      }
      return new EmbeddedDatabase(b.start());
    } catch (IOException e) {
      throw new UncheckedIOException("The embedded PostgreSQL did not start on " + dataDirectory
          + "; its output above names the reason", e);
    }
  }

  /** The JDBC URL of the {@code postgres} database as user {@code postgres}. */
  public String jdbcUrl() {
    return postgres.getJdbcUrl("postgres", "postgres");
  }

  /** The TCP port on 127.0.0.1. */
  public int port() {
    return postgres.getPort();
  }

  /** A new connection to the {@code postgres} database. @throws SQLException when refused */
  public Connection connect() throws SQLException {
    return postgres.getPostgresDatabase().getConnection();
  }

  /** The server's version, as {@code SHOW server_version} prints it. */
  public String serverVersion() {
    try (Connection c = connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SHOW server_version")) {
      r.next();
      return r.getString(1);
    } catch (SQLException e) {
      return "(version unknown: " + e.getMessage() + ")";
    }
  }

  /** Stops PostgreSQL (a fast shutdown; the data stays). */
  @Override
  public void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException("The embedded PostgreSQL did not stop cleanly", e);
    }
  }
}
