package io.runnel.dsl;

import io.runnel.wire.Digits;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Numbers;
import io.runnel.wire.Texts;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * {@code float4} ({@code Float}) and {@code float8} ({@code Double}).
 *
 * <p>Text: PostgreSQL 12+ prints the shortest digits that round-trip (never a decimal exactly halfway between two
 * floats), in exponent form when the decimal exponent is
 * below -4 or at least 15 (float8) / 6 (float4), with at least two exponent digits ({@code 1e+20}, {@code 1.5e-07};
 * {@code float8out} in {@code src/backend/utils/adt/float.c} and {@code common/d2s.c}). Order: {@code NaN} equals
 * itself and sorts above every other value; {@code -0} equals {@code 0} ({@code float8_cmp_internal}).
 * JSON: numbers, with {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"} as strings.
 */
final class FloatType implements ColumnType {

  private final boolean single;

  FloatType(boolean single) {
    this.single = single;
  }

  @Override
  public String sqlName() {
    return single ? "float4" : "float8";
  }

  @Override
  public Object parse(String pgText) {
    String t = pgText.trim();
    return switch (Texts.lowerCase(t)) {
      case "nan" -> box(Double.NaN, pgText);
      case "infinity", "+infinity", "inf", "+inf" -> box(Double.POSITIVE_INFINITY, pgText);
      case "-infinity", "-inf" -> box(Double.NEGATIVE_INFINITY, pgText);
      default -> {
        if (!Digits.isDecimal(t)) {
          throw new ValueInvalidException(sqlName(), pgText, "is not a number");
        }
        yield digits(t, pgText);
      }
    };
  }

  /**
   * Reads decimal digits as {@code float4in}/{@code float8in} do ({@code src/backend/utils/adt/float.c}): rounded
   * once, straight to the type's precision (a float4 read through a double would be rounded twice), and refused
   * when they overflow or underflow to zero.
   */
  private Object digits(String t, String original) {
    FloatSum.install();
    double d = single ? Float.parseFloat(t) : Numbers.parseDouble(t);
    if (Double.isInfinite(d)) {
      throw new ValueInvalidException(sqlName(), original, "is out of range for " + sqlName());
    }
    if (d == 0 && hasNonZeroDigit(t)) {
      throw new ValueInvalidException(sqlName(), original, "is too close to zero for " + sqlName()
          + " (PostgreSQL refuses an underflow)");
    }
    return single ? (Object) (float) d : (Object) d;
  }

  private static boolean hasNonZeroDigit(String t) {
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (c == 'e' || c == 'E') {
        return false;
      }
      if (c >= '1' && c <= '9') {
        return true;
      }
    }
    return false;
  }

  private Object box(double d, String original) {
    FloatSum.install();
    if (single) {
      float f = single(d, original);
      return f;
    }
    if (Double.isInfinite(d) && !Texts.lowerCase(original).contains("inf")) {
      throw new ValueInvalidException("float8", original, "is out of range for float8");
    }
    return d;
  }

  private float single(double d, String original) {
    float f = (float) d;
    if (Float.isInfinite(f) && !Double.isInfinite(d)) {
      throw new ValueInvalidException("float4", original, "is out of range for float4");
    }
    return f;
  }

  /** {@code -0} as {@code 0}, which {@link #compare} equates with it; every other value (NaN too) as it is. */
  @Override
  public Object routingValue(Object value) {
    if (single) {
      float f = (Float) value;
      return f == 0 ? (Object) 0f : value;
    }
    double d = (Double) value;
    return d == 0 ? (Object) 0d : value;
  }

  @Override
  public String format(Object value) {
    return single ? text(((Float) value).floatValue(), true) : text((Double) value, false);
  }

  /** PostgreSQL's text for a float: shortest round-trip digits, exponent form outside its decimal range. */
  static String text(double value, boolean single) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Infinity" : "-Infinity";
    }
    if (value == 0) {
      return 1 / value < 0 ? "-0" : "0";
    }
    BigDecimal shortest = shortest(Math.abs(value), single);
    String digits = shortest.unscaledValue().toString();
    int pointAt = digits.length() - shortest.scale(); // digits before the decimal point
    int sciExp = pointAt - 1;
    StringBuilder out = new StringBuilder(value < 0 ? "-" : "");
    int limit = single ? 6 : 15;
    if (sciExp < -4 || sciExp >= limit) {
      out.append(digits.charAt(0));
      if (digits.length() > 1) {
        out.append('.').append(digits, 1, digits.length());
      }
      out.append('e').append(sciExp < 0 ? '-' : '+');
      int abs = Math.abs(sciExp);
      if (abs < 10) {
        out.append('0');
      }
      out.append(abs);
    } else if (pointAt <= 0) {
      out.append("0.");
      for (int i = 0; i < -pointAt; i++) {
        out.append('0');
      }
      out.append(digits);
    } else if (pointAt >= digits.length()) {
      out.append(digits);
      for (int i = digits.length(); i < pointAt; i++) {
        out.append('0');
      }
    } else {
      out.append(digits, 0, pointAt).append('.').append(digits, pointAt, digits.length());
    }
    return out.toString();
  }

  /**
   * One half, in a holder so that making the column types (all of them, in {@link ColumnType}) builds no BigDecimal.
   */
  private static final class Half {
    static final BigDecimal HALF = new BigDecimal("0.5");
  }

  /**
   * The digits PostgreSQL prints for a positive finite {@code abs}: the shortest decimal strictly inside the
   * interval of values that read back as {@code abs}, and of those the closest to it (Ryu, built with {@code
   * STRICTLY_SHORTEST} off: {@code src/common/ryu_common.h} and {@code d2s.c}, so that a decimal exactly halfway to
   * the next float is never printed). Java's {@code toString} differs in two ways: it may pick that halfway decimal
   * ({@code 5.710481570177606E16} where PostgreSQL prints {@code 5.7104815701776064e+16}), and it prints two digits
   * where one would do ({@code 4.9E-324}, PostgreSQL {@code 5e-324}); then the digits are searched for here.
   *
   * @return the digits with no trailing zeros
   */
  private static BigDecimal shortest(double abs, boolean single) {
    BigDecimal exact = new BigDecimal(abs);
    double below = single ? Math.nextDown((float) abs) : Math.nextDown(abs);
    double above = single ? Math.nextUp((float) abs) : Math.nextUp(abs);
    BigDecimal low = exact.add(new BigDecimal(below)).multiply(Half.HALF);
    BigDecimal high = Double.isInfinite(above)
        ? exact.add(new BigDecimal(single ? Math.ulp((float) abs) : Math.ulp(abs)).multiply(Half.HALF))
        : exact.add(new BigDecimal(above)).multiply(Half.HALF);
    if (!Numbers.inBrowser()) {
      // A fast path only: when Java's digits are strictly inside, they are what the search below finds. A bundle
      // skips it, to hold no Java toString of floats.
      BigDecimal java = new BigDecimal(single ? Float.toString((float) abs) : Double.toString(abs))
          .stripTrailingZeros();
      if (java.precision() != 2 && inside(java, low, high)) {
        return java;
      }
    }
    for (int precision = 1; ; precision++) {
      BigDecimal down = exact.round(new MathContext(precision, RoundingMode.FLOOR));
      BigDecimal up = exact.round(new MathContext(precision, RoundingMode.CEILING));
      boolean downInside = inside(down, low, high);
      boolean upInside = inside(up, low, high);
      if (downInside || upInside) {
        BigDecimal pick;
        if (downInside && upInside) {
          int c = exact.subtract(down).compareTo(up.subtract(exact));
          pick = c < 0 || (c == 0 && !down.unscaledValue().testBit(0)) ? down : up;
        } else {
          pick = downInside ? down : up;
        }
        return pick.stripTrailingZeros();
      }
    }
  }

  private static boolean inside(BigDecimal d, BigDecimal low, BigDecimal high) {
    return d.compareTo(low) > 0 && d.compareTo(high) < 0;
  }

  @Override
  public JsonValue toJson(Object value) {
    double d = ((Number) value).doubleValue();
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return new JsonString(format(value));
    }
    return new JsonNumber(format(value));
  }

  @Override
  public Object fromJson(JsonValue json, String path) {
    if (json instanceof JsonNumber n) {
      try {
        return digits(n.text(), n.text());
      } catch (ValueInvalidException e) {
        throw new InputInvalidException(path, "is out of range for " + sqlName() + ": " + e.cause(),
            "Send a number " + sqlName() + " can hold.");
      }
    }
    if (json instanceof JsonString s) {
      switch (s.value()) {
        case "NaN" -> {
          return box(Double.NaN, "NaN");
        }
        case "Infinity" -> {
          return box(Double.POSITIVE_INFINITY, "Infinity");
        }
        case "-Infinity" -> {
          return box(Double.NEGATIVE_INFINITY, "-Infinity");
        }
        default -> { }
      }
    }
    throw new InputInvalidException(path, "must be a number (or \"NaN\", \"Infinity\", \"-Infinity\"), not "
        + json.typeName(), "Send a JSON number.");
  }

  @Override
  public Object coerce(Object value) {
    if (value instanceof Double || value instanceof Float || value instanceof Integer || value instanceof Long
        || value instanceof Short) {
      return box(((Number) value).doubleValue(), value.toString());
    }
    if (value instanceof String s) {
      return parse(s);
    }
    throw new ValueInvalidException(sqlName(), Texts.value(value), "is a " + Texts.kind(value)
        + ", not a number");
  }

  @Override
  public boolean comparable() {
    return true;
  }

  @Override
  public boolean same(Object a, Object b) {
    return a instanceof Double d ? d.equals(b) : a instanceof Float f ? f.equals(b) : SameValues.other(a, b);
  }

  @Override
  public int compare(Object a, Object b) {
    double x = ((Number) a).doubleValue();
    double y = ((Number) b).doubleValue();
    // == makes -0 equal 0; Double.compare puts NaN above everything and equal to itself, as PostgreSQL does.
    return x == y ? 0 : Double.compare(x, y);
  }

  @Override
  public String toString() {
    return sqlName();
  }
}
