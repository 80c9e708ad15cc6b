package io.runnel.replicator;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How much WAL a slot holds back and how much more PostgreSQL lets it hold before invalidating it, as
 * {@code pg_replication_slots} reports it (PostgreSQL documentation, "pg_replication_slots": {@code wal_status},
 * {@code safe_wal_size}).
 *
 * @param walStatus {@code reserved}, {@code extended}, {@code unreserved} or {@code lost}
 * @param retainedBytes bytes of WAL from the slot's {@code restart_lsn} to the server's current position (0 when
 *     the slot has no {@code restart_lsn})
 * @param safeWalBytes bytes that can still be written before the slot is at risk of invalidation, or null when
 *     {@code max_slot_wal_keep_size} is {@code -1} (unlimited: the disk is the only bound)
 */
public record WalRetention(String walStatus, long retainedBytes, @Nullable Long safeWalBytes) {

  /** The values {@code wal_status} takes, in the order PostgreSQL's documentation lists them. */
  public static final List<String> STATUSES = List.of("reserved", "extended", "unreserved", "lost");

  /** Whether fewer than {@code minBytes} can still be written before PostgreSQL may invalidate the slot. */
  public boolean below(long minBytes) {
    return "lost".equals(walStatus) || (safeWalBytes != null && safeWalBytes < minBytes);
  }

  /**
   * Reads {@code slot}'s retention on {@code c} (at most 5 s).
   *
   * @return the retention, or null when the slot does not exist
   * @throws SQLException when the database fails
   */
  static @Nullable WalRetention read(Connection c, String slot) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("""
        SELECT wal_status, COALESCE(pg_current_wal_lsn() - restart_lsn, 0)::int8, safe_wal_size
        FROM pg_replication_slots WHERE slot_name = ?""")) {
      s.setString(1, slot);
      s.setQueryTimeout(5);
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          return null;
        }
        long safe = r.getLong(3);
        boolean unlimited = r.wasNull();
        String status = r.getString(1);
        return new WalRetention(status == null ? "lost" : status, Math.max(0, r.getLong(2)), unlimited ? null : safe);
      }
    }
  }

  /**
   * {@code max_slot_wal_keep_size} in bytes, or -1 when unlimited.
   *
   * @throws SQLException when the database fails
   */
  static long maxSlotWalKeepBytes(Connection c) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "SELECT setting::int8, unit FROM pg_settings WHERE name = 'max_slot_wal_keep_size'");
        ResultSet r = s.executeQuery()) {
      if (!r.next()) {
        return -1;
      }
      long v = r.getLong(1);
      if (v < 0) {
        return -1;
      }
      return "MB".equals(r.getString(2)) ? v * 1024 * 1024 : v;
    }
  }
}
