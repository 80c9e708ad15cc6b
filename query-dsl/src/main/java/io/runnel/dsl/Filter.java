package io.runnel.dsl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A select's filter: an AND tree of comparisons over an entity's record columns, with PostgreSQL's three-valued
 * logic (a comparison with NULL is unknown, and only true passes). Built with the static factories, which
 * app code imports: {@code where(and(eq("org_id", org), not(isNull("title"))))}.
 *
 * <p>Values are checked against the column's type when the filter is given to {@link Select#where}.
 */
public sealed interface Filter permits Filter.Compare, Filter.In, Filter.IsNull, Filter.Like, Filter.Not, Filter.And {

  /** The six comparison operators. */
  enum Op {
    /** {@code =}. */
    EQ("="),
    /** {@code <>}. */
    NEQ("<>"),
    /** {@code <}. */
    LT("<"),
    /** {@code <=}. */
    LTE("<="),
    /** {@code >}. */
    GT(">"),
    /** {@code >=}. */
    GTE(">=");

    private final String sql;

    Op(String sql) {
      this.sql = sql;
    }

    /** The SQL operator. */
    public String sql() {
      return sql;
    }

    /** Whether a comparison result {@code cmp} (negative, zero, positive) satisfies this operator. */
    public boolean test(int cmp) {
      return switch (this) {
        case EQ -> cmp == 0;
        case NEQ -> cmp != 0;
        case LT -> cmp < 0;
        case LTE -> cmp <= 0;
        case GT -> cmp > 0;
        case GTE -> cmp >= 0;
      };
    }
  }

  /**
   * {@code column op value}; a null value makes the comparison unknown, as in SQL.
   *
   * @param column the column
   * @param op the operator
   * @param value the value, of the column type's Java class once bound, or null
   */
  record Compare(String column, Op op, @Nullable Object value) implements Filter {
    /** Checks the column name is given. */
    public Compare {
      Objects.requireNonNull(column, "column");
      Objects.requireNonNull(op, "op");
    }
  }

  /**
   * {@code column IN (values…)}, 1–100 values (null values allowed, as in SQL).
   *
   * @param column the column
   * @param values the values
   */
  record In(String column, List<@Nullable Object> values) implements Filter {
    /** Copies the values (nulls kept). */
    public In {
      Objects.requireNonNull(column, "column");
      values = Collections.unmodifiableList(new ArrayList<>(Objects.requireNonNull(values, "values")));
    }
  }

  /**
   * {@code column IS NULL}, or {@code IS NOT NULL} when {@code negated}.
   *
   * @param column the column
   * @param negated true for {@code IS NOT NULL}
   */
  record IsNull(String column, boolean negated) implements Filter {
    /** Checks the column name is given. */
    public IsNull {
      Objects.requireNonNull(column, "column");
    }
  }

  /**
   * {@code column LIKE pattern}, or {@code ILIKE} when {@code caseInsensitive}: {@code %} any run, {@code _} one
   * character, backslash escapes the next character. Text columns only, compared under {@code COLLATE "C"}
   * (so {@code ILIKE} folds ASCII letters only).
   *
   * @param column the column
   * @param pattern the pattern, or null (unknown)
   * @param caseInsensitive true for {@code ILIKE}
   */
  record Like(String column, @Nullable String pattern, boolean caseInsensitive) implements Filter {
    /** Checks the column name is given. */
    public Like {
      Objects.requireNonNull(column, "column");
      LikeMatch.install();
    }

    /** Refuses a malformed non-null pattern, naming {@code path} (through {@link LikeMatch}, which says why). */
    void checkPattern(String path) {
      if (pattern != null) {
        LikeMatch.get().check(pattern, path);
      }
    }

    /** Whether {@code text} matches the (non-null) pattern. */
    boolean matches(String text) {
      return LikeMatch.get().matches(text, Objects.requireNonNull(pattern, "pattern"), caseInsensitive);
    }
  }

  /**
   * {@code NOT (filter)}; NOT of unknown is unknown.
   *
   * @param filter the negated filter
   */
  record Not(Filter filter) implements Filter {
    /** Checks the filter is given. */
    public Not {
      Objects.requireNonNull(filter, "filter");
    }
  }

  /**
   * {@code (a AND b AND …)}, two or more parts; false wins over unknown.
   *
   * @param filters the parts
   */
  record And(List<Filter> filters) implements Filter {
    /** Copies the parts. */
    public And {
      filters = List.copyOf(filters);
      if (filters.isEmpty()) {
        throw new IllegalArgumentException("AND needs at least one part");
      }
    }
  }

  /** {@code column = value}. */
  static Filter eq(String column, @Nullable Object value) {
    return new Compare(column, Op.EQ, value);
  }

  /** {@code column <> value}. */
  static Filter neq(String column, @Nullable Object value) {
    return new Compare(column, Op.NEQ, value);
  }

  /** {@code column < value}. */
  static Filter lt(String column, @Nullable Object value) {
    return new Compare(column, Op.LT, value);
  }

  /** {@code column <= value}. */
  static Filter lte(String column, @Nullable Object value) {
    return new Compare(column, Op.LTE, value);
  }

  /** {@code column > value}. */
  static Filter gt(String column, @Nullable Object value) {
    return new Compare(column, Op.GT, value);
  }

  /** {@code column >= value}. */
  static Filter gte(String column, @Nullable Object value) {
    return new Compare(column, Op.GTE, value);
  }

  /** {@code column IN (values…)}, 1–100 values (nulls allowed, as in SQL). */
  static Filter in(String column, List<?> values) {
    return new In(column, new ArrayList<>(values));
  }

  /** {@code column IN (values…)}, 1–100 values given one by one: {@code in("status", "open", "held")}. */
  static Filter in(String column, @Nullable Object... values) {
    return new In(column, Arrays.asList(values));
  }

  /** {@code column IS NULL}. */
  static Filter isNull(String column) {
    return new IsNull(column, false);
  }

  /** {@code column IS NOT NULL}. */
  static Filter isNotNull(String column) {
    return new IsNull(column, true);
  }

  /** {@code column LIKE pattern}. */
  static Filter like(String column, @Nullable String pattern) {
    return new Like(column, pattern, false);
  }

  /** {@code column ILIKE pattern}. */
  static Filter ilike(String column, @Nullable String pattern) {
    return new Like(column, pattern, true);
  }

  /** {@code NOT (filter)}. */
  static Filter not(Filter filter) {
    return new Not(filter);
  }

  /** {@code (filters[0] AND filters[1] AND …)}; one filter is returned as is. */
  static Filter and(Filter... filters) {
    return filters.length == 1 ? filters[0] : new And(List.of(filters));
  }
}
