package io.runnel.replicator;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Which replicator of a slot streams: the one holding the slot's session advisory lock,
 * {@code pg_try_advisory_lock(hashtext('runnel:replicator:' || slot))}, on a connection it keeps open while it streams
 * (PostgreSQL releases a session lock when its session ends, so a replicator that dies hands the slot over). The
 * others wait as standbys and try again ({@code docs/replicator.md}, "Lifecycle").
 */
final class LeaderLock {

  /** The lock key's prefix: the key is {@code hashtext(PREFIX || slot)}. */
  static final String PREFIX = "runnel:replicator:";

  private LeaderLock() {}

  /**
   * Takes the lock of {@code slot} on {@code c}'s session, without waiting.
   *
   * @return whether this session holds it now (false: another replicator streams)
   * @throws SQLException when the database fails
   */
  static boolean tryTake(Connection c, String slot) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT pg_try_advisory_lock(hashtext(?))")) {
      s.setString(1, PREFIX + slot);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getBoolean(1);
      }
    }
  }
}
