package io.runnel.dsl;

import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Texts;

/** {@code date}: {@link PgDate}; in JSON the string PostgreSQL prints ({@code "2024-02-29"}, {@code "infinity"}). */
final class DateType implements ColumnType {

  @Override
  public String sqlName() {
    return "date";
  }

  @Override
  public Object parse(String pgText) {
    return PgDate.parse(pgText);
  }

  @Override
  public String format(Object value) {
    return ((PgDate) value).text();
  }

  @Override
  public JsonValue toJson(Object value) {
    return new JsonString(((PgDate) value).text());
  }

  @Override
  public Object fromJson(JsonValue json, String path) {
    if (json instanceof JsonString s) {
      try {
        return PgDate.parse(s.value());
      } catch (ValueInvalidException e) {
        throw new InputInvalidException(path, "is not a date: " + e.cause(), "Send a date such as \"2024-02-29\".");
      }
    }
    throw new InputInvalidException(path, "must be a date string, not " + json.typeName(),
        "Send a date such as \"2024-02-29\".");
  }

  @Override
  public Object coerce(Object value) {
    if (value instanceof PgDate d) {
      return d;
    }
    if (value instanceof String s) {
      return PgDate.parse(s);
    }
    throw new ValueInvalidException("date", Texts.value(value), "is not a PgDate or date text");
  }

  @Override
  public boolean comparable() {
    return true;
  }

  @Override
  public boolean same(Object a, Object b) {
    return a instanceof PgDate d ? d.equals(b) : SameValues.other(a, b);
  }

  @Override
  public int compare(Object a, Object b) {
    return ((PgDate) a).compareTo((PgDate) b);
  }

  @Override
  public String toString() {
    return "date";
  }
}
