package io.runnel.dsl;

import io.runnel.wire.Digits;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Numbers;
import io.runnel.wire.Texts;

/**
 * {@code int2}, {@code int4} ({@code Integer}) and {@code int8} ({@code Long}). In JSON int2 and int4 are numbers;
 * int8 is a string of digits, since JavaScript numbers round past 2^53 ({@code docs/protocol.md}, "Values"); a JSON
 * integer is accepted for int8 on input.
 */
final class IntegerType implements ColumnType {

  private final String name;
  private final long min;
  private final long max;

  IntegerType(String name, long min, long max) {
    this.name = name;
    this.min = min;
    this.max = max;
  }

  private boolean wide() {
    return max == Long.MAX_VALUE;
  }

  @Override
  public String sqlName() {
    return name;
  }

  @Override
  public Object parse(String pgText) {
    String t = pgText.trim();
    if (!Digits.isSignedInteger(t, 19)) {
      throw new ValueInvalidException(name, pgText, "is not an integer");
    }
    try {
      return box(Digits.parseLong(t), pgText);
    } catch (NumberFormatException e) {
      throw new ValueInvalidException(name, pgText, "is out of range for " + name);
    }
  }

  private Object box(long v, String original) {
    if (v < min || v > max) {
      throw new ValueInvalidException(name, original, "is out of range for " + name);
    }
    return wide() ? (Object) v : (Object) (int) v;
  }

  @Override
  public String format(Object value) {
    // A bundle spells the integer itself: value.toString() would link every class's toString (see Texts).
    return Numbers.inBrowser() ? Long.toString(((Number) value).longValue()) : value.toString();
  }

  @Override
  public JsonValue toJson(Object value) {
    long v = ((Number) value).longValue();
    return wide() ? new JsonString(Long.toString(v)) : JsonNumber.of(v);
  }

  @Override
  public Object fromJson(JsonValue json, String path) {
    if (json instanceof JsonNumber n && n.isPlainInteger()) {
      try {
        return box(n.longValueExact(), n.text());
      } catch (ArithmeticException | ValueInvalidException e) {
        throw outOfRange(path);
      }
    }
    if (wide() && json instanceof JsonString s && Digits.isLongText(s.value())) {
      try {
        return Digits.parseLong(s.value());
      } catch (NumberFormatException e) {
        throw outOfRange(path);
      }
    }
    throw new InputInvalidException(path, "must be " + (wide() ? "an int8 (a string of digits)" : "an integer")
        + ", not " + json.typeName() + " " + json, wide()
        ? "Send the integer as a string of digits, for example \"9007199254740993\"."
        : "Send a whole JSON number without fraction or exponent.");
  }

  private InputInvalidException outOfRange(String path) {
    return new InputInvalidException(path, "is out of range for " + name,
        "Send an integer from " + min + " to " + max + ".");
  }

  @Override
  public Object coerce(Object value) {
    if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
      return box(((Number) value).longValue(), Long.toString(((Number) value).longValue()));
    }
    if (value instanceof String s) {
      return parse(s);
    }
    throw new ValueInvalidException(name, Texts.value(value), "is a " + Texts.kind(value)
        + ", not an integer");
  }

  @Override
  public boolean comparable() {
    return true;
  }

  @Override
  public boolean same(Object a, Object b) {
    return a instanceof Integer i ? i.equals(b) : a instanceof Long l ? l.equals(b) : SameValues.other(a, b);
  }

  @Override
  public int compare(Object a, Object b) {
    return Long.compare(((Number) a).longValue(), ((Number) b).longValue());
  }

  @Override
  public String toString() {
    return name;
  }
}
