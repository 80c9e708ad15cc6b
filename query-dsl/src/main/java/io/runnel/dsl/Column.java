package io.runnel.dsl;

import io.runnel.wire.ErrorCode;
import java.util.Objects;

/**
 * A column of an entity: its name (as in the table) and its {@link ColumnType}.
 *
 * @param name the column name, {@code [A-Za-z_][A-Za-z0-9_]*}, at most 63 characters (PostgreSQL's NAMEDATALEN)
 * @param type its type
 */
public record Column(String name, ColumnType type) {

  /** @throws DeclarationException ({@code X_ENTITY_DECLARATION_INVALID}) when the name is not a plain identifier */
  public Column {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    if (!Names.isIdentifier(name)) {
      throw new DeclarationException(ErrorCode.X_ENTITY_DECLARATION_INVALID,
          "Column name '" + name + "' is not a plain identifier.",
          "Use letters, digits and underscores, starting with a letter or underscore, at most 63 characters.");
    }
  }
}
