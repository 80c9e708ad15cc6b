package io.runnel.wire;

/**
 * A JSON value: the small, immutable tree every frame, input and record travels as on the server and in the
 * browser (TeaVM has no reflection, so codecs map Java types to and from this tree explicitly).
 *
 * <p>Parse text with {@link Json#parse(String)}, write it with {@link Json#write(JsonValue)} or, for hashing,
 * {@link CanonicalJson#write(JsonValue)}.
 */
public sealed interface JsonValue permits JsonObject, JsonArray, JsonString, JsonNumber, JsonBoolean, JsonNull {

  /**
   * The JSON type's name as error messages spell it: object, array, string, number, boolean or null. (A chain of
   * {@code instanceof}, not a type switch, which TeaVM writes out at length: {@code docs/client.md}, "Type switches".)
   */
  default String typeName() {
    if (this instanceof JsonObject) {
      return "object";
    }
    if (this instanceof JsonArray) {
      return "array";
    }
    if (this instanceof JsonString) {
      return "string";
    }
    if (this instanceof JsonNumber) {
      return "number";
    }
    return this instanceof JsonBoolean ? "boolean" : "null";
  }
}
