package io.runnel.dsl;

import io.runnel.wire.Digits;
import io.runnel.wire.Texts;
import java.math.BigDecimal;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL {@code numeric}: an exact decimal with its scale ({@code 0.10} keeps both digits), or one of the
 * special values {@code NaN}, {@code Infinity}, {@code -Infinity} (PostgreSQL 14+).
 *
 * <p>Order is PostgreSQL's: {@code -Infinity} < every finite value < {@code Infinity} < {@code NaN}, and
 * {@code NaN} equals {@code NaN} (numeric_cmp in {@code src/backend/utils/adt/numeric.c}).
 *
 * <p>Range is PostgreSQL's too: up to {@value #MAX_INTEGER_DIGITS} digits before the decimal point (a weight of
 * at most 32767 base-10000 digits) and up to {@value #MAX_SCALE} after it ({@code NUMERIC_DSCALE_MAX}); anything
 * larger is refused before a {@link BigDecimal} is built, so that {@code 1e999999999} costs neither time nor memory.
 *
 * @param kind finite or which special value
 * @param decimal the value when finite, else null; a negative scale is stored as scale 0, as PostgreSQL keeps it
 */
public record PgNumeric(Kind kind, @Nullable BigDecimal decimal) implements Comparable<PgNumeric>, Summand {

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

  /** The most digits a numeric may have before the decimal point: 131072 ({@code numeric.c}'s int16 weight). */
  public static final int MAX_INTEGER_DIGITS = 131_072;
  /** The most digits a numeric may have after the decimal point: 16383 ({@code NUMERIC_DSCALE_MAX}). */
  public static final int MAX_SCALE = 16_383;
  /** The largest exponent {@code numeric_in} reads at all ({@code PG_INT32_MAX / 2}); beyond it, it overflows. */
  private static final long MAX_EXPONENT = Integer.MAX_VALUE / 2;

  /** {@code NaN}. */
  public static final PgNumeric NAN = new PgNumeric(Kind.NAN, null);
  /** {@code Infinity}. */
  public static final PgNumeric POSITIVE_INFINITY = new PgNumeric(Kind.POSITIVE_INFINITY, null);
  /** {@code -Infinity}. */
  public static final PgNumeric NEGATIVE_INFINITY = new PgNumeric(Kind.NEGATIVE_INFINITY, null);

  /**
   * Checks the kind against the decimal and the decimal against PostgreSQL's range; stores a negative scale as 0.
   *
   * @throws IllegalArgumentException when a finite value lacks its decimal or a special one has one
   * @throws ValueInvalidException when the decimal has more than {@value #MAX_INTEGER_DIGITS} digits before the
   *     point or more than {@value #MAX_SCALE} after it
   */
  public PgNumeric {
    Objects.requireNonNull(kind, "kind");
    if ((kind == Kind.FINITE) != (decimal != null)) {
      throw new IllegalArgumentException("A finite numeric needs its decimal, a special one has none");
    }
    if (decimal != null) {
      // Checked on precision and scale, which are cheap, before setScale or toPlainString could expand a huge
      // exponent into digits.
      if (decimal.scale() > MAX_SCALE) {
        throw tooManyFractionDigits(decimal.toString());
      }
      if (decimal.signum() != 0 && (long) decimal.precision() - decimal.scale() > MAX_INTEGER_DIGITS) {
        throw tooManyIntegerDigits(decimal.toString());
      }
      if (decimal.scale() < 0) {
        decimal = decimal.setScale(0);
      }
    }
  }

  /**
   * The finite numeric {@code value}, keeping its scale (a negative scale becomes 0).
   *
   * @throws ValueInvalidException when {@code value} is beyond PostgreSQL's numeric range
   */
  public static PgNumeric of(BigDecimal value) {
    return new PgNumeric(Kind.FINITE, Objects.requireNonNull(value, "value"));
  }

  /**
   * Parses PostgreSQL's text for a numeric: digits with an optional sign, point and exponent, or {@code NaN},
   * {@code Infinity}, {@code -Infinity} (case-insensitive, as {@code numeric_in} accepts them).
   *
   * @throws ValueInvalidException when {@code text} is not a numeric, or is one beyond PostgreSQL's range (more
   *     than {@value #MAX_INTEGER_DIGITS} digits before the point or {@value #MAX_SCALE} after it, counting the
   *     exponent)
   */
  public static PgNumeric parse(String text) {
    String t = text.trim();
    switch (Texts.lowerCase(t)) {
      case "nan" -> {
        return NAN;
      }
      case "infinity", "+infinity", "inf", "+inf" -> {
        return POSITIVE_INFINITY;
      }
      case "-infinity", "-inf" -> {
        return NEGATIVE_INFINITY;
      }
      default -> { }
    }
    if (!Digits.isDecimal(t)) {
      throw new ValueInvalidException("numeric", text, "is not a number");
    }
    checkRange(t, text);
    try {
      return of(new BigDecimal(t));
    } catch (NumberFormatException e) {
      throw new ValueInvalidException("numeric", text, "is not a number");
    }
  }

  /**
   * Refuses well-formed text beyond PostgreSQL's range, as {@code set_var_from_str} and {@code make_result} do,
   * from the text alone: the exponent, the digits after the point less the exponent (the scale), and the position
   * of the first non-zero digit plus the exponent (the digits before the point). A zero has no digits before the
   * point, whatever its exponent, but keeps its scale.
   */
  private static void checkRange(String t, String original) {
    int e = Math.max(t.indexOf('e'), t.indexOf('E'));
    String mantissa = e < 0 ? t : t.substring(0, e);
    long exponent = e < 0 ? 0 : exponent(t.substring(e + 1), original);
    int point = mantissa.indexOf('.');
    int signLength = mantissa.startsWith("+") || mantissa.startsWith("-") ? 1 : 0;
    String integer = point < 0 ? mantissa.substring(signLength) : mantissa.substring(signLength, point);
    String fraction = point < 0 ? "" : mantissa.substring(point + 1);
    if (fraction.length() - exponent > MAX_SCALE) {
      throw tooManyFractionDigits(original);
    }
    String digits = integer + fraction;
    for (int i = 0; i < digits.length(); i++) {
      if (digits.charAt(i) != '0') {
        long integerDigits = integer.length() - i + exponent; // the first non-zero digit's place, 1 for units
        if (integerDigits > MAX_INTEGER_DIGITS) {
          throw tooManyIntegerDigits(original);
        }
        return;
      }
    }
  }

  /** The exponent's value, refused (without overflowing a long) beyond what {@code numeric_in} reads. */
  private static long exponent(String text, String original) {
    int start = text.startsWith("+") || text.startsWith("-") ? 1 : 0;
    int first = start;
    while (first < text.length() - 1 && text.charAt(first) == '0') {
      first++;
    }
    String digits = text.substring(first);
    if (digits.length() > 10 || Long.parseLong(digits) > MAX_EXPONENT) {
      throw new ValueInvalidException("numeric", original, "overflows numeric format (its exponent is beyond "
          + MAX_EXPONENT + ")");
    }
    long value = Long.parseLong(digits);
    return text.startsWith("-") ? -value : value;
  }

  private static ValueInvalidException tooManyIntegerDigits(String value) {
    return new ValueInvalidException("numeric", value, "overflows numeric format (PostgreSQL keeps at most "
        + MAX_INTEGER_DIGITS + " digits before the decimal point)");
  }

  private static ValueInvalidException tooManyFractionDigits(String value) {
    return new ValueInvalidException("numeric", value, "overflows numeric format (PostgreSQL keeps at most "
        + MAX_SCALE + " digits after the decimal point)");
  }

  /**
   * This value plus {@code delta}, exact; NaN and the infinities stay as they are, as in PostgreSQL. An instance
   * method ({@link Summand}), so that a bundle whose app declares no {@code numeric} column, and so never makes one,
   * links no {@code java.math} through {@link Row#plus}.
   */
  @Override
  public PgNumeric plus(long delta) {
    return isFinite() ? of(Objects.requireNonNull(decimal).add(BigDecimal.valueOf(delta))) : this;
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
  // Not kind.compareTo: in a browser bundle TeaVM's Enum.compareTo links Class.getName for its error, bytes the
  // client's size cap has no room for; the kinds are declared in their order.
  @SuppressWarnings("EnumOrdinal")
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
