package io.runnel.dsl;

import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;

/**
 * {@code float4} ({@code Float}) and {@code float8} ({@code Double}).
 *
 * <p>Text: PostgreSQL 12+ prints the shortest digits that round-trip, in exponent form when the decimal exponent is
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
    double d;
    switch (t.toLowerCase()) {
      case "nan" -> d = Double.NaN;
      case "infinity", "+infinity", "inf", "+inf" -> d = Double.POSITIVE_INFINITY;
      case "-infinity", "-inf" -> d = Double.NEGATIVE_INFINITY;
      default -> {
        if (!t.matches("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?")) {
          throw new ValueInvalidException(sqlName(), pgText, "is not a number");
        }
        d = Double.parseDouble(t);
      }
    }
    return box(d, pgText);
  }

  private Object box(double d, String original) {
    if (single) {
      float f = single(d, original);
      return f;
    }
    if (Double.isInfinite(d) && !original.toLowerCase().contains("inf")) {
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
    String java = single ? Float.toString((float) Math.abs(value)) : Double.toString(Math.abs(value));
    int e = java.indexOf('E');
    String mantissa = e < 0 ? java : java.substring(0, e);
    int exp = e < 0 ? 0 : Integer.parseInt(java.substring(e + 1));
    int dot = mantissa.indexOf('.');
    String digits = mantissa.substring(0, dot) + mantissa.substring(dot + 1);
    int pointAt = dot + exp; // digits before the decimal point
    int lead = 0;
    while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
      lead++;
    }
    digits = digits.substring(lead);
    pointAt -= lead;
    int end = digits.length();
    while (end > 1 && digits.charAt(end - 1) == '0') {
      end--;
    }
    digits = digits.substring(0, end);
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
        return box(n.doubleValue(), n.text());
      } catch (ValueInvalidException e) {
        throw new InputInvalidException(path, "is out of range for " + sqlName(), "Send a smaller number.");
      }
    }
    if (json instanceof JsonString s) {
      switch (s.value()) {
        case "NaN":
          return box(Double.NaN, "NaN");
        case "Infinity":
          return box(Double.POSITIVE_INFINITY, "Infinity");
        case "-Infinity":
          return box(Double.NEGATIVE_INFINITY, "-Infinity");
        default:
          break;
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
    throw new ValueInvalidException(sqlName(), String.valueOf(value), "is a " + value.getClass().getSimpleName()
        + ", not a number");
  }

  @Override
  public boolean comparable() {
    return true;
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
