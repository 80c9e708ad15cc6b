package io.runnel.dsl;

import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Texts;

/** {@code text} and {@code varchar}: Java strings, ordered by code point as under {@code COLLATE "C"}. */
final class TextType implements ColumnType {

  private final String name;

  TextType(String name) {
    this.name = name;
  }

  @Override
  public String sqlName() {
    return name;
  }

  @Override
  public Object parse(String pgText) {
    return coerce(pgText);
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
      return checkNoNul(s.value(), path);
    }
    throw new InputInvalidException(path, "must be a string, not " + json.typeName(), "Send a JSON string.");
  }

  private String checkNoNul(String s, String path) {
    if (s.indexOf('\0') >= 0) {
      throw new InputInvalidException(path, "holds a NUL character, which PostgreSQL text cannot store",
          "Remove the \\0 characters.");
    }
    return s;
  }

  @Override
  public Object coerce(Object value) {
    if (value instanceof String s) {
      if (s.indexOf('\0') >= 0) {
        throw new ValueInvalidException(name, s, "holds a NUL character, which PostgreSQL text cannot store");
      }
      return s;
    }
    throw new ValueInvalidException(name, Texts.value(value), "is a " + Texts.kind(value)
        + ", not a String");
  }

  @Override
  public boolean comparable() {
    return true;
  }

  @Override
  public boolean textual() {
    return true;
  }

  @Override
  public boolean same(Object a, Object b) {
    return a instanceof String s ? s.equals(b) : SameValues.other(a, b);
  }

  @Override
  public int compare(Object a, Object b) {
    return compareCodePoints((String) a, (String) b);
  }

  /**
   * Code point order, which is the byte order of UTF-8 and so {@code COLLATE "C"}'s order (String.compareTo
   * compares UTF-16 units, which puts U+E000–U+FFFF after the astral planes).
   */
  static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }

  @Override
  public String toString() {
    return name;
  }
}
