package io.runnel.dsl;

import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonPath;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Texts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One-dimensional arrays ({@code text[]}, {@code int8[]}): an unmodifiable {@code List} whose elements may be
 * null. Text is PostgreSQL's array literal ({@code {a,"b c",NULL}}, {@code array_out} in
 * {@code src/backend/utils/adt/arrayfuncs.c}); JSON is an array of the element's encoding. Not comparable in
 * process: filters may only test them for NULL.
 */
final class ArrayType implements ColumnType {

  private final ColumnType element;

  ArrayType(ColumnType element) {
    this.element = element;
  }

  @Override
  public String sqlName() {
    return element.sqlName() + "[]";
  }

  @Override
  public Object parse(String pgText) {
    String t = strip(pgText);
    if (t.startsWith("[")) {
      throw new ValueInvalidException(sqlName(), pgText, "has explicit bounds; Runnel reads arrays starting at 1");
    }
    if (!t.startsWith("{") || !t.endsWith("}") || t.length() < 2) {
      throw new ValueInvalidException(sqlName(), pgText, "is not an array literal");
    }
    List<Object> out = new ArrayList<>();
    int end = t.length() - 1;
    int i = skipSpace(t, 1, end);
    if (i == end) {
      return Collections.unmodifiableList(out);
    }
    while (true) {
      i = skipSpace(t, i, end);
      if (i < end && t.charAt(i) == '{') {
        throw new ValueInvalidException(sqlName(), pgText, "has more than one dimension");
      }
      StringBuilder s = new StringBuilder();
      boolean quoted = i < end && t.charAt(i) == '"';
      boolean escaped = false;
      if (quoted) {
        i++;
        while (i < end && t.charAt(i) != '"') {
          if (t.charAt(i) == '\\') {
            i++;
          }
          if (i < end) {
            s.append(t.charAt(i++));
          }
        }
        if (i >= end) {
          throw new ValueInvalidException(sqlName(), pgText, "has an unterminated quoted element");
        }
        i++;
      } else {
        // An unquoted element runs to the next comma; a backslash takes the next character as is, and
        // white space at either end that no backslash protects is dropped (ReadArrayElement in arrayfuncs.c).
        int kept = 0;
        while (i < end && t.charAt(i) != ',') {
          char c = t.charAt(i);
          if (c == '"' || c == '{' || c == '}') {
            throw new ValueInvalidException(sqlName(), pgText, "has an unexpected " + c + " in an element");
          }
          if (c == '\\') {
            if (++i == end) {
              throw new ValueInvalidException(sqlName(), pgText, "ends in a backslash");
            }
            s.append(t.charAt(i++));
            kept = s.length();
            escaped = true;
          } else {
            s.append(c);
            i++;
            if (!isSpace(c)) {
              kept = s.length();
            }
          }
        }
        s.setLength(kept);
        if (kept == 0 && !escaped) {
          throw new ValueInvalidException(sqlName(), pgText, "has an empty element (quote it: \"\")");
        }
      }
      String e = s.toString();
      out.add(!quoted && !escaped && e.equalsIgnoreCase("NULL") ? null : parseElement(e, pgText));
      i = skipSpace(t, i, end);
      if (i == end) {
        return Collections.unmodifiableList(out);
      }
      if (t.charAt(i) != ',') {
        throw new ValueInvalidException(sqlName(), pgText, "has text after an element");
      }
      i++;
    }
  }

  private Object parseElement(String text, String pgText) {
    try {
      return element.parse(text);
    } catch (ValueInvalidException e) {
      throw new ValueInvalidException(sqlName(), pgText, "has an element that is not a " + element.sqlName() + ": "
          + e.cause());
    }
  }

  /**
   * The white space of PostgreSQL's array literals: {@code scanner_isspace} in {@code src/backend/parser/scansup.c}
   * (space, tab, newline, carriage return, vertical tab, form feed), not Unicode's.
   */
  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\u000b' || c == '\f';
  }

  private static int skipSpace(String t, int from, int end) {
    int i = from;
    while (i < end && isSpace(t.charAt(i))) {
      i++;
    }
    return i;
  }

  private static String strip(String s) {
    int from = 0;
    int to = s.length();
    while (from < to && isSpace(s.charAt(from))) {
      from++;
    }
    while (to > from && isSpace(s.charAt(to - 1))) {
      to--;
    }
    return s.substring(from, to);
  }

  @Override
  public String format(Object value) {
    StringBuilder s = new StringBuilder("{");
    boolean first = true;
    for (Object e : (List<?>) value) {
      if (!first) {
        s.append(',');
      }
      first = false;
      if (e == null) {
        s.append("NULL");
        continue;
      }
      String text = element.format(e);
      if (needsQuotes(text)) {
        s.append('"');
        for (int i = 0; i < text.length(); i++) {
          char c = text.charAt(i);
          if (c == '"' || c == '\\') {
            s.append('\\');
          }
          s.append(c);
        }
        s.append('"');
      } else {
        s.append(text);
      }
    }
    return s.append('}').toString();
  }

  /**
   * Whether {@code array_out} quotes an element: empty, {@code NULL} in any case, or holding a brace, the comma, a
   * quote, a backslash or white space.
   */
  private static boolean needsQuotes(String text) {
    if (text.isEmpty() || text.equalsIgnoreCase("NULL")) {
      return true;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || isSpace(c)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public JsonValue toJson(Object value) {
    List<JsonValue> out = new ArrayList<>();
    for (Object e : (List<?>) value) {
      out.add(e == null ? JsonNull.NULL : element.toJson(e));
    }
    return new JsonArray(out);
  }

  @Override
  public Object fromJson(JsonValue json, String path) {
    if (!(json instanceof JsonArray a)) {
      throw new InputInvalidException(path, "must be an array, not " + json.typeName(),
          "Send a JSON array of " + element.sqlName() + " values.");
    }
    List<Object> out = new ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) {
      JsonValue e = a.get(i);
      out.add(e == JsonNull.NULL ? null : element.fromJson(e, JsonPath.element(path, i)));
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  public Object coerce(Object value) {
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object e : list) {
        out.add(e == null ? null : element.coerce(e));
      }
      return Collections.unmodifiableList(out);
    }
    if (value instanceof String s) {
      return parse(s);
    }
    throw new ValueInvalidException(sqlName(), Texts.value(value), "is not a List or an array literal");
  }

  @Override
  public boolean comparable() {
    return false;
  }

  @Override
  public boolean same(Object a, Object b) {
    if (!(a instanceof List<?> x)) {
      return SameValues.other(a, b);
    }
    if (!(b instanceof List<?> y) || x.size() != y.size()) {
      return false;
    }
    for (int i = 0; i < x.size(); i++) {
      if (!SameValues.same(element, x.get(i), y.get(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int compare(Object a, Object b) {
    throw new UnsupportedOperationException(sqlName() + " values are not compared in process");
  }

  @Override
  public String toString() {
    return sqlName();
  }
}
