package io.runnel.dsl;

import io.runnel.wire.Nullable;
import io.runnel.wire.Numbers;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable row: column name to the column type's Java value ({@link ColumnType}), null for SQL NULL. A value
 * is replaced, never mutated: {@link #with} and {@link #plus} return new rows.
 */
public final class Row {

  private final Map<String, @Nullable Object> values;

  private Row(Map<String, @Nullable Object> values) {
    this.values = values;
  }

  /** A row with {@code values}, in their iteration order; null values are SQL NULL. */
  public static Row of(Map<String, ? extends @Nullable Object> values) {
    Objects.requireNonNull(values, "values");
    LinkedHashMap<String, @Nullable Object> copy = new LinkedHashMap<>();
    for (Map.Entry<String, ? extends @Nullable Object> e : values.entrySet()) {
      copy.put(Objects.requireNonNull(e.getKey(), "column"), e.getValue());
    }
    return new Row(Collections.unmodifiableMap(copy));
  }

  /** The empty row. */
  public static Row empty() {
    return new Row(Collections.emptyMap());
  }

  /** The values by column, unmodifiable, in column order. */
  public Map<String, @Nullable Object> values() {
    return values;
  }

  /** Whether the row carries column {@code column} (possibly as NULL). */
  public boolean has(String column) {
    return values.containsKey(column);
  }

  /** The value of {@code column}; null for SQL NULL or when absent (see {@link #has}). */
  public @Nullable Object get(String column) {
    return values.get(column);
  }

  /**
   * The value of a {@code text}, {@code varchar} or {@code uuid} column.
   *
   * @return the {@code String}, or null for SQL NULL or an absent column
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable String text(String column) {
    return (String) values.get(column);
  }

  /**
   * The value of a {@code bool} column.
   *
   * @return the {@code Boolean}, or null for SQL NULL or an absent column (so a NULL is never read as false)
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable Boolean bool(String column) {
    return (Boolean) values.get(column);
  }

  /**
   * The value of an {@code int4} or {@code int2} column: both are {@code Integer} in Java.
   *
   * @return the {@code Integer}, or null for SQL NULL or an absent column
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable Integer int4(String column) {
    return (Integer) values.get(column);
  }

  /**
   * The value of an {@code int8} column.
   *
   * @return the {@code Long}, or null for SQL NULL or an absent column
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable Long int8(String column) {
    return (Long) values.get(column);
  }

  /**
   * The value of a {@code float8} column (a {@code float4} column holds a {@code Float}; read it with
   * {@link #get}).
   *
   * @return the {@code Double}, NaN and the infinities included, or null for SQL NULL or an absent column
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable Double float8(String column) {
    return (Double) values.get(column);
  }

  /**
   * The value of a {@code numeric} column.
   *
   * @return the {@link PgNumeric} (exact, with its scale), or null for SQL NULL or an absent column
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable PgNumeric numeric(String column) {
    return (PgNumeric) values.get(column);
  }

  /**
   * The value of a {@code timestamptz} or {@code timestamp} column.
   *
   * @return the {@link PgTimestamp}, infinities included, or null for SQL NULL or an absent column
   * @throws ClassCastException when the column holds another type
   */
  public @Nullable PgTimestamp timestamp(String column) {
    return (PgTimestamp) values.get(column);
  }

  /** This row with {@code column} set to {@code value} (null for SQL NULL). */
  public Row with(String column, @Nullable Object value) {
    LinkedHashMap<String, @Nullable Object> copy = new LinkedHashMap<>(values);
    copy.put(Objects.requireNonNull(column, "column"), value);
    return new Row(Collections.unmodifiableMap(copy));
  }

  /** This row with every column of {@code other} set to its value there (a write merges columns). */
  public Row merge(Row other) {
    LinkedHashMap<String, @Nullable Object> copy = new LinkedHashMap<>(values);
    copy.putAll(other.values);
    return new Row(Collections.unmodifiableMap(copy));
  }

  /**
   * This row with {@code delta} added to a numeric column (int2/int4, int8, float4/float8 or numeric); NULL stays
   * NULL, as in SQL.
   *
   * @throws IllegalArgumentException when the column is absent or not numeric
   * @throws ArithmeticException when an integer column overflows
   */
  public Row plus(String column, long delta) {
    if (!values.containsKey(column)) {
      throw new IllegalArgumentException("The row has no column '" + column + "'");
    }
    Object v = values.get(column);
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
    LinkedHashMap<String, @Nullable Object> copy = new LinkedHashMap<>(values);
    copy.remove(column);
    return new Row(Collections.unmodifiableMap(copy));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Row r && values.equals(r.values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  @Override
  public String toString() {
    return "Row" + values;
  }
}
