package io.runnel.sync.auth;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * {@link TicketStore#postgres}: claimed ticket ids in {@code runnel.tickets}, shared by every node on the database.
 *
 * <p>A claim is one {@code INSERT ... ON CONFLICT (id) DO NOTHING}: the primary key lets exactly one insert of an id
 * win, whichever node makes it, so a ticket opens one socket across all nodes. A row is kept until its ticket has
 * expired and a minute more (for clocks of nodes that disagree a little); then a sweep, run by a claim at most once a
 * minute, deletes it. {@link Tickets#redeem} refuses an expired ticket before it claims, so a swept id is never
 * claimable again.
 */
final class PostgresTicketStore implements TicketStore {

  /** The table's DDL, also printed in {@code docs/deploy.md} for databases where the node may not create it. */
  static final String DDL = """
      CREATE SCHEMA IF NOT EXISTS runnel;
      CREATE TABLE IF NOT EXISTS runnel.tickets (
        id         text   PRIMARY KEY,
        expires_at bigint NOT NULL
      );
      CREATE INDEX IF NOT EXISTS tickets_expires_at ON runnel.tickets (expires_at);
      """;

  /** How long past its expiry a claim is kept, and how often claims sweep, in ms. */
  static final long KEEP_MS = 60_000;

  private final DataSource dataSource;
  private final Clock clock;
  private final AtomicLong nextSweep;

  private PostgresTicketStore(DataSource dataSource, Clock clock) {
    this.dataSource = dataSource;
    this.clock = clock;
    this.nextSweep = new AtomicLong(clock.millis() + KEEP_MS);
  }

  /** Creates the table when missing (under an advisory lock, so nodes starting together do not race). */
  static PostgresTicketStore create(DataSource dataSource, Clock clock) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      boolean auto = c.getAutoCommit();
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.execute("SELECT pg_advisory_xact_lock(hashtext('runnel.tickets'))");
        for (String statement : DDL.split(";")) {
          if (!statement.isBlank()) {
            s.execute(statement);
          }
        }
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(auto);
      }
    }
    return new PostgresTicketStore(dataSource, clock);
  }

  @Override
  public boolean claim(String id, long expiresAt) throws SQLException {
    long now = clock.millis();
    try (Connection c = dataSource.getConnection()) {
      boolean claimed;
      try (PreparedStatement s = c.prepareStatement(
          "INSERT INTO runnel.tickets (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING")) {
        s.setString(1, id);
        s.setLong(2, expiresAt);
        claimed = s.executeUpdate() == 1;
      }
      if (!c.getAutoCommit()) {
        c.commit();
      }
      long due = nextSweep.get();
      if (now >= due && nextSweep.compareAndSet(due, now + KEEP_MS)) {
        try {
          sweep(c, now);
          if (!c.getAutoCommit()) {
            c.commit();
          }
        } catch (SQLException e) {
          // The claim stands; the rows are swept by a later claim.
          System.getLogger(PostgresTicketStore.class.getName()).log(System.Logger.Level.WARNING,
              "Sweeping runnel.tickets failed (retried a minute later): SQLState " + e.getSQLState());
        }
      }
      return claimed;
    }
  }

  /** Deletes the claims whose tickets expired over {@link #KEEP_MS} before {@code now}; returns how many. */
  int sweep(Connection c, long now) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("DELETE FROM runnel.tickets WHERE expires_at < ?")) {
      s.setLong(1, now - KEEP_MS);
      return s.executeUpdate();
    }
  }
}
