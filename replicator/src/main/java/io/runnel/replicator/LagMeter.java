package io.runnel.replicator;

import io.runnel.protocol.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * How far the replicator is behind: in bytes, the server's WAL position minus the last position the slot confirmed;
 * in seconds, now minus the commit time of the oldest transaction that began arriving and is not yet confirmed. The
 * second is kept across streams, so while the bus refuses a change that every new stream receives again, the lag
 * keeps growing from its commit. Each probe also gives PostgreSQL's clock to the {@link ServerClock} the position
 * heartbeats read their time from.
 */
final class LagMeter {

  private final ServerClock serverClock;
  private volatile long bytes;
  /** The commit time (epoch ms) of the oldest transaction begun and not yet confirmed, or 0. */
  private volatile long oldestUnconfirmedCommitMillis;

  LagMeter(ServerClock serverClock) {
    this.serverClock = serverClock;
  }

  /** A transaction committed at {@code commitMillis} (epoch ms) began arriving. */
  void began(long commitMillis) {
    if (oldestUnconfirmedCommitMillis == 0) {
      oldestUnconfirmedCommitMillis = commitMillis;
    }
  }

  /** The slot confirmed a position: nothing that began before it waits any more. */
  void confirmed() {
    oldestUnconfirmedCommitMillis = 0;
  }

  /**
   * Reads the server's WAL position and clock on {@code c} (at most 5 s) against {@code confirmed}, the slot's last
   * confirmed position (null: none yet, no lag).
   *
   * @throws SQLException when the session fails or the read times out
   */
  void probe(Connection c, @Nullable Lsn confirmed) throws SQLException {
    // The clock is read before the insert position (a commit inserted between the two is then after the time) and
    // floored; PostgreSQL takes a commit's timestamp just before inserting its record, so a commit of the same
    // millisecond may still be behind the position: the time is good to a millisecond or so, for "as of" and lag.
    try (PreparedStatement s = c.prepareStatement("SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::int8,"
        + " pg_current_wal_lsn()::text, pg_current_wal_insert_lsn()::text")) {
      s.setQueryTimeout(5);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        Lsn current = Lsn.parse(r.getString(2));
        bytes = confirmed == null ? 0 : Math.max(0, current.value() - confirmed.value());
        serverClock.probed(Lsn.parse(r.getString(3)), r.getLong(1) - 1);
      }
    }
  }

  /**
   * A replicator that does not stream (a standby behind the lock's holder, or stopped) has no lag of its own: what it
   * did not confirm, the holder streams.
   */
  void forget() {
    bytes = 0;
    oldestUnconfirmedCommitMillis = 0;
  }

  /** The lag in bytes at the last probe. */
  long bytes() {
    return bytes;
  }

  /** The lag in seconds at {@code nowMillis} (epoch ms): 0 when nothing waits. */
  double seconds(long nowMillis) {
    long waiting = oldestUnconfirmedCommitMillis;
    return waiting > 0 ? Math.max(0, (nowMillis - waiting) / 1000.0) : 0;
  }
}
