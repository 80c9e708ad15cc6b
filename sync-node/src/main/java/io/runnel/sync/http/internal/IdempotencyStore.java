package io.runnel.sync.http.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The answers stored under idempotency keys, in {@code runnel.idempotency}: one row per (actor, key) with the hash
 * of the input it answered, the status and the body. A row older than the retention is treated as absent (a new
 * call under its key runs again and overwrites it) and is deleted by {@link #sweep}.
 *
 * <p>The node creates the schema and table on start when they are missing (under an advisory lock, so two nodes
 * starting together do not race). Times come from the node's clock, not the database's.
 */
final class IdempotencyStore {

  /** The table's DDL, also printed in {@code docs/writes.md} for databases where the node may not create it. */
  static final String DDL = """
      CREATE SCHEMA IF NOT EXISTS runnel;
      CREATE TABLE IF NOT EXISTS runnel.idempotency (
        actor      text        NOT NULL,
        key        text        NOT NULL,
        input_hash text        NOT NULL,
        mutator    text        NOT NULL,
        status     smallint    NOT NULL,
        body       text        NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (actor, key)
      );
      CREATE INDEX IF NOT EXISTS idempotency_created_at ON runnel.idempotency (created_at);
      """;

  /** A stored answer. */
  record Stored(String inputHash, int status, String body) {}

  private static final int SWEEP_BATCH = 5_000;

  private final DataSource dataSource;

  IdempotencyStore(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Creates the schema and table when missing. @throws SQLException when the database refuses */
  void create() throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      inTransaction(c, () -> {
        try (Statement s = c.createStatement()) {
          s.execute("SELECT pg_advisory_xact_lock(hashtext('runnel.idempotency'))");
          for (String statement : DDL.split(";")) {
            if (!statement.isBlank()) {
              s.execute(statement);
            }
          }
        }
      });
    }
  }

  /** The answer stored under (actor, key) and younger than {@code cutoff}, or null. */
  @Nullable Stored find(Connection c, String actor, String key, Instant cutoff) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "SELECT input_hash, status, body FROM runnel.idempotency WHERE actor = ? AND key = ? AND created_at > ?")) {
      s.setString(1, actor);
      s.setString(2, key);
      s.setObject(3, time(cutoff));
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? new Stored(r.getString(1), r.getInt(2), r.getString(3)) : null;
      }
    }
  }

  /**
   * Stores an answer in {@code c}'s transaction, over an expired row under the same key if one is left.
   *
   * @return false when an unexpired answer is already stored under the key (the caller answers that one)
   */
  boolean insert(Connection c, String actor, String key, String inputHash, String mutator, int status, String body,
      Instant now, Instant cutoff) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("""
        INSERT INTO runnel.idempotency (actor, key, input_hash, mutator, status, body, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (actor, key) DO UPDATE SET input_hash = EXCLUDED.input_hash, mutator = EXCLUDED.mutator,
          status = EXCLUDED.status, body = EXCLUDED.body, created_at = EXCLUDED.created_at
        WHERE runnel.idempotency.created_at <= ?""")) {
      s.setString(1, actor);
      s.setString(2, key);
      s.setString(3, inputHash);
      s.setString(4, mutator);
      s.setInt(5, status);
      s.setString(6, body);
      s.setObject(7, time(now));
      s.setObject(8, time(cutoff));
      return s.executeUpdate() == 1;
    }
  }

  /**
   * Replaces the body stored under (actor, key) with the final one (which names the LSN, known only after the
   * commit), in a transaction of its own that does not wait for the WAL flush: should it be lost in a crash, a
   * replay answers the stored body with the LSN read at the replay, which is later and still valid.
   */
  void complete(Connection c, String actor, String key, String body) throws SQLException {
    inTransaction(c, () -> {
      try (Statement set = c.createStatement();
          PreparedStatement s = c.prepareStatement(
              "UPDATE runnel.idempotency SET body = ? WHERE actor = ? AND key = ?")) {
        set.execute("SET LOCAL synchronous_commit = off");
        s.setString(1, body);
        s.setString(2, actor);
        s.setString(3, key);
        s.executeUpdate();
      }
    });
  }

  /** SQL work on a connection, inside the transaction {@link #inTransaction} opens. */
  @FunctionalInterface
  private interface Work {
    void run() throws SQLException;
  }

  /**
   * Runs {@code work} in one transaction on {@code c}: committed, or rolled back when it throws; autocommit restored.
   */
  private static void inTransaction(Connection c, Work work) throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    try {
      work.run();
      c.commit();
    } catch (SQLException | RuntimeException | Error e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(autoCommit);
    }
  }

  /**
   * Deletes the answers stored before {@code cutoff}, in batches.
   *
   * @return how many rows were deleted
   */
  long sweep(Instant cutoff) throws SQLException {
    long deleted = 0;
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      try (PreparedStatement s = c.prepareStatement("""
          DELETE FROM runnel.idempotency WHERE ctid IN (
            SELECT ctid FROM runnel.idempotency WHERE created_at <= ? LIMIT ?)""")) {
        int n;
        do {
          s.setObject(1, time(cutoff));
          s.setInt(2, SWEEP_BATCH);
          n = s.executeUpdate();
          deleted += n;
        } while (n == SWEEP_BATCH);
      }
    }
    return deleted;
  }

  private static OffsetDateTime time(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }
}
