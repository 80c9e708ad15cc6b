package io.runnel.dsl.server;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A parameterized SQL statement: JDBC {@code ?} placeholders, each with its cast written in the SQL
 * ({@code ?::int4}), and the parameters as PostgreSQL input text. Bind each with {@code setObject(i, text,
 * Types.OTHER)} or {@code setString}; a value is never interpolated into the SQL.
 *
 * @param sql the SQL text
 * @param parameters the parameters in placeholder order
 */
public record SqlStatement(String sql, List<Parameter> parameters) {

  /** Copies the parameters. */
  public SqlStatement {
    Objects.requireNonNull(sql, "sql");
    parameters = List.copyOf(parameters);
  }

  /**
   * One parameter: PostgreSQL input text for {@code type}, or null for SQL NULL.
   *
   * @param text the value as PostgreSQL input text, or null
   * @param type the PostgreSQL type it is cast to
   */
  public record Parameter(@Nullable String text, String type) {
    /** Checks the type is given. */
    public Parameter {
      Objects.requireNonNull(type, "type");
    }
  }
}
