package io.runnel.dsl;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Evaluates a {@link Select}'s filter and order on a row in process, with PostgreSQL's semantics: three-valued
 * logic with NULL, comparisons per {@link ColumnType#compare} (numeric and float NaN above all, -0 equal to 0,
 * timestamps and dates with their infinities, text by code point as under {@code COLLATE "C"}), and NULLs placed
 * as the order term says.
 *
 * <p>The SQL that {@link io.runnel.dsl.server.SqlRenderer} makes of the same select compares text under
 * {@code COLLATE "C"} explicitly, whatever the column's own collation, so the database and this matcher always
 * agree (proved by the differential test against a real PostgreSQL).
 */
public final class Matcher implements Comparator<Row> {

  private final Select select;
  private final List<Order> order;

  private Matcher(Select select) {
    this.select = select;
    this.order = select.effectiveOrder();
  }

  /** The matcher for {@code select}. */
  public static Matcher of(Select select) {
    return new Matcher(Objects.requireNonNull(select, "select"));
  }

  /** The select this matcher evaluates. */
  public Select select() {
    return select;
  }

  /**
   * Whether the row passes the filter (its truth is {@link Truth#TRUE}).
   *
   * @throws IllegalArgumentException when the row lacks a column the filter reads
   */
  public boolean matches(Row row) {
    Filter f = select.filter();
    return f == null || evaluate(f, row) == Truth.TRUE;
  }

  /**
   * The filter's truth value on the row.
   *
   * @throws IllegalArgumentException when the row lacks a column the filter reads
   */
  public Truth evaluate(Row row) {
    Filter f = select.filter();
    return f == null ? Truth.TRUE : evaluate(f, row);
  }

  private Truth evaluate(Filter f, Row row) {
    return switch (f) {
      case Filter.Compare c -> {
        Object v = value(row, c.column());
        if (v == null || c.value() == null) {
          yield Truth.UNKNOWN;
        }
        yield Truth.of(c.op().test(type(c.column()).compare(v, c.value())));
      }
      case Filter.In in -> {
        Object v = value(row, in.column());
        if (v == null) {
          yield Truth.UNKNOWN;
        }
        boolean sawNull = false;
        for (Object candidate : in.values()) {
          if (candidate == null) {
            sawNull = true;
          } else if (type(in.column()).compare(v, candidate) == 0) {
            yield Truth.TRUE;
          }
        }
        yield sawNull ? Truth.UNKNOWN : Truth.FALSE;
      }
      case Filter.IsNull n -> Truth.of((value(row, n.column()) == null) != n.negated());
      case Filter.Like l -> {
        Object v = value(row, l.column());
        if (v == null || l.pattern() == null) {
          yield Truth.UNKNOWN;
        }
        yield Truth.of(l.matches((String) v));
      }
      case Filter.Not n -> evaluate(n.filter(), row).not();
      case Filter.And a -> {
        Truth t = Truth.TRUE;
        for (Filter part : a.filters()) {
          t = t.and(evaluate(part, row));
          if (t == Truth.FALSE) {
            break;
          }
        }
        yield t;
      }
    };
  }

  /**
   * Compares two rows in the select's effective order (given terms, then the key): negative when {@code a} comes
   * first.
   *
   * @throws IllegalArgumentException when a row lacks an ordered column
   */
  @Override
  public int compare(Row a, Row b) {
    for (Order o : order) {
      Object x = value(a, o.column());
      Object y = value(b, o.column());
      int c;
      if (x == null || y == null) {
        if (x == y) {
          continue;
        }
        c = (x == null) == (o.nulls() == Order.Nulls.FIRST) ? -1 : 1;
      } else {
        c = type(o.column()).compare(x, y);
        if (o.descending()) {
          c = -c;
        }
      }
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private ColumnType type(String column) {
    return select.entity().column(column).type();
  }

  private static @Nullable Object value(Row row, String column) {
    if (!row.has(column)) {
      throw new IllegalArgumentException("The row lacks column '" + column + "', which the select reads");
    }
    return row.get(column);
  }
}
