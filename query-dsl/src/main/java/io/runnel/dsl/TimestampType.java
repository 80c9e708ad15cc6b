package io.runnel.dsl;

import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Texts;

/**
 * {@code timestamp} and {@code timestamptz}: {@link PgTimestamp}. JSON: ISO 8601 with up to six fraction digits,
 * {@code Z} for timestamptz ({@code docs/protocol.md}, "Values"); {@code "infinity"}, {@code "-infinity"}.
 */
final class TimestampType implements ColumnType {

  private final boolean zone;

  TimestampType(boolean zone) {
    this.zone = zone;
  }

  @Override
  public String sqlName() {
    return zone ? "timestamptz" : "timestamp";
  }

  @Override
  public Object parse(String pgText) {
    return zone ? PgTimestamp.parseWithZone(pgText) : PgTimestamp.parseLocal(pgText);
  }

  @Override
  public String format(Object value) {
    return ((PgTimestamp) value).pgText(zone);
  }

  @Override
  public JsonValue toJson(Object value) {
    return new JsonString(((PgTimestamp) value).isoText(zone));
  }

  @Override
  public Object fromJson(JsonValue json, String path) {
    String example = zone ? "\"2024-02-29T13:45:00.5Z\"" : "\"2024-02-29T13:45:00.5\"";
    if (json instanceof JsonString s) {
      try {
        return parse(s.value());
      } catch (ValueInvalidException e) {
        throw new InputInvalidException(path, "is not a " + sqlName() + ": " + e.cause(),
            "Send an ISO 8601 timestamp such as " + example + ".");
      }
    }
    throw new InputInvalidException(path, "must be a timestamp string, not " + json.typeName(),
        "Send an ISO 8601 timestamp such as " + example + ".");
  }

  @Override
  public Object coerce(Object value) {
    if (value instanceof PgTimestamp t) {
      return t;
    }
    if (value instanceof String s) {
      return parse(s);
    }
    throw new ValueInvalidException(sqlName(), Texts.value(value), "is not a PgTimestamp or timestamp text");
  }

  @Override
  public boolean comparable() {
    return true;
  }

  @Override
  public boolean same(Object a, Object b) {
    return a instanceof PgTimestamp t ? t.equals(b) : SameValues.other(a, b);
  }

  @Override
  public int compare(Object a, Object b) {
    return ((PgTimestamp) a).compareTo((PgTimestamp) b);
  }

  @Override
  public String toString() {
    return sqlName();
  }
}
