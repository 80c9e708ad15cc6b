package io.runnel.dsl;

import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Texts;

/** {@code bytea}: {@link Bytes}; PostgreSQL's hex text; in JSON standard base64 with padding (RFC 4648). */
final class ByteaType implements ColumnType {

  @Override
  public String sqlName() {
    return "bytea";
  }

  @Override
  public Object parse(String pgText) {
    return Bytes.parseHex(pgText);
  }

  @Override
  public String format(Object value) {
    return ((Bytes) value).hex();
  }

  @Override
  public JsonValue toJson(Object value) {
    return new JsonString(((Bytes) value).base64());
  }

  @Override
  public Object fromJson(JsonValue json, String path) {
    if (json instanceof JsonString s) {
      try {
        return Bytes.parseBase64(s.value());
      } catch (ValueInvalidException e) {
        throw new InputInvalidException(path, "is not base64: " + e.cause(),
            "Send the bytes as standard base64 with padding (RFC 4648).");
      }
    }
    throw new InputInvalidException(path, "must be a base64 string, not " + json.typeName(),
        "Send the bytes as standard base64 with padding (RFC 4648).");
  }

  @Override
  public Object coerce(Object value) {
    if (value instanceof Bytes b) {
      return b;
    }
    if (value instanceof byte[] a) {
      return Bytes.of(a);
    }
    if (value instanceof String s) {
      return Bytes.parseHex(s);
    }
    throw new ValueInvalidException("bytea", Texts.value(value), "is not Bytes, byte[] or \\x hex text");
  }

  @Override
  public boolean comparable() {
    return true;
  }

  @Override
  public boolean same(Object a, Object b) {
    return a instanceof Bytes x ? x.equals(b) : SameValues.other(a, b);
  }

  @Override
  public int compare(Object a, Object b) {
    return ((Bytes) a).compareTo((Bytes) b);
  }

  @Override
  public String toString() {
    return "bytea";
  }
}
