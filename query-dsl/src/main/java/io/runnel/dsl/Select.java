package io.runnel.dsl;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A select over one entity's record columns: a filter, an order and a limit, no SQL. Client-safe, so the browser
 * can place an optimistic record in every list it belongs to, in the right position.
 *
 * <pre>{@code select(POSTS).where(eq("org_id", in.orgId())).orderBy(desc("created_at")).limit(50)}</pre>
 *
 * <p>Immutable: each method returns a new select. Columns, operators and values are checked against the entity as
 * they are given, so a bad select fails where it is built.
 */
public final class Select {

  /** The largest limit a select may have, and the limit of a select that sets none. */
  public static final int MAX_LIMIT = 10_000;
  /** The most values an {@code IN} list may hold. */
  public static final int MAX_IN_VALUES = 100;

  private final EntityRef entity;
  private final @Nullable Filter filter;
  private final List<Order> orders;
  private final int limit;

  private Select(EntityRef entity, @Nullable Filter filter, List<Order> orders, int limit) {
    this.entity = entity;
    this.filter = filter;
    this.orders = orders;
    this.limit = limit;
  }

  /** A select of every record of {@code entity}, in key order, limited to {@link #MAX_LIMIT}. */
  public static Select select(EntityRef entity) {
    return new Select(Objects.requireNonNull(entity, "entity"), null, List.of(), MAX_LIMIT);
  }

  /**
   * This select with {@code filter} ANDed to its filter.
   *
   * @throws DeclarationException ({@code X_QUERY_DECLARATION_INVALID}) for an unknown column or an operator the
   *     column's type lacks (ordering on json, LIKE on a number)
   * @throws InputInvalidException ({@code X_INPUT_INVALID}, the path naming the column as {@code posts.id}) when a
   *     value does not fit its column's type, an IN list has 0 or over 100 values, or a LIKE pattern ends in a
   *     lone backslash: values come from the input, so these are the request's errors, not the app's
   */
  public Select where(Filter filter) {
    Filter bound = bind(Objects.requireNonNull(filter, "filter"));
    // List.of over an array, not List.of(a, b): in a bundle the two-element list is a class of its own.
    Filter combined = this.filter == null ? bound : new Filter.And(List.of(new Filter[] {this.filter, bound}));
    return new Select(entity, combined, orders, limit);
  }

  /**
   * This select ordered by {@code orders} (replacing any earlier order); the key is appended as the last
   * tie-breaker, so the order is total.
   *
   * @throws DeclarationException ({@code X_QUERY_DECLARATION_INVALID}) for an unknown column, a type that cannot
   *     be ordered, or a column named twice
   */
  public Select orderBy(Order... orders) {
    List<Order> list = List.of(orders);
    for (int i = 0; i < list.size(); i++) {
      Column c = entity.column(list.get(i).column());
      if (!c.type().comparable()) {
        throw invalid("Column '" + c.name() + "' (" + c.type().sqlName() + ") cannot be ordered.",
            "Order by a scalar column.");
      }
      for (int j = 0; j < i; j++) {
        if (list.get(j).column().equals(c.name())) {
          throw invalid("Column '" + c.name() + "' is ordered twice.", "Name each column once in orderBy.");
        }
      }
    }
    return new Select(entity, filter, list, limit);
  }

  /**
   * This select limited to {@code limit} records.
   *
   * @throws InputInvalidException ({@code X_INPUT_INVALID}, the path {@code posts.limit}) unless 1 ≤ limit ≤ 10,000:
   *     a limit, like a filter's values, may come from the input ({@code .limit(in.count())}), so it is the request's
   *     error, not the app's
   */
  public Select limit(int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InputInvalidException(entity.name() + ".limit", "is " + limit + ", out of range",
          "Ask for a limit from 1 to " + MAX_LIMIT + ".");
    }
    return new Select(entity, filter, orders, limit);
  }

  /** The entity selected from. */
  public EntityRef entity() {
    return entity;
  }

  /** The filter with values bound to their column types, or null for every record. */
  public @Nullable Filter filter() {
    return filter;
  }

  /** The order as given, without the key tie-breaker. */
  public List<Order> orders() {
    return orders;
  }

  /** The order that is applied: the given terms, then each key column not among them, ascending. */
  public List<Order> effectiveOrder() {
    List<Order> out = new ArrayList<>(orders);
    for (String k : entity.key()) {
      boolean present = false;
      for (Order o : orders) {
        present |= o.column().equals(k);
      }
      if (!present) {
        out.add(Order.asc(k));
      }
    }
    return Collections.unmodifiableList(out);
  }

  /** The limit. */
  public int limit() {
    return limit;
  }

  /**
   * The routing key: the columns the filter pins with a non-negated top-level {@code eq} (directly or as a part
   * of the top-level AND), with their {@linkplain ColumnType#routingValue routing values}. A change whose row's
   * routing values differ cannot match, so windows are indexed by them: a row holding {@code 1.00} where the
   * select pins {@code 1.0}, or {@code -0.0} where it pins {@code 0.0}, is found under the same key, as PostgreSQL
   * calls them equal. Empty when nothing is pinned.
   */
  public Map<String, Object> routingKey() {
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    if (filter != null) {
      collectPins(filter, out);
    }
    return Collections.unmodifiableMap(out);
  }

  private void collectPins(Filter f, Map<String, Object> out) {
    switch (f) {
      case Filter.Compare c -> {
        if (c.op() == Filter.Op.EQ && c.value() != null) {
          out.putIfAbsent(c.column(), entity.column(c.column()).type().routingValue(c.value()));
        }
      }
      case Filter.And a -> a.filters().forEach(p -> collectPins(p, out));
      // IN may match any of its values, IS NULL pins no value, LIKE a pattern, and NOT pins nothing it negates.
      case Filter.In in -> { }
      case Filter.IsNull n -> { }
      case Filter.Like l -> { }
      case Filter.Not n -> { }
    }
  }

  private Filter bind(Filter f) {
    return switch (f) {
      case Filter.Compare c -> {
        Column col = comparable(c.column(), c.op().sql());
        yield new Filter.Compare(c.column(), c.op(), value(col, c.value()));
      }
      case Filter.In in -> {
        Column col = comparable(in.column(), "IN");
        if (in.values().isEmpty() || in.values().size() > MAX_IN_VALUES) {
          throw new InputInvalidException(path(col), "is compared with IN of " + in.values().size() + " values",
              "Give IN from 1 to " + MAX_IN_VALUES + " values.");
        }
        List<@Nullable Object> values = new ArrayList<>();
        for (Object v : in.values()) {
          values.add(value(col, v));
        }
        yield new Filter.In(in.column(), values);
      }
      case Filter.IsNull n -> {
        entity.column(n.column());
        yield n;
      }
      case Filter.Like l -> {
        Column col = entity.column(l.column());
        if (!col.type().textual()) {
          throw invalid("Column '" + col.name() + "' (" + col.type().sqlName() + ") cannot be matched with "
              + (l.caseInsensitive() ? "ILIKE" : "LIKE") + ".", "Use LIKE and ILIKE on text or varchar columns.");
        }
        l.checkPattern(path(col));
        yield l;
      }
      case Filter.Not n -> new Filter.Not(bind(n.filter()));
      case Filter.And a -> {
        List<Filter> parts = new ArrayList<>();
        for (Filter p : a.filters()) {
          parts.add(bind(p));
        }
        yield new Filter.And(parts);
      }
    };
  }

  private Column comparable(String column, String op) {
    Column col = entity.column(column);
    if (!col.type().comparable()) {
      throw invalid("Column '" + col.name() + "' (" + col.type().sqlName() + ") cannot be compared with " + op + ".",
          "Test " + col.type().sqlName() + " columns only with isNull / isNotNull.");
    }
    return col;
  }

  private @Nullable Object value(Column col, @Nullable Object value) {
    if (value == null) {
      return null;
    }
    try {
      return col.type().coerce(value);
    } catch (ValueInvalidException e) {
      throw new InputInvalidException(path(col), "does not fit its column (" + e.clause() + ")",
          "Send a " + col.type().sqlName() + " value.");
    }
  }

  /** The path naming a column in an input error: {@code posts.id}. */
  private String path(Column col) {
    return entity.name() + "." + col.name();
  }

  private static DeclarationException invalid(String cause, String fix) {
    return new DeclarationException(ErrorCode.X_QUERY_DECLARATION_INVALID, cause, fix);
  }

  @Override
  public String toString() {
    return "Select[" + entity.name() + " where " + filter + " order " + effectiveOrder() + " limit " + limit + "]";
  }
}
