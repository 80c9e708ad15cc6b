package io.runnel.protocol;

import io.runnel.wire.Digits;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import org.jspecify.annotations.Nullable;

/**
 * Reads the members of one node frame, refusing a missing or mistyped member with a
 * {@link FrameException} that names it ({@code patch.cursor.lsn}). Members it is not asked for are ignored,
 * so a newer node may add fields.
 */
final class Members {

  private final JsonObject object;
  private final String path;

  private Members(JsonObject object, String path) {
    this.object = object;
    this.path = path;
  }

  static Members of(JsonValue value, String path) {
    if (!(value instanceof JsonObject o)) {
      throw FrameException.ofNodeFrame(path + " must be an object, not " + value.typeName());
    }
    return new Members(o, path);
  }

  String path(String name) {
    return path + "." + name;
  }

  JsonValue value(String name) {
    JsonValue v = object.get(name);
    if (v == null) {
      throw FrameException.ofNodeFrame(path(name) + " is missing");
    }
    return v;
  }

  /** The member, or null when absent or JSON null. */
  @Nullable JsonValue optional(String name) {
    JsonValue v = object.get(name);
    return v == null || v == JsonNull.NULL ? null : v;
  }

  boolean has(String name) {
    return object.members().containsKey(name);
  }

  String text(String name) {
    return text(value(name), path(name));
  }

  @Nullable String optionalText(String name) {
    JsonValue v = optional(name);
    return v == null ? null : text(v, path(name));
  }

  Position lsn(String name) {
    String s = text(name);
    Position p = Position.tryParse(s);
    if (p == null) {
      throw FrameException.ofNodeFrame(path(name) + " must be 24 lower-case hex digits, not '" + s + "'");
    }
    return p;
  }

  long integer(String name) {
    return integer(value(name), path(name));
  }

  @Nullable Long optionalInteger(String name) {
    JsonValue v = optional(name);
    return v == null ? null : integer(v, path(name));
  }

  @Nullable Boolean optionalBool(String name) {
    JsonValue v = optional(name);
    if (v == null) {
      return null;
    }
    if (!(v instanceof JsonBoolean b)) {
      throw FrameException.ofNodeFrame(path(name) + " must be a boolean, not " + v.typeName());
    }
    return b.value();
  }

  JsonObject object(String name) {
    JsonValue v = value(name);
    if (!(v instanceof JsonObject o)) {
      throw FrameException.ofNodeFrame(path(name) + " must be an object, not " + v.typeName());
    }
    return o;
  }

  JsonArray array(String name) {
    JsonValue v = value(name);
    if (!(v instanceof JsonArray a)) {
      throw FrameException.ofNodeFrame(path(name) + " must be an array, not " + v.typeName());
    }
    return a;
  }

  static String text(JsonValue v, String path) {
    if (!(v instanceof JsonString s)) {
      throw FrameException.ofNodeFrame(path + " must be a string, not " + v.typeName());
    }
    return s.value();
  }

  static long integer(JsonValue v, String path) {
    if (!(v instanceof JsonNumber n) || !n.isPlainInteger() || n.text().length() > 18) {
      throw FrameException.ofNodeFrame(path + " must be an integer of at most 18 digits, not " + v);
    }
    return Digits.parseLong(n.text());
  }
}
