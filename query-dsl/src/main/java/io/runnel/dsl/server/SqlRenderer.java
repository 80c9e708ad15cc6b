package io.runnel.dsl.server;

import io.runnel.dsl.Column;
import io.runnel.dsl.DeclarationException;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Filter;
import io.runnel.dsl.Matcher;
import io.runnel.dsl.Order;
import io.runnel.dsl.Select;
import io.runnel.dsl.ValueInvalidException;
import io.runnel.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Renders a {@link Select} over an {@link Entity} as parameterized SQL: identifiers quoted, every value a
 * parameter with an explicit cast, text compared and ordered under {@code COLLATE "C"} (whatever the column's own
 * collation) so that the in-process {@link Matcher} agrees with the database, and NULLs placed explicitly.
 *
 * <p>Server-only: the browser never renders SQL.
 */
public final class SqlRenderer {

  private SqlRenderer() {}

  /**
   * {@code SELECT <record columns> FROM <table> WHERE <filter> [AND <tenant> = ?] ORDER BY … LIMIT n}.
   *
   * @param entity the entity, whose ref must be the select's
   * @param select the select
   * @param tenant the tenant value to pin (the actor's org), or null to pin none
   * @throws DeclarationException ({@code X_QUERY_DECLARATION_INVALID}) when the select is over another entity, or
   *     a tenant is given for an entity with no tenant column
   * @throws ValueInvalidException when {@code tenant} does not fit the tenant column's type
   */
  public static SqlStatement render(Entity entity, Select select, @Nullable Object tenant) {
    Objects.requireNonNull(entity, "entity");
    Objects.requireNonNull(select, "select");
    if (select.entity() != entity.ref()) {
      throw new DeclarationException(ErrorCode.X_QUERY_DECLARATION_INVALID,
          "The select is over '" + select.entity().name() + "' but the query is declared on '" + entity.name() + "'.",
          "Declare the query .on() the entity its source selects from.");
    }
    List<SqlStatement.Parameter> params = new ArrayList<>();
    StringBuilder sql = new StringBuilder("SELECT ");
    boolean first = true;
    for (Column c : entity.ref().columns()) {
      if (!first) {
        sql.append(", ");
      }
      first = false;
      sql.append(quote(c.name()));
    }
    sql.append(" FROM ").append(quote(entity.schema())).append('.').append(quote(entity.table()));
    List<String> conditions = new ArrayList<>();
    if (select.filter() != null) {
      conditions.add(filter(entity.ref(), select.filter(), params));
    }
    if (tenant != null) {
      String column = entity.tenantColumn();
      if (column == null) {
        throw new DeclarationException(ErrorCode.X_QUERY_DECLARATION_INVALID,
            "Entity '" + entity.name() + "' has no tenant column to pin.", "Declare .tenant(column) on the entity.");
      }
      Column c = entity.ref().column(column);
      conditions.add(quote(column) + " = " + param(c, c.type().coerce(tenant), params));
    }
    if (!conditions.isEmpty()) {
      sql.append(" WHERE ").append(String.join(" AND ", conditions));
    }
    sql.append(" ORDER BY ");
    first = true;
    for (Order o : select.effectiveOrder()) {
      if (!first) {
        sql.append(", ");
      }
      first = false;
      Column c = entity.ref().column(o.column());
      sql.append(operand(c)).append(o.descending() ? " DESC" : " ASC")
          .append(o.nulls() == Order.Nulls.FIRST ? " NULLS FIRST" : " NULLS LAST");
    }
    sql.append(" LIMIT ").append(select.limit());
    return new SqlStatement(sql.toString(), params);
  }

  /** The SQL of a bound filter alone, for tests and for composing reads. */
  public static SqlStatement where(EntityRef entity, Filter filter) {
    List<SqlStatement.Parameter> params = new ArrayList<>();
    String sql = filter(entity, filter, params);
    return new SqlStatement(sql, params);
  }

  private static String filter(EntityRef entity, Filter f, List<SqlStatement.Parameter> params) {
    return switch (f) {
      case Filter.Compare c -> {
        Column col = entity.column(c.column());
        yield operand(col) + " " + c.op().sql() + " " + param(col, c.value(), params);
      }
      case Filter.In in -> {
        Column col = entity.column(in.column());
        StringBuilder s = new StringBuilder(operand(col)).append(" IN (");
        for (int i = 0; i < in.values().size(); i++) {
          if (i > 0) {
            s.append(", ");
          }
          s.append(param(col, in.values().get(i), params));
        }
        yield s.append(')').toString();
      }
      case Filter.IsNull n -> quote(n.column()) + (n.negated() ? " IS NOT NULL" : " IS NULL");
      case Filter.Like l -> {
        Column col = entity.column(l.column());
        params.add(new SqlStatement.Parameter(l.pattern(), "text"));
        yield operand(col) + (l.caseInsensitive() ? " ILIKE " : " LIKE ") + "?::text";
      }
      case Filter.Not n -> "NOT (" + filter(entity, n.filter(), params) + ")";
      case Filter.And a -> {
        List<String> parts = new ArrayList<>();
        for (Filter p : a.filters()) {
          parts.add(filter(entity, p, params));
        }
        yield "(" + String.join(" AND ", parts) + ")";
      }
    };
  }

  private static String operand(Column c) {
    return c.type().textual() ? quote(c.name()) + " COLLATE \"C\"" : quote(c.name());
  }

  private static String param(Column c, @Nullable Object value, List<SqlStatement.Parameter> params) {
    params.add(new SqlStatement.Parameter(value == null ? null : c.type().format(value), c.type().sqlName()));
    return "?::" + c.type().sqlName();
  }

  /** A PostgreSQL identifier in double quotes, inner quotes doubled. */
  private static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }
}
