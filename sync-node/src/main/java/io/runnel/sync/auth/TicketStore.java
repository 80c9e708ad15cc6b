package io.runnel.sync.auth;

import java.sql.SQLException;
import java.time.Clock;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Records that a ticket was used, so each is used once. In-memory by default; a shared store lets several nodes
 * honour one another's tickets.
 */
@FunctionalInterface
public interface TicketStore {

  /**
   * Claims ticket {@code id}, valid until {@code expiresAt} (epoch ms): true the first time, false after.
   *
   * @throws Exception when the store cannot be reached (the upgrade is refused with 503)
   */
  boolean claim(String id, long expiresAt) throws Exception;

  /** A store in this process's memory, forgetting tickets once they expire. */
  static TicketStore inMemory() {
    return new InMemoryTicketStore();
  }

  /**
   * A store in PostgreSQL's {@code runnel.tickets} (one row per claimed ticket id, claimed with
   * {@code INSERT ... ON CONFLICT DO NOTHING}, swept a minute after the ticket expired), so every node on the
   * database honours a ticket once whichever node issued it; creates the schema and table when missing.
   *
   * @param dataSource the database the nodes share
   * @param clock the node's clock, against which expired claims are swept
   * @throws SQLException when the table is missing and cannot be created (its DDL is in {@code docs/deploy.md})
   */
  static TicketStore postgres(DataSource dataSource, Clock clock) throws SQLException {
    return PostgresTicketStore.create(Objects.requireNonNull(dataSource, "dataSource"),
        Objects.requireNonNull(clock, "clock"));
  }
}
