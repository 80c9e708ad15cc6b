package io.runnel.dsl;

import io.runnel.wire.Numbers;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An immutable row: column name to the column type's Java value ({@link ColumnType}), null for SQL NULL. A value
 * is replaced, never mutated: {@link #with} and {@link #plus} return new rows.
 */
public final class Row {

  private static final String[] NO_COLUMNS = new String[0];
  private static final Row EMPTY = new Row(NO_COLUMNS, new Object[0]);

  // Two arrays rather than a map: a node keeps every row of its windows and patch rings, each for as long as the
  // row stays in a list (seconds to minutes), so G1 copies them from young to old; a LinkedHashMap made a row about
  // eight objects and 350 bytes more (docs/performance.md, "Fan-out latency").
  private final String[] columns;
  private final @Nullable Object[] cells;

  private Row(String[] columns, @Nullable Object[] cells) {
    this.columns = columns;
    this.cells = cells;
  }

  /** A row with {@code values}, in their iteration order; null values are SQL NULL. */
  public static Row of(Map<String, ? extends @Nullable Object> values) {
    Objects.requireNonNull(values, "values");
    int n = values.size();
    if (n == 0) {
      return EMPTY;
    }
    String[] columns = new String[n];
    @Nullable Object[] cells = new Object[n];
    int i = 0;
    for (Map.Entry<String, ? extends @Nullable Object> e : values.entrySet()) {
      if (i == n) {
        throw new IllegalArgumentException("values changed while the row was made");
      }
      columns[i] = Objects.requireNonNull(e.getKey(), "column");
      cells[i] = e.getValue();
      i++;
    }
    if (i != n) {
      throw new IllegalArgumentException("values changed while the row was made");
    }
    return new Row(columns, cells);
  }

  /** The empty row. */
  public static Row empty() {
    return EMPTY;
  }

  private int indexOf(Object column) {
    for (int i = 0; i < columns.length; i++) {
      if (columns[i].equals(column)) {
        return i;
      }
    }
    return -1;
  }

  private Map<String, @Nullable Object> copy() {
    Map<String, @Nullable Object> copy = new LinkedHashMap<>();
    for (int i = 0; i < columns.length; i++) {
      copy.put(columns[i], cells[i]);
    }
    return copy;
  }

  /** The values by column, unmodifiable, in column order. */
  public Map<String, @Nullable Object> values() {
    return new View(this);
  }

  /** Whether the row carries column {@code column} (possibly as NULL). */
  public boolean has(String column) {
    return indexOf(column) >= 0;
  }

  /** The value of {@code column}; null for SQL NULL or when absent (see {@link #has}). */
  public @Nullable Object get(String column) {
    int i = indexOf(column);
    return i < 0 ? null : cells[i];
  }

  /**
   * The value of a {@code text}, {@code varchar} or {@code uuid} column.
   *
   * @return the {@code String}, or null for SQL NULL or an absent column
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable String text(String column) {
    return (String) get(column);
  }

  /**
   * The value of a {@code bool} column.
   *
   * @return the {@code Boolean}, or null for SQL NULL or an absent column (so a NULL is never read as false)
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable Boolean bool(String column) {
    return (Boolean) get(column);
  }

  /**
   * The value of an {@code int4} or {@code int2} column: both are {@code Integer} in Java.
   *
   * @return the {@code Integer}, or null for SQL NULL or an absent column
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable Integer int4(String column) {
    return (Integer) get(column);
  }

  /**
   * The value of an {@code int8} column.
   *
   * @return the {@code Long}, or null for SQL NULL or an absent column
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable Long int8(String column) {
    return (Long) get(column);
  }

  /**
   * The value of a {@code float8} column (a {@code float4} column holds a {@code Float}; read it with
   * {@link #get}).
   *
   * @return the {@code Double}, NaN and the infinities included, or null for SQL NULL or an absent column
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable Double float8(String column) {
    return (Double) get(column);
  }

  /**
   * The value of a {@code numeric} column.
   *
   * @return the {@link PgNumeric} (exact, with its scale), or null for SQL NULL or an absent column
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable PgNumeric numeric(String column) {
    return (PgNumeric) get(column);
  }

  /**
   * The value of a {@code timestamptz} or {@code timestamp} column.
   *
   * @return the {@link PgTimestamp}, infinities included, or null for SQL NULL or an absent column
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable PgTimestamp timestamp(String column) {
    return (PgTimestamp) get(column);
  }

  /** This row with {@code column} set to {@code value} (null for SQL NULL). */
  public Row with(String column, @Nullable Object value) {
    Map<String, @Nullable Object> copy = copy();
    copy.put(Objects.requireNonNull(column, "column"), value);
    return of(copy);
  }

  /** This row with every column of {@code other} set to its value there (a write merges columns). */
  public Row merge(Row other) {
    Map<String, @Nullable Object> copy = copy();
    copy.putAll(other.values());
    return of(copy);
  }

  /**
   * This row with {@code delta} added to a numeric column (int2/int4, int8, float4/float8 or numeric); NULL stays
   * NULL, as in SQL.
   *
   * @throws IllegalArgumentException when the column is absent or not numeric
   * @throws ArithmeticException when an integer column overflows
   */
  public Row plus(String column, long delta) {
    if (!has(column)) {
      throw new IllegalArgumentException("The row has no column '" + column + "'");
    }
    Object v = get(column);
    Object next = switch (v) {
      case null -> null;
      case Integer i -> Math.toIntExact(i + delta);
      case Long l -> Math.addExact(l, delta);
      // A bundle boxes floats only through FloatSum, which links where float values are made (its note says why).
      case Double d -> Numbers.inBrowser() ? FloatSum.plus(d, delta) : (Object) (d + delta);
      case Float f -> Numbers.inBrowser() ? FloatSum.plus(f, delta) : (Object) (f + delta);
      case Summand n -> n.plus(delta);
      default -> throw new IllegalArgumentException("Column '" + column + "' is not numeric");
    };
    return with(column, next);
  }

  /** This row without {@code column}. */
  public Row without(String column) {
    Map<String, @Nullable Object> copy = copy();
    copy.remove(column);
    return of(copy);
  }

  /** Equal when both hold the same columns with equal values, in any order (as {@link Map#equals}). */
  @Override
  public boolean equals(@Nullable Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Row r) || r.columns.length != columns.length) {
      return false;
    }
    for (int i = 0; i < columns.length; i++) {
      int j = r.indexOf(columns[i]);
      if (j < 0 || !Objects.equals(cells[i], r.cells[j])) {
        return false;
      }
    }
    return true;
  }

  /** {@link Map#hashCode} of {@link #values()}. */
  @Override
  public int hashCode() {
    int h = 0;
    for (int i = 0; i < columns.length; i++) {
      h += columns[i].hashCode() ^ Objects.hashCode(cells[i]);
    }
    return h;
  }

  @Override
  public String toString() {
    return "Row" + values();
  }

  /** The unmodifiable map view {@link #values()} returns, over the row's arrays, in column order. */
  private static final class View extends AbstractMap<String, @Nullable Object> {
    private final Row row;

    View(Row row) {
      this.row = row;
    }

    @Override
    public int size() {
      return row.columns.length;
    }

    @Override
    public boolean containsKey(@Nullable Object key) {
      return key != null && row.indexOf(key) >= 0;
    }

    @Override
    public @Nullable Object get(@Nullable Object key) {
      int i = key == null ? -1 : row.indexOf(key);
      return i < 0 ? null : row.cells[i];
    }

    @Override
    public Set<Map.Entry<String, @Nullable Object>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public int size() {
          return row.columns.length;
        }

        @Override
        public Iterator<Map.Entry<String, @Nullable Object>> iterator() {
          return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
              return next < row.columns.length;
            }

            @Override
            public Map.Entry<String, @Nullable Object> next() {
              if (next >= row.columns.length) {
                throw new NoSuchElementException();
              }
              int i = next++;
              return new AbstractMap.SimpleImmutableEntry<>(row.columns[i], row.cells[i]);
            }
          };
        }
      };
    }
  }
}
