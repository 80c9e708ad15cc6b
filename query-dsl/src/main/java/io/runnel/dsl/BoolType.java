package io.runnel.dsl;

import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Texts;

/** {@code bool}: {@code Boolean}; PostgreSQL prints {@code t} and {@code f}; {@code false} sorts first. */
final class BoolType implements ColumnType {

  @Override
  public String sqlName() {
    return "bool";
  }

  @Override
  public Object parse(String pgText) {
    // boolin accepts these words (and unique prefixes, which Runnel does not need).
    return switch (Texts.lowerCase(pgText.trim())) {
      case "t", "true", "yes", "on", "1" -> true;
      case "f", "false", "no", "off", "0" -> false;
      default -> throw new ValueInvalidException("bool", pgText, "is not a boolean");
    };
  }

  @Override
  public String format(Object value) {
    return (Boolean) value ? "t" : "f";
  }

  @Override
  public JsonValue toJson(Object value) {
    return JsonBoolean.of((Boolean) value);
  }

  @Override
  public Object fromJson(JsonValue json, String path) {
    if (json instanceof JsonBoolean b) {
      return b.value();
    }
    throw new InputInvalidException(path, "must be a boolean, not " + json.typeName(), "Send true or false.");
  }

  @Override
  public Object coerce(Object value) {
    if (value instanceof Boolean b) {
      return b;
    }
    if (value instanceof String s) {
      return parse(s);
    }
    throw new ValueInvalidException("bool", Texts.value(value), "is not a Boolean");
  }

  @Override
  public boolean comparable() {
    return true;
  }

  @Override
  public boolean same(Object a, Object b) {
    return a instanceof Boolean x ? x.equals(b) : SameValues.other(a, b);
  }

  @Override
  public int compare(Object a, Object b) {
    return Boolean.compare((Boolean) a, (Boolean) b);
  }

  @Override
  public String toString() {
    return "bool";
  }
}
