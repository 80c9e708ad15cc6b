package io.runnel.dsl.server;

import io.runnel.dsl.Actor;
import java.sql.Connection;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * What a mutator's server function gets: the actor and a JDBC connection inside the call's one transaction (the
 * write digest message is already emitted on it, the idempotency row follows it, the node commits). Server-only.
 */
public interface MutationContext {

  /** Who is calling. */
  Actor actor();

  /** The transaction's connection; do not commit, roll back or close it. */
  Connection connection();

  /**
   * Runs one parameterized statement ({@code ?} placeholders, values bound with {@code setObject}; a null value is
   * SQL NULL).
   *
   * @return the update count
   * @throws SQLException as the database refuses it
   */
  int update(String sql, @Nullable Object... parameters) throws SQLException;
}
