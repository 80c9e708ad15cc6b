package io.runnel.dsl;

import io.runnel.wire.InputInvalidException;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonPath;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonSyntaxException;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Texts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code json} and {@code jsonb}: a {@link JsonValue}, embedded as is in JSON. Not comparable in process
 * ({@code jsonb}'s ordering rules are PostgreSQL-internal): filters may only test them for NULL.
 *
 * <p>Text: a {@code jsonb} prints as {@code jsonb_out} does; a {@code json} document is kept verbatim by
 * PostgreSQL, so it has no one text, and Runnel writes it compactly.
 *
 * <p>A {@code jsonb} number is a {@code numeric} to PostgreSQL, so one beyond numeric's range
 * ({@link PgNumeric#parse}) is refused on every way in; a {@code json} document keeps any number's text.
 *
 * <p>A {@code json} value whose text repeats a member name is refused ({@code jsonb} keeps the last one, so use
 * {@code jsonb}); a document that is JSON {@code null} cannot be told from SQL NULL on the wire.
 */
final class JsonDocumentType implements ColumnType {

  private final String name;

  JsonDocumentType(String name) {
    this.name = name;
  }

  @Override
  public String sqlName() {
    return name;
  }

  @Override
  public Object parse(String pgText) {
    JsonValue value;
    try {
      value = Json.parse(pgText);
    } catch (JsonSyntaxException e) {
      throw new ValueInvalidException(name, pgText, "is not JSON Runnel accepts: " + e.cause());
    }
    return checked(value, pgText);
  }

  /** {@code value} when its numbers fit {@code jsonb} (each is a {@code numeric}); a {@code json} keeps any. */
  private JsonValue checked(JsonValue value, @Nullable String text) {
    try {
      checkNumbers(value, "");
    } catch (InputInvalidException e) {
      throw new ValueInvalidException(name, text != null ? text : Json.write(value),
          "holds a number jsonb refuses: " + e.cause());
    }
    return value;
  }

  /**
   * Refuses, naming its path, a number in a {@code jsonb} document that {@code numeric} would refuse
   * ({@link PgNumeric#parse}): PostgreSQL stores each as a numeric, so {@code 1e999999999} is an error there, and
   * writing it as {@code jsonb_out} does would expand the exponent into digits.
   */
  private void checkNumbers(JsonValue value, String path) {
    if (name.equals("json")) {
      return;
    }
    switch (value) {
      case JsonObject o -> o.members().forEach((k, v) -> checkNumbers(v, JsonPath.member(path, k)));
      case JsonArray a -> {
        for (int i = 0; i < a.size(); i++) {
          checkNumbers(a.get(i), JsonPath.element(path, i));
        }
      }
      case JsonNumber n -> {
        try {
          PgNumeric.parse(n.text());
        } catch (ValueInvalidException e) {
          throw new InputInvalidException(path, "is a number beyond PostgreSQL's numeric range",
              "Send at most " + PgNumeric.MAX_INTEGER_DIGITS + " digits before the point and " + PgNumeric.MAX_SCALE
                  + " after it, or the number as a string.");
        }
      }
      case JsonString str -> { }
      case JsonBoolean b -> { }
      case JsonNull nul -> { }
    }
  }

  @Override
  public String format(Object value) {
    if (name.equals("json")) {
      return Json.write((JsonValue) value);
    }
    StringBuilder out = new StringBuilder();
    writeJsonb((JsonValue) value, out);
    return out.toString();
  }

  /**
   * {@code jsonb_out}'s text ({@code JsonbToCString} in {@code src/backend/utils/adt/jsonb.c}): {@code ", "} and
   * {@code ": "} between items, members in jsonb's order (a shorter name first, then by UTF-8 bytes:
   * {@code lengthCompareJsonbStringValue} in {@code jsonb_util.c}), numbers as {@code numeric} prints them.
   */
  private static void writeJsonb(JsonValue value, StringBuilder out) {
    switch (value) {
      case JsonObject o -> {
        List<Map.Entry<String, JsonValue>> members = new ArrayList<>(o.members().entrySet());
        members.sort((a, b) -> compareJsonbKeys(a.getKey(), b.getKey()));
        out.append('{');
        for (int i = 0; i < members.size(); i++) {
          out.append(i == 0 ? "" : ", ").append(Json.write(new JsonString(members.get(i).getKey()))).append(": ");
          writeJsonb(members.get(i).getValue(), out);
        }
        out.append('}');
      }
      case JsonArray a -> {
        out.append('[');
        for (int i = 0; i < a.size(); i++) {
          out.append(i == 0 ? "" : ", ");
          writeJsonb(a.get(i), out);
        }
        out.append(']');
      }
      case JsonNumber n -> out.append(PgNumeric.parse(n.text()).text());
      case JsonString s -> out.append(Json.write(s));
      case JsonBoolean b -> out.append(b.value() ? "true" : "false");
      case JsonNull n -> out.append("null");
    }
  }

  private static int compareJsonbKeys(String a, String b) {
    byte[] x = a.getBytes(StandardCharsets.UTF_8);
    byte[] y = b.getBytes(StandardCharsets.UTF_8);
    if (x.length != y.length) {
      return Integer.compare(x.length, y.length);
    }
    for (int i = 0; i < x.length; i++) {
      int c = Integer.compare(x[i] & 0xff, y[i] & 0xff);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  @Override
  public JsonValue toJson(Object value) {
    return (JsonValue) value;
  }

  @Override
  public Object fromJson(JsonValue json, String path) {
    checkNumbers(json, path);
    return json;
  }

  @Override
  public Object coerce(Object value) {
    if (value instanceof JsonValue v) {
      return checked(v, null);
    }
    if (value instanceof String s) {
      return parse(s);
    }
    throw new ValueInvalidException(name, Texts.value(value), "is not a JsonValue or JSON text");
  }

  @Override
  public boolean comparable() {
    return false;
  }

  @Override
  public boolean same(Object a, Object b) {
    return a instanceof JsonValue j ? j.equals(b) : SameValues.other(a, b);
  }

  @Override
  public int compare(Object a, Object b) {
    throw new UnsupportedOperationException(name + " values are not compared in process");
  }

  @Override
  public String toString() {
    return name;
  }
}
