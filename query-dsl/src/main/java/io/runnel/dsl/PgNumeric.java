package io.runnel.dsl;

import io.runnel.wire.Nullable;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * A PostgreSQL {@code numeric}: an exact decimal with its scale ({@code 0.10} keeps both digits), or one of the
 * special values {@code NaN}, {@code Infinity}, {@code -Infinity} (PostgreSQL 14+).
 *
 * <p>Order is PostgreSQL's: {@code -Infinity} < every finite value < {@code Infinity} < {@code NaN}, and
 * {@code NaN} equals {@code NaN} (numeric_cmp in {@code src/backend/utils/adt/numeric.c}).
 *
 * @param kind finite or which special value
 * @param decimal the value when finite, else null
 */
public record PgNumeric(Kind kind, @Nullable BigDecimal decimal) implements Comparable<PgNumeric> {

  /** Which kind of numeric value, in PostgreSQL's sort order. */
  public enum Kind {
    /** {@code -Infinity}. */
    NEGATIVE_INFINITY,
    /** A finite decimal. */
    FINITE,
    /** {@code Infinity}. */
    POSITIVE_INFINITY,
    /** {@code NaN}. */
    NAN
  }

  /** {@code NaN}. */
  public static final PgNumeric NAN = new PgNumeric(Kind.NAN, null);
  /** {@code Infinity}. */
  public static final PgNumeric POSITIVE_INFINITY = new PgNumeric(Kind.POSITIVE_INFINITY, null);
  /** {@code -Infinity}. */
  public static final PgNumeric NEGATIVE_INFINITY = new PgNumeric(Kind.NEGATIVE_INFINITY, null);

  /** @throws IllegalArgumentException when a finite value lacks its decimal or a special one has one */
  public PgNumeric {
    Objects.requireNonNull(kind, "kind");
    if ((kind == Kind.FINITE) != (decimal != null)) {
      throw new IllegalArgumentException("A finite numeric needs its decimal, a special one has none");
    }
  }

  /** The finite numeric {@code value}, keeping its scale. */
  public static PgNumeric of(BigDecimal value) {
    return new PgNumeric(Kind.FINITE, Objects.requireNonNull(value, "value"));
  }

  /**
   * Parses PostgreSQL's text for a numeric: digits with an optional sign, point and exponent, or {@code NaN},
   * {@code Infinity}, {@code -Infinity} (case-insensitive, as {@code numeric_in} accepts them).
   *
   * @throws ValueInvalidException when {@code text} is not a numeric
   */
  public static PgNumeric parse(String text) {
    String t = text.trim();
    switch (t.toLowerCase()) {
      case "nan":
        return NAN;
      case "infinity":
      case "+infinity":
      case "inf":
      case "+inf":
        return POSITIVE_INFINITY;
      case "-infinity":
      case "-inf":
        return NEGATIVE_INFINITY;
      default:
        break;
    }
    if (!t.matches("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?")) {
      throw new ValueInvalidException("numeric", text, "is not a number");
    }
    try {
      BigDecimal d = new BigDecimal(t);
      // PostgreSQL keeps at least scale 0: an exponent never yields a negative scale.
      return of(d.scale() < 0 ? d.setScale(0) : d);
    } catch (NumberFormatException e) {
      throw new ValueInvalidException("numeric", text, "is not a number");
    }
  }

  /** Whether this is a finite decimal. */
  public boolean isFinite() {
    return kind == Kind.FINITE;
  }

  /** The text PostgreSQL prints for this value: plain digits with the scale, or {@code NaN}/{@code Infinity}. */
  public String text() {
    return switch (kind) {
      case NAN -> "NaN";
      case POSITIVE_INFINITY -> "Infinity";
      case NEGATIVE_INFINITY -> "-Infinity";
      case FINITE -> {
        String s = Objects.requireNonNull(decimal).toPlainString();
        yield s.startsWith("-") && decimal.signum() == 0 ? s.substring(1) : s;
      }
    };
  }

  /** Compares as PostgreSQL orders numerics; scale does not matter ({@code 1.0} equals {@code 1}). */
  @Override
  public int compareTo(PgNumeric other) {
    if (kind != Kind.FINITE || other.kind != Kind.FINITE) {
      return Integer.compare(kind.ordinal(), other.kind.ordinal());
    }
    return Objects.requireNonNull(decimal).compareTo(Objects.requireNonNull(other.decimal));
  }

  @Override
  public String toString() {
    return text();
  }
}
