package io.runnel.replicator;

import io.runnel.protocol.Lsn;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The WAL's page geometry ({@code wal_block_size}, {@code wal_segment_size}), needed to compare the positions the
 * walsender reports with {@code pg_current_wal_insert_lsn()}.
 *
 * <p>The walsender reports the end of the last record it read. When that end falls exactly on a page boundary,
 * PostgreSQL's insert position is already past the next page's header (24 bytes, or 40 on a segment's first page),
 * and no record can start inside that header; so {@link #recordStart} moves such a position past the header, which
 * claims nothing more about the WAL and lets a write's answer LSN be reached.
 *
 * @param blockSize the WAL page size in bytes, a power of two
 * @param segmentSize the WAL segment size in bytes, a power of two and a multiple of {@code blockSize}
 */
record WalLayout(int blockSize, long segmentSize) {

  /** {@code SizeOfXLogShortPHD}: the header of a page that does not start a segment. */
  static final int SHORT_PAGE_HEADER = 24;
  /** {@code SizeOfXLogLongPHD}: the header of a segment's first page. */
  static final int LONG_PAGE_HEADER = 40;

  /** Checks both sizes are powers of two and that pages tile segments. */
  WalLayout {
    if (Integer.bitCount(blockSize) != 1 || Long.bitCount(segmentSize) != 1 || segmentSize < blockSize) {
      throw new IllegalArgumentException("Not a WAL layout: blocks of " + blockSize + " bytes in segments of "
          + segmentSize);
    }
  }

  /**
   * The first position at or after {@code end} where a record can start: {@code end} itself, or past the page
   * header when {@code end} is a page's first byte.
   */
  Lsn recordStart(Lsn end) {
    long v = end.value();
    if (v == 0 || Long.remainderUnsigned(v, blockSize) != 0) {
      return end;
    }
    return new Lsn(v + (Long.remainderUnsigned(v, segmentSize) == 0 ? LONG_PAGE_HEADER : SHORT_PAGE_HEADER));
  }

  /**
   * The layout of the server {@code c} is connected to.
   *
   * @throws SQLException when the settings cannot be read
   */
  static WalLayout read(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(
        "SELECT current_setting('wal_block_size')::int, pg_size_bytes(current_setting('wal_segment_size'))")) {
      r.next();
      return new WalLayout(r.getInt(1), r.getLong(2));
    }
  }
}
