package io.runnel.dsl;

import io.runnel.wire.Json;
import io.runnel.wire.JsonSyntaxException;
import io.runnel.wire.JsonValue;

/**
 * {@code json} and {@code jsonb}: a {@link JsonValue}, embedded as is in JSON. Not comparable in process
 * ({@code jsonb}'s ordering rules are PostgreSQL-internal): filters may only test them for NULL.
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
    try {
      return Json.parse(pgText);
    } catch (JsonSyntaxException e) {
      throw new ValueInvalidException(name, pgText, "is not JSON Runnel accepts: " + e.cause());
    }
  }

  @Override
  public String format(Object value) {
    return Json.write((JsonValue) value);
  }

  @Override
  public JsonValue toJson(Object value) {
    return (JsonValue) value;
  }

  @Override
  public Object fromJson(JsonValue json, String path) {
    return json;
  }

  @Override
  public Object coerce(Object value) {
    if (value instanceof JsonValue v) {
      return v;
    }
    if (value instanceof String s) {
      return parse(s);
    }
    throw new ValueInvalidException(name, String.valueOf(value), "is not a JsonValue or JSON text");
  }

  @Override
  public boolean comparable() {
    return false;
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
