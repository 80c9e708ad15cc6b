package io.runnel.wire;

import java.util.Objects;

/** A JSON string. */
public record JsonString(String value) implements JsonValue {

  /** @throws NullPointerException when {@code value} is null (use {@link JsonNull#NULL}) */
  public JsonString {
    Objects.requireNonNull(value, "value");
  }

  /** The JSON string for {@code value}. */
  public static JsonString of(String value) {
    return new JsonString(value);
  }

  @Override
  public String toString() {
    return Json.write(this);
  }
}
