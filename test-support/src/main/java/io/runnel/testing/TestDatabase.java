package io.runnel.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * One fresh database on the JVM's embedded PostgreSQL, for one test class.
 *
 * <p>{@link #close()} drops the replication slots made on it (ending their WAL senders first) and then the
 * database itself, with its publications.
 */
public final class TestDatabase implements AutoCloseable {

  private final EmbeddedPostgresServer server;
  private final String name;

  TestDatabase(EmbeddedPostgresServer server, String name) {
    this.server = server;
    this.name = name;
  }

  /** The database's name. */
  public String name() {
    return name;
  }

  /** A JDBC URL for this database as superuser. */
  public String jdbcUrl() {
    return server.jdbcUrl(name);
  }

  /** The server this database lives on. */
  public EmbeddedPostgresServer server() {
    return server;
  }

  /**
   * A new connection to this database as superuser, auto-commit on.
   *
   * @throws SQLException when the server refuses it
   */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl(), server.credentials());
  }

  /**
   * Properties for a logical replication connection ({@code replication=database}) to this database, as pgjdbc's
   * replication API needs them.
   */
  public Properties replicationProperties() {
    Properties p = server.credentials();
    p.setProperty("replication", "database");
    p.setProperty("assumeMinServerVersion", "10");
    p.setProperty("preferQueryMode", "simple");
    return p;
  }

  /**
   * Runs SQL statements (separated as PostgreSQL's simple query protocol allows) in one auto-committed call.
   *
   * @throws IllegalStateException wrapping the server's error
   */
  public void execute(String sql) {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("SQL failed: " + e.getMessage() + "\n" + sql, e);
    }
  }

  /** Drops this database's replication slots and then the database. */
  @Override
  public void close() {
    try (Connection c = server.adminConnection()) {
      try (PreparedStatement s = c.prepareStatement(
          "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots"
              + " WHERE database = ? AND active_pid IS NOT NULL")) {
        s.setString(1, name);
        s.execute();
      }
      dropSlots(c);
      try (Statement s = c.createStatement()) {
        s.execute("DROP DATABASE IF EXISTS \"" + name + "\" WITH (FORCE)");
      }
    } catch (SQLException e) {
      throw new IllegalStateException("Could not drop test database " + name + ": " + e.getMessage(), e);
    }
  }

  private void dropSlots(Connection c) throws SQLException {
    // A terminated WAL sender releases its slot asynchronously: retry the drop until the slot is free.
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (true) {
      try (PreparedStatement s = c.prepareStatement(
          "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = ?")) {
        s.setString(1, name);
        s.execute();
        return;
      } catch (SQLException e) {
        if (!"55006".equals(e.getSQLState()) || System.nanoTime() > deadline) {
          throw e;
        }
        try (PreparedStatement wait = c.prepareStatement("SELECT pg_sleep(0.05)")) {
          wait.execute();
        }
      }
    }
  }

  /** Properties with the superuser's credentials, for tools that open their own connections. */
  public Properties credentials() {
    return server.credentials();
  }

  @Override
  public String toString() {
    return "TestDatabase[" + name + " on port " + server.port() + "]";
  }
}
