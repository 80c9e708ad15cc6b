package io.runnel.dsl;

import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Texts;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * {@code numeric}: {@link PgNumeric}, exact; JSON strings with PostgreSQL's exact digits ({@code "0.10"},
 * {@code "NaN"}); a JSON number is accepted on input and keeps its digits. Values beyond PostgreSQL's range
 * ({@link PgNumeric#MAX_INTEGER_DIGITS} digits before the point, {@link PgNumeric#MAX_SCALE} after it) are refused.
 */
final class NumericType implements ColumnType {

  @Override
  public String sqlName() {
    return "numeric";
  }

  @Override
  public Object parse(String pgText) {
    return PgNumeric.parse(pgText);
  }

  @Override
  public String format(Object value) {
    return ((PgNumeric) value).text();
  }

  @Override
  public JsonValue toJson(Object value) {
    return new JsonString(((PgNumeric) value).text());
  }

  @Override
  public Object fromJson(JsonValue json, String path) {
    String text;
    if (json instanceof JsonString s) {
      text = s.value();
    } else if (json instanceof JsonNumber n) {
      text = n.text();
    } else {
      throw new InputInvalidException(path, "must be a numeric string such as \"0.10\", not " + json.typeName(),
          "Send the number as a string of its exact digits.");
    }
    try {
      return PgNumeric.parse(text);
    } catch (ValueInvalidException e) {
      throw new InputInvalidException(path, "is not a numeric PostgreSQL accepts (" + e.clause() + ")",
          "Send digits such as \"12.50\", or \"NaN\", with at most " + PgNumeric.MAX_INTEGER_DIGITS
              + " digits before the point and " + PgNumeric.MAX_SCALE + " after it.");
    }
  }

  @Override
  public Object coerce(Object value) {
    if (value instanceof PgNumeric n) {
      return n;
    }
    if (value instanceof BigDecimal d) {
      return PgNumeric.of(d);
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      return PgNumeric.of(BigDecimal.valueOf(((Number) value).longValue()));
    }
    if (value instanceof Double d) {
      if (d.isNaN()) {
        return PgNumeric.NAN;
      }
      if (d.isInfinite()) {
        return d > 0 ? PgNumeric.POSITIVE_INFINITY : PgNumeric.NEGATIVE_INFINITY;
      }
      return PgNumeric.parse(FloatType.text(d, false));
    }
    if (value instanceof String s) {
      return PgNumeric.parse(s);
    }
    throw new ValueInvalidException("numeric", Texts.value(value), "is a " + Texts.kind(value)
        + ", not a number");
  }

  /** A finite value without trailing zeros at scale 0 or above ({@code 1.00} and {@code 1} both as {@code 1}). */
  @Override
  public Object routingValue(Object value) {
    PgNumeric n = (PgNumeric) value;
    if (!n.isFinite()) {
      return n;
    }
    BigDecimal d = Objects.requireNonNull(n.decimal());
    return PgNumeric.of(d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros());
  }

  @Override
  public boolean comparable() {
    return true;
  }

  @Override
  public boolean same(Object a, Object b) {
    return a instanceof PgNumeric n ? n.equals(b) : SameValues.other(a, b);
  }

  @Override
  public int compare(Object a, Object b) {
    return ((PgNumeric) a).compareTo((PgNumeric) b);
  }

  @Override
  public String toString() {
    return "numeric";
  }
}
