package io.runnel.wire;

/**
 * A JSON value: the small, immutable tree every frame, input and record travels as on the server and in the
 * browser (TeaVM has no reflection, so codecs map Java types to and from this tree explicitly).
 *
 * <p>Parse text with {@link Json#parse(String)}, write it with {@link Json#write(JsonValue)} or, for hashing,
 * {@link CanonicalJson#write(JsonValue)}.
 */
public sealed interface JsonValue permits JsonObject, JsonArray, JsonString, JsonNumber, JsonBoolean, JsonNull {

  /** The JSON type's name as error messages spell it: object, array, string, number, boolean or null. */
  default String typeName() {
    return switch (this) {
      case JsonObject o -> "object";
      case JsonArray a -> "array";
      case JsonString s -> "string";
      case JsonNumber n -> "number";
      case JsonBoolean b -> "boolean";
      case JsonNull n -> "null";
    };
  }
}
