package io.runnel.dsl;

import java.util.Objects;

/**
 * One ORDER BY term. PostgreSQL's defaults apply unless set: ascending puts NULLs last, descending puts them first.
 *
 * @param column the column
 * @param descending true for DESC
 * @param nulls where NULLs go
 */
public record Order(String column, boolean descending, Nulls nulls) {

  /** Where an order term puts NULLs. */
  public enum Nulls {
    /** NULLS FIRST. */
    FIRST,
    /** NULLS LAST. */
    LAST
  }

  /** Checks the column and placement are given. */
  public Order {
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(nulls, "nulls");
  }

  /** {@code column ASC NULLS LAST}. */
  public static Order asc(String column) {
    return new Order(column, false, Nulls.LAST);
  }

  /** {@code column DESC NULLS FIRST}. */
  public static Order desc(String column) {
    return new Order(column, true, Nulls.FIRST);
  }

  /** This term with NULLS FIRST. */
  public Order nullsFirst() {
    return new Order(column, descending, Nulls.FIRST);
  }

  /** This term with NULLS LAST. */
  public Order nullsLast() {
    return new Order(column, descending, Nulls.LAST);
  }
}
