package io.runnel.dsl;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The DSL's verbs in one place, so that app code needs one static import ({@code import static
 * io.runnel.dsl.Dsl.*;}) to write {@code select(POSTS).where(and(eq("org_id", org), not(isNull("title"))))
 * .orderBy(desc("created_at"))}. Each method delegates to {@link Select}, {@link Filter} or {@link Order}, whose
 * javadoc gives the semantics; values are checked when the filter reaches {@link Select#where}.
 */
public final class Dsl {

  private Dsl() {}

  /** A select of every record of {@code entity}: {@link Select#select}. */
  public static Select select(EntityRef entity) {
    return Select.select(entity);
  }

  /** {@code column = value}: {@link Filter#eq}. */
  public static Filter eq(String column, @Nullable Object value) {
    return Filter.eq(column, value);
  }

  /** {@code column <> value}: {@link Filter#neq}. */
  public static Filter neq(String column, @Nullable Object value) {
    return Filter.neq(column, value);
  }

  /** {@code column < value}: {@link Filter#lt}. */
  public static Filter lt(String column, @Nullable Object value) {
    return Filter.lt(column, value);
  }

  /** {@code column <= value}: {@link Filter#lte}. */
  public static Filter lte(String column, @Nullable Object value) {
    return Filter.lte(column, value);
  }

  /** {@code column > value}: {@link Filter#gt}. */
  public static Filter gt(String column, @Nullable Object value) {
    return Filter.gt(column, value);
  }

  /** {@code column >= value}: {@link Filter#gte}. */
  public static Filter gte(String column, @Nullable Object value) {
    return Filter.gte(column, value);
  }

  /** {@code column IN (values…)}, 1–100 values: {@link Filter#in(String, List)}. */
  public static Filter in(String column, List<?> values) {
    return Filter.in(column, values);
  }

  /** {@code column IN (values…)}, 1–100 values given one by one: {@link Filter#in(String, Object...)}. */
  public static Filter in(String column, @Nullable Object... values) {
    return Filter.in(column, values);
  }

  /** {@code column IS NULL}: {@link Filter#isNull}. */
  public static Filter isNull(String column) {
    return Filter.isNull(column);
  }

  /** {@code column IS NOT NULL}: {@link Filter#isNotNull}. */
  public static Filter isNotNull(String column) {
    return Filter.isNotNull(column);
  }

  /** {@code column LIKE pattern} on a text column: {@link Filter#like}. */
  public static Filter like(String column, @Nullable String pattern) {
    return Filter.like(column, pattern);
  }

  /** {@code column ILIKE pattern} on a text column, folding ASCII letters only: {@link Filter#ilike}. */
  public static Filter ilike(String column, @Nullable String pattern) {
    return Filter.ilike(column, pattern);
  }

  /** {@code NOT (filter)}: {@link Filter#not}. */
  public static Filter not(Filter filter) {
    return Filter.not(filter);
  }

  /** {@code (filters[0] AND filters[1] AND …)}: {@link Filter#and}. */
  public static Filter and(Filter... filters) {
    return Filter.and(filters);
  }

  /** {@code column ASC NULLS LAST}: {@link Order#asc}. */
  public static Order asc(String column) {
    return Order.asc(column);
  }

  /** {@code column DESC NULLS FIRST}: {@link Order#desc}. */
  public static Order desc(String column) {
    return Order.desc(column);
  }
}
