package io.runnel.dsl;

import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Texts;

/**
 * {@code uuid}: the canonical lower-case, hyphenated string; PostgreSQL orders uuids by their bytes, which is the
 * order of these strings.
 */
final class UuidType implements ColumnType {

  @Override
  public String sqlName() {
    return "uuid";
  }

  @Override
  public Object parse(String pgText) {
    return canonical(pgText);
  }

  /**
   * The canonical form of a uuid given as PostgreSQL accepts it (upper or lower case, with or without hyphens
   * after each group of four hex digits, optionally in braces).
   */
  static String canonical(String text) {
    String t = text;
    if (t.startsWith("{") && t.endsWith("}")) {
      t = t.substring(1, t.length() - 1);
    }
    StringBuilder hex = new StringBuilder(32);
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (c == '-' && i > 0 && hex.length() % 4 == 0 && i + 1 < t.length() && t.charAt(i - 1) != '-') {
        continue;
      }
      int d = Bytes.hexDigit(c);
      if (d < 0) {
        throw new ValueInvalidException("uuid", text, "is not a uuid (32 hex digits, optionally hyphenated)");
      }
      hex.append(d < 10 ? c : (char) ('a' + d - 10));
    }
    if (hex.length() != 32) {
      throw new ValueInvalidException("uuid", text, "is not a uuid (32 hex digits, optionally hyphenated)");
    }
    return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-"
        + hex.substring(16, 20) + "-" + hex.substring(20);
  }

  @Override
  public String format(Object value) {
    return (String) value;
  }

  @Override
  public JsonValue toJson(Object value) {
    return new JsonString((String) value);
  }

  @Override
  public Object fromJson(JsonValue json, String path) {
    if (json instanceof JsonString s) {
      try {
        return canonical(s.value());
      } catch (ValueInvalidException e) {
        throw new InputInvalidException(path, "is not a uuid", "Send a uuid such as "
            + "\"0b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69\".");
      }
    }
    throw new InputInvalidException(path, "must be a uuid string, not " + json.typeName(), "Send a uuid string.");
  }

  @Override
  public Object coerce(Object value) {
    if (value instanceof String s) {
      return canonical(s);
    }
    throw new ValueInvalidException("uuid", Texts.value(value), "is not a String");
  }

  @Override
  public boolean comparable() {
    return true;
  }

  @Override
  public boolean same(Object a, Object b) {
    return a instanceof String s ? s.equals(b) : SameValues.other(a, b);
  }

  @Override
  public int compare(Object a, Object b) {
    return ((String) a).compareTo((String) b);
  }

  @Override
  public String toString() {
    return "uuid";
  }
}
