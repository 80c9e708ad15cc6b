package io.runnel.replicator;

import io.runnel.dsl.Column;
import io.runnel.dsl.server.Channel;
import io.runnel.dsl.server.Entity;
import io.runnel.wire.ErrorCode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The checks and set-up before streaming, in this order: {@code wal_level} is {@code logical}; the publication
 * exists and holds every declared entity's table (created or extended, never shrunk); each table's replica identity
 * lets old rows through (warned otherwise) and has the entity's columns; a records channel's table whose param
 * columns are not all key columns has REPLICA IDENTITY FULL (warned otherwise: a delete or a move then reaches the
 * nodes without the old row's params). The slot is {@link SlotGuard}'s.
 */
final class Preflight {

  private Preflight() {}

  /**
   * Runs the checks on {@code c} (a plain connection to the replicated database).
   *
   * @return warnings, each {@code X_LIVE_REPLICA_IDENTITY: cause Fix: fix}
   * @throws ReplicationException ({@code X_REPLICATION_FAILED}) when replication cannot run, with the fix (the
   *     setting or the statement to run)
   * @throws SQLException when the database fails otherwise
   */
  static List<String> run(Connection c, String publication, Collection<Entity> entities) throws SQLException {
    return run(c, publication, entities, List.of());
  }

  /**
   * The same, also checking the tables of {@code channels}' records (their entities must be among {@code entities}).
   *
   * @return warnings, each {@code X_LIVE_REPLICA_IDENTITY: cause Fix: fix}
   * @throws ReplicationException ({@code X_REPLICATION_FAILED}) when replication cannot run
   * @throws SQLException when the database fails otherwise
   */
  static List<String> run(Connection c, String publication, Collection<Entity> entities,
      Collection<Channel> channels) throws SQLException {
    checkWalLevel(c);
    ensurePublication(c, publication, entities);
    List<String> warnings = new ArrayList<>();
    Map<String, String> identities = new HashMap<>();
    for (Entity e : entities) {
      identities.put(e.qualifiedTable(), checkTable(c, e, warnings));
    }
    for (Channel ch : channels) {
      for (Channel.Records r : ch.records()) {
        // A channel's entities are among entities (the caller's contract), so each table was read above.
        checkRecords(ch, r, Objects.requireNonNull(identities.get(r.entity().qualifiedTable())), warnings);
      }
    }
    return warnings;
  }

  /**
   * Warns when a records channel's param columns are not all key columns and its table's identity is not FULL: a
   * delete, or an update that moves a row to other params, then reaches the nodes without the old row's params, and
   * each one costs every topic of the channel a {@code gap}.
   */
  private static void checkRecords(Channel ch, Channel.Records r, String identity, List<String> warnings) {
    Entity e = r.entity();
    if ("f".equals(identity) || e.ref().key().containsAll(r.paramColumns())) {
      return;
    }
    warnings.add(ErrorCode.X_LIVE_REPLICA_IDENTITY.name() + ": table " + e.qualifiedTable() + " carries records "
        + "channel '" + ch.name() + "' by columns " + r.paramColumns() + ", which are not all key columns, and its "
        + "replica identity is " + identityName(identity) + ", so its deletes and the updates that move a row to "
        + "other params reach Runnel without the old row's params: each sends a gap to every topic of the channel. "
        + "Fix: ALTER TABLE " + quoted(e) + " REPLICA IDENTITY FULL;");
  }

  private static String identityName(String identity) {
    return switch (identity) {
      case "n" -> "NOTHING";
      case "i" -> "USING INDEX";
      default -> "DEFAULT";
    };
  }

  private static void checkWalLevel(Connection c) throws SQLException {
    String level = one(c, "SHOW wal_level");
    if (!"logical".equals(level)) {
      throw new ReplicationException("wal_level is '" + level + "'; logical decoding needs 'logical'.",
          "Run ALTER SYSTEM SET wal_level = logical; then restart PostgreSQL (a reload is not enough).");
    }
  }

  private static void ensurePublication(Connection c, String publication, Collection<Entity> entities)
      throws SQLException {
    Boolean allTables = null;
    try (PreparedStatement s = c.prepareStatement("SELECT puballtables FROM pg_publication WHERE pubname = ?")) {
      s.setString(1, publication);
      try (ResultSet r = s.executeQuery()) {
        if (r.next()) {
          allTables = r.getBoolean(1);
        }
      }
    }
    List<String> tables = new ArrayList<>();
    for (Entity e : entities) {
      String t = quoted(e);
      if (!tables.contains(t)) {
        tables.add(t);
      }
    }
    if (allTables == null) {
      String sql = "CREATE PUBLICATION " + quote(publication) + (tables.isEmpty() ? "" : " FOR TABLE "
          + String.join(", ", tables));
      execute(c, sql, "create the publication");
      return;
    }
    if (allTables) {
      return;
    }
    Set<String> present = new HashSet<>();
    try (PreparedStatement s = c.prepareStatement(
        "SELECT schemaname, tablename FROM pg_publication_tables WHERE pubname = ?")) {
      s.setString(1, publication);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          present.add(r.getString(1) + "." + r.getString(2));
        }
      }
    }
    for (Entity e : entities) {
      if (!present.contains(e.qualifiedTable())) {
        execute(c, "ALTER PUBLICATION " + quote(publication) + " ADD TABLE " + quoted(e),
            "add a table to the publication");
        present.add(e.qualifiedTable());
      }
    }
  }

  /** Checks {@code e}'s table; returns its replica identity as {@code pg_class.relreplident} spells it. */
  private static String checkTable(Connection c, Entity e, List<String> warnings) throws SQLException {
    String identity;
    boolean primaryKey;
    Set<String> columns = new HashSet<>();
    try (PreparedStatement s = c.prepareStatement("""
        SELECT c.relreplident, EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary)
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = ? AND c.relname = ?""")) {
      s.setString(1, e.schema());
      s.setString(2, e.table());
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          throw new ReplicationException("Entity '" + e.name() + "' is declared on table " + e.qualifiedTable()
              + ", which does not exist.",
              "Create the table (run the app's migrations) or fix .table(...) on the entity.");
        }
        identity = r.getString(1);
        primaryKey = r.getBoolean(2);
      }
    }
    try (PreparedStatement s = c.prepareStatement("""
        SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = ? AND c.relname = ? AND a.attnum > 0 AND NOT a.attisdropped""")) {
      s.setString(1, e.schema());
      s.setString(2, e.table());
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          columns.add(r.getString(1));
        }
      }
    }
    for (Column col : e.ref().columns()) {
      if (!columns.contains(col.name())) {
        throw new ReplicationException("Entity '" + e.name() + "' declares column '" + col.name() + "', which table "
            + e.qualifiedTable() + " lacks.", "Add the column to the table, or remove it from the entity's columns.");
      }
    }
    if ("n".equals(identity) || ("d".equals(identity) && !primaryKey)) {
      warnings.add(ErrorCode.X_LIVE_REPLICA_IDENTITY.name() + ": table " + e.qualifiedTable() + " has replica identity "
          + ("n".equals(identity) ? "NOTHING" : "DEFAULT without a primary key")
          + ", so its updates and deletes reach Runnel without the old row's key. Fix: ALTER TABLE " + quoted(e)
          + " REPLICA IDENTITY FULL; (or give it a primary key).");
    }
    return identity;
  }

  private static void execute(Connection c, String sql, String what) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw refused(e, sql + ";", what);
    }
  }

  private static SQLException refused(SQLException e, String sql, String what) {
    if ("42501".equals(e.getSQLState())) {
      throw new ReplicationException("The database user may not " + what + ": " + e.getMessage(),
          "Run as an owner or superuser: " + sql + " (or grant the replicator's user the right to).", e);
    }
    if ("42P01".equals(e.getSQLState())) {
      throw new ReplicationException("Could not " + what + ": " + e.getMessage(),
          "Create the missing table (run the app's migrations), then restart.", e);
    }
    return e;
  }

  private static String one(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getString(1);
    }
  }

  private static String quoted(Entity e) {
    return quote(e.schema()) + "." + quote(e.table());
  }

  private static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }
}
