package io.runnel.wire;

/** JSON {@code true} or {@code false}. */
public record JsonBoolean(boolean value) implements JsonValue {

  /** {@code true}. */
  public static final JsonBoolean TRUE = new JsonBoolean(true);
  /** {@code false}. */
  public static final JsonBoolean FALSE = new JsonBoolean(false);

  /** The shared instance for {@code value}. */
  public static JsonBoolean of(boolean value) {
    return value ? TRUE : FALSE;
  }

  @Override
  public String toString() {
    return Boolean.toString(value);
  }
}
