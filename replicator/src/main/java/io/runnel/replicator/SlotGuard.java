package io.runnel.replicator;

import io.runnel.protocol.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.jspecify.annotations.Nullable;

/**
 * Finds the replication slot a replicator streams from, and tells when it is not the slot that was streamed before
 * ({@code docs/replicator.md}, "Slot loss").
 *
 * <p>Design: a slot carries no identity PostgreSQL shows, so the replicator keeps one beside it, in
 * {@code runnel.replication_slots} (one row per slot name): the position {@code pg_create_logical_replication_slot}
 * returned when a replicator created the slot, the producer that last streamed it and the last commit it published.
 * The slot is the same one, continuing, only when it exists, is not invalidated, and (when this process streamed
 * it last) has not moved past what this process confirmed: only the holder of the slot's lock confirms, so a slot
 * ahead of that was advanced or made again by someone else. A slot behind what was published is the same WAL read
 * again (PostgreSQL keeps a slot's confirmed position on disk only at checkpoints, so a crash moves it back) and
 * its changes arrive again with their identical LSNs.
 *
 * <p>Invariant: whenever the WAL between the last position published and the slot's start may not have been
 * decoded, {@link #open} returns a {@link Loss}, and the replicator starts a new producer, so every consumer sees
 * a gap; it never returns a slot that skipped WAL as the same slot.
 *
 * <p>Runs on the replicator's lock connection, while it holds the slot's advisory lock, so two replicators of one
 * slot never run it at once; a slot still held by a WAL sender (a stream of the previous holder that has not ended
 * yet) is not judged until it is released, since that stream may still be confirming.
 */
final class SlotGuard {

  /**
   * The state table's DDL, also printed in {@code docs/replicator.md} for databases where the replicator may not create
   * it.
   */
  static final String DDL = """
      CREATE SCHEMA IF NOT EXISTS runnel;
      CREATE TABLE IF NOT EXISTS runnel.replication_slots (
        slot_name     text        PRIMARY KEY,
        created_lsn   pg_lsn,
        producer      text        NOT NULL,
        published_lsn pg_lsn      NOT NULL,
        updated_at    timestamptz NOT NULL DEFAULT now()
      );
      """;

  /**
   * What this process knows of the slot from its own streams.
   *
   * @param createdAt the identity of the slot this process streamed last (its creation position), or null when it
   *     streamed none or adopted a slot of unknown creation
   * @param confirmed the last position this process confirmed to the slot, or null before its first stream
   * @param producer the producer id this process publishes under
   */
  record Memory(@Nullable Lsn createdAt, @Nullable Lsn confirmed, String producer) {}

  /**
   * The WAL between {@code from} and {@code to} may never have been decoded.
   *
   * @param what what happened to the slot, a sentence fragment ("was dropped", "was invalidated (wal_removed)")
   * @param from the last position known to have been published, or {@link Lsn#ZERO} when unknown
   * @param to the new slot's start: everything from here on is streamed
   */
  record Loss(String what, Lsn from, Lsn to) {}

  /**
   * The slot to stream.
   *
   * @param start the position to stream from (the slot's confirmed position)
   * @param createdAt the slot's identity, its creation position, or null for a slot Runnel did not create
   * @param loss what may be missing, or null when the slot continues
   */
  record Opened(Lsn start, @Nullable Lsn createdAt, @Nullable Loss loss) {}

  private record Row(@Nullable Lsn createdAt, String producer, Lsn published) {}

  private record Found(String plugin, String database, String type, @Nullable String walStatus,
      @Nullable Lsn confirmed, @Nullable Lsn restart, @Nullable String invalidation, @Nullable Integer activePid) {

    /** Why PostgreSQL invalidated the slot, or null while it is usable. */
    @Nullable String invalidated() {
      if (invalidation != null) {
        return invalidation;
      }
      if ("lost".equals(walStatus)) {
        return "wal_status lost";
      }
      return restart == null ? "no restart_lsn" : null;
    }
  }

  private SlotGuard() {}

  /**
   * Finds {@code slot} (creating it when missing, and again when invalidated) and says whether it continues what
   * {@code memory} and the state row say was streamed. Creates the state table when missing.
   *
   * @throws ReplicationException ({@code X_REPLICATION_FAILED}) for a slot of another plugin or database, or when
   *     the user may not create the slot or the state table
   * @throws SQLException when the database fails otherwise
   */
  static Opened open(Connection c, String slot, Memory memory) throws SQLException {
    ensureTable(c);
    Row row = row(c, slot);
    Found found = find(c, slot);
    String invalidated = null;
    if (found != null) {
      check(c, slot, found);
      if (found.activePid() != null) {
        // Held by a stream that has not ended yet (this replicator's last one, or the previous lock holder's, still
        // confirming): its position is still moving, so it is read again once that stream is gone.
        throw new ReplicationException("Slot '" + slot + "' is still in use by the WAL sender of process "
            + found.activePid() + ".", "Nothing to do: the replicator tries again once that stream has ended.");
      }
      invalidated = found.invalidated();
      if (invalidated == null) {
        Lsn start = found.confirmed() == null ? Lsn.ZERO : found.confirmed();
        Lsn createdAt = row == null ? null : row.createdAt();
        boolean streamedLastHere = row != null && row.producer().equals(memory.producer());
        if (streamedLastHere && memory.confirmed() != null && start.compareTo(memory.confirmed()) > 0) {
          return new Opened(start, createdAt, new Loss("moved from " + memory.confirmed() + " to " + start
              + " while no replicator of this slot confirmed it: it was advanced, or dropped and created again, "
              + "outside Runnel", memory.confirmed(), start));
        }
        return new Opened(start, createdAt, null);
      }
      drop(c, slot);
    }
    Lsn created = create(c, slot);
    Lsn from = max(row == null ? null : row.published(), memory.confirmed());
    if (invalidated != null) {
      return new Opened(created, created, new Loss("was invalidated by PostgreSQL (" + invalidated + ")", from,
          created));
    }
    if (row != null || memory.confirmed() != null) {
      return new Opened(created, created, new Loss("was missing (dropped)", from, created));
    }
    return new Opened(created, created, null);
  }

  /**
   * Records that {@code producer} streams {@code slot} (of identity {@code createdAt}) and published through
   * {@code published}.
   *
   * @throws SQLException when the database refuses
   */
  static void record(Connection c, String slot, @Nullable Lsn createdAt, String producer, Lsn published)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement("""
        INSERT INTO runnel.replication_slots (slot_name, created_lsn, producer, published_lsn, updated_at)
        VALUES (?, ?::pg_lsn, ?, ?::pg_lsn, now())
        ON CONFLICT (slot_name) DO UPDATE SET created_lsn = excluded.created_lsn, producer = excluded.producer,
          published_lsn = excluded.published_lsn, updated_at = excluded.updated_at""")) {
      s.setString(1, slot);
      s.setString(2, createdAt == null ? null : createdAt.toString());
      s.setString(3, producer);
      s.setString(4, published.toString());
      s.executeUpdate();
    }
  }

  /**
   * Moves the state row's published position of {@code slot} to {@code published} (never back).
   *
   * @throws SQLException when the database refuses
   */
  static void published(Connection c, String slot, Lsn published) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("""
        UPDATE runnel.replication_slots SET published_lsn = ?::pg_lsn, updated_at = now()
        WHERE slot_name = ? AND published_lsn < ?::pg_lsn""")) {
      s.setString(1, published.toString());
      s.setString(2, slot);
      s.setString(3, published.toString());
      s.setQueryTimeout(5);
      s.executeUpdate();
    }
  }

  private static void ensureTable(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT to_regclass('runnel.replication_slots') IS NOT NULL")) {
      r.next();
      if (r.getBoolean(1)) {
        return;
      }
    }
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.execute("SELECT pg_advisory_xact_lock(hashtext('runnel.replication_slots'))");
      for (String statement : DDL.split(";")) {
        if (!statement.isBlank()) {
          s.execute(statement);
        }
      }
      c.commit();
    } catch (SQLException e) {
      c.rollback();
      if ("42501".equals(e.getSQLState())) {
        throw new ReplicationException("The database user may not create the replicator's state table "
            + "runnel.replication_slots: " + e.getMessage(), "Create it as an owner (the statements are in "
            + "docs/replicator.md, \"Slot loss\") and grant the replicator's user SELECT, INSERT and UPDATE on it.", e);
      }
      throw e;
    } finally {
      c.setAutoCommit(autoCommit);
    }
  }

  private static @Nullable Row row(Connection c, String slot) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "SELECT created_lsn::text, producer, published_lsn::text FROM runnel.replication_slots WHERE slot_name = ?")) {
      s.setString(1, slot);
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          return null;
        }
        String created = r.getString(1);
        return new Row(created == null ? null : Lsn.parse(created), r.getString(2), Lsn.parse(r.getString(3)));
      }
    }
  }

  private static @Nullable Found find(Connection c, String slot) throws SQLException {
    // invalidation_reason exists from PostgreSQL 17; 15 and 16 tell an invalidated slot by wal_status alone.
    String invalidation = serverVersion(c) >= 170000 ? "invalidation_reason" : "NULL::text";
    try (PreparedStatement s = c.prepareStatement("SELECT plugin, database, slot_type, wal_status, "
        + "confirmed_flush_lsn::text, restart_lsn::text, " + invalidation + ", active_pid"
        + " FROM pg_replication_slots WHERE slot_name = ?")) {
      s.setString(1, slot);
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          return null;
        }
        int pid = r.getInt(8);
        Integer activePid = r.wasNull() ? null : pid;
        return new Found(r.getString(1), r.getString(2), r.getString(3), r.getString(4), lsn(r.getString(5)),
            lsn(r.getString(6)), r.getString(7), activePid);
      }
    }
  }

  private static void check(Connection c, String slot, Found found) throws SQLException {
    if (!"logical".equals(found.type()) || !"pgoutput".equals(found.plugin())) {
      throw new ReplicationException("Slot '" + slot + "' exists but is not a pgoutput logical slot (plugin "
          + found.plugin() + ").", "Drop it (SELECT pg_drop_replication_slot('" + slot + "')) or set "
          + "REPLICATION_SLOT to another name.");
    }
    String current;
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT current_database()")) {
      r.next();
      current = r.getString(1);
    }
    if (!current.equals(found.database())) {
      throw new ReplicationException("Slot '" + slot + "' belongs to database '" + found.database() + "', not '"
          + current + "'.", "Set REPLICATION_SLOT to a name of its own for this database.");
    }
  }

  private static Lsn create(Connection c, String slot) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "SELECT lsn::text FROM pg_create_logical_replication_slot(?, 'pgoutput')")) {
      s.setString(1, slot);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return Lsn.parse(r.getString(1));
      }
    } catch (SQLException e) {
      if ("42501".equals(e.getSQLState())) {
        throw new ReplicationException("The database user may not create replication slot '" + slot + "': "
            + e.getMessage(), "Run as a user with the REPLICATION attribute (ALTER ROLE ... REPLICATION), or create "
            + "it: SELECT pg_create_logical_replication_slot('" + slot + "', 'pgoutput');", e);
      }
      throw e;
    }
  }

  private static void drop(Connection c, String slot) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT pg_drop_replication_slot(?)")) {
      s.setString(1, slot);
      s.execute();
    } catch (SQLException e) {
      if (!"42704".equals(e.getSQLState())) { // undefined_object: someone dropped it meanwhile
        throw e;
      }
    }
  }

  private static int serverVersion(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SHOW server_version_num")) {
      r.next();
      return Integer.parseInt(r.getString(1));
    }
  }

  private static @Nullable Lsn lsn(@Nullable String text) {
    return text == null ? null : Lsn.parse(text);
  }

  private static Lsn max(@Nullable Lsn a, @Nullable Lsn b) {
    if (a == null) {
      return b == null ? Lsn.ZERO : b;
    }
    return b == null || a.compareTo(b) >= 0 ? a : b;
  }
}
