package io.runnel.sync.live.internal;

import io.runnel.dsl.Column;
import io.runnel.dsl.Row;
import io.runnel.dsl.Select;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.SqlRenderer;
import io.runnel.dsl.server.SqlStatement;
import io.runnel.protocol.Lsn;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGStatement;

/**
 * Runs window reads: one REPEATABLE READ, read-only transaction that first takes {@code pg_current_snapshot()} and
 * {@code pg_current_wal_insert_lsn()}, then runs the window's SQL, so the rows and the snapshot belong together
 * (invariant 3b). Values are read as PostgreSQL's text, the same text {@code pgoutput} carries.
 */
final class WindowReader {

  private final DataSource dataSource;
  private final Duration timeout;
  private final AtomicLong reads = new AtomicLong();
  private final LiveCounters counters;

  WindowReader(DataSource dataSource, Duration timeout, LiveCounters counters) {
    this.dataSource = dataSource;
    this.timeout = timeout;
    this.counters = counters;
  }

  /** The node's counters. */
  LiveCounters counters() {
    return counters;
  }

  /** Reads so far. */
  long reads() {
    return reads.get();
  }

  /**
   * Reads up to {@code capacity} rows of {@code select} (whose filter already pins the tenant).
   *
   * @throws RunnelException ({@code X_TIMEOUT}) when the read runs past its deadline
   * @throws SQLException when the database fails otherwise
   */
  WindowRead read(Entity entity, Select select, int capacity) throws SQLException {
    reads.incrementAndGet();
    return run(entity, select, capacity, false);
  }

  /**
   * Reads {@code select} once, for {@code GET /v1/query}: rows up to its limit, and as position the WAL flush
   * position taken <em>before</em> the snapshot. Every transaction the snapshot misses commits at or after that
   * position (except one caught between its commit record's flush and its end, a window of microseconds), so a
   * client that stamps the rows with it never drops a later patch as older.
   *
   * @throws RunnelException ({@code X_TIMEOUT}) when the read runs past its deadline
   * @throws SQLException when the database fails otherwise
   */
  WindowRead readOnce(Entity entity, Select select) throws SQLException {
    return run(entity, select, select.limit(), true);
  }

  /**
   * Whether {@code select} finds a row: a tenancy probe ({@link ResolvedQuery#otherTenant()}), one read-only
   * statement under the read deadline, not counted as a window read.
   *
   * @throws RunnelException ({@code X_TIMEOUT}) when the probe runs past its deadline
   * @throws SQLException when the database fails otherwise
   */
  boolean finds(Entity entity, Select select) throws SQLException {
    SqlStatement sql = SqlRenderer.render(entity, select, null);
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        try (Statement s = c.createStatement()) {
          s.execute("SET LOCAL statement_timeout = " + Math.max(1, timeout.toMillis()));
        }
        boolean found;
        try (PreparedStatement s = c.prepareStatement(sql.sql())) {
          bind(s, sql);
          try (ResultSet r = s.executeQuery()) {
            found = r.next();
          }
        }
        c.commit();
        return found;
      } catch (SQLException e) {
        c.rollback();
        throw timeoutOr(e, entity);
      } finally {
        c.setAutoCommit(autoCommit);
      }
    }
  }

  private SQLException timeoutOr(SQLException e, Entity entity) {
    if ("57014".equals(e.getSQLState())) {
      throw new LiveQueryException(ErrorCode.X_TIMEOUT,
          "Reading " + entity.name() + " took longer than " + timeout.toMillis() + " ms.",
          "Retry later; if it repeats, index the query's filter and order columns.");
    }
    return e;
  }

  private WindowRead run(Entity entity, Select select, int capacity, boolean positionBefore) throws SQLException {
    SqlStatement sql = SqlRenderer.render(entity, select.limit(capacity), null);
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      int isolation = c.getTransactionIsolation();
      Lsn before = null;
      if (positionBefore) {
        c.setAutoCommit(true);
        try (Statement s = c.createStatement();
            ResultSet r = s.executeQuery("SELECT pg_current_wal_flush_lsn()::text")) {
          r.next();
          before = Lsn.parse(r.getString(1));
        }
      }
      c.setAutoCommit(false);
      c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      try {
        try (Statement s = c.createStatement()) {
          s.execute("SET LOCAL statement_timeout = " + Math.max(1, timeout.toMillis()));
        }
        XidSnapshot snapshot;
        Lsn position;
        try (Statement s = c.createStatement();
            ResultSet r = s.executeQuery("SELECT pg_current_snapshot()::text, pg_current_wal_insert_lsn()::text")) {
          r.next();
          snapshot = XidSnapshot.parse(r.getString(1));
          position = Lsn.parse(r.getString(2));
        }
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql.sql())) {
          // Never server-prepared, so results come as PostgreSQL's text (what pgoutput carries), not pgjdbc's
          // rendering of binary values.
          s.unwrap(PGStatement.class).setPrepareThreshold(0);
          bind(s, sql);
          try (ResultSet r = s.executeQuery()) {
            List<Column> columns = entity.ref().columns();
            while (r.next()) {
              Map<String, @Nullable String> text = new LinkedHashMap<>();
              for (int i = 0; i < columns.size(); i++) {
                text.put(columns.get(i).name(), r.getString(i + 1));
              }
              rows.add(entity.ref().rowFromText(text));
            }
          }
        }
        c.commit();
        return new WindowRead(rows, rows.size() < capacity, snapshot, before != null ? before : position);
      } catch (SQLException e) {
        c.rollback();
        throw timeoutOr(e, entity);
      } finally {
        c.setAutoCommit(autoCommit);
        c.setTransactionIsolation(isolation);
      }
    }
  }

  static void bind(PreparedStatement s, SqlStatement sql) throws SQLException {
    for (int i = 0; i < sql.parameters().size(); i++) {
      SqlStatement.Parameter p = sql.parameters().get(i);
      if (p.text() == null) {
        s.setNull(i + 1, Types.OTHER);
      } else {
        s.setObject(i + 1, p.text(), Types.OTHER);
      }
    }
  }
}
