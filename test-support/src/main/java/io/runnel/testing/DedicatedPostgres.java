package io.runnel.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * An embedded PostgreSQL of a test's own, for what the shared server must not suffer: a restart mid-stream, or
 * settings such as {@code wal_level=replica}. It keeps its data directory and port across {@link #restart()}.
 */
public final class DedicatedPostgres implements AutoCloseable {

  private final Path dataDirectory;
  private final Map<String, String> settings;
  private EmbeddedPostgres postgres;
  private final int port;

  private DedicatedPostgres(Path dataDirectory, Map<String, String> settings) {
    this.dataDirectory = dataDirectory;
    this.settings = settings;
    this.postgres = start(dataDirectory, settings, 0);
    this.port = postgres.getPort();
  }

  /**
   * Starts a server on {@code dataDirectory} with logical replication on, {@code synchronous_commit=on}, and
   * {@code overrides} applied last.
   *
   * @throws UncheckedIOException when it cannot start
   */
  public static DedicatedPostgres start(Path dataDirectory, Map<String, String> overrides) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("wal_level", "logical");
    s.put("max_replication_slots", "10");
    s.put("max_wal_senders", "10");
    s.put("synchronous_commit", "on");
    s.put("timezone", "UTC");
    s.putAll(overrides);
    return new DedicatedPostgres(dataDirectory, s);
  }

  private static EmbeddedPostgres start(Path dir, Map<String, String> settings, int port) {
    try {
      EmbeddedPostgres.Builder b = EmbeddedPostgres.builder().setDataDirectory(dir).setCleanDataDirectory(false)
          .setPGStartupWait(Duration.ofSeconds(60));
      settings.forEach(b::setServerConfig);
      if (port != 0) {
        b.setPort(port);
      }
      return b.start();
    } catch (IOException e) {
      throw new UncheckedIOException("A dedicated embedded PostgreSQL did not start", e);
    }
  }

  /** Stops the server (fast shutdown) and starts it again on the same data directory and port. */
  public synchronized void restart() {
    stop();
    postgres = start(dataDirectory, settings, port);
  }

  /** Stops the server; {@link #restart()} brings it back. */
  public synchronized void stop() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The port, the same across restarts. */
  public int port() {
    return port;
  }

  /** A JDBC URL for {@code database} as the superuser. */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://localhost:" + port + "/" + database + "?user=postgres";
  }

  /** A new connection to the {@code postgres} database as superuser. @throws SQLException when refused */
  public Connection connect() throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    return DriverManager.getConnection("jdbc:postgresql://localhost:" + port + "/postgres", p);
  }

  @Override
  public synchronized void close() {
    stop();
  }
}
