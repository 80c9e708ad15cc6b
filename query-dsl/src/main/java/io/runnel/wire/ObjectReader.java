package io.runnel.wire;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads the members of one JSON object for a {@link JsonCodec#object} codec, naming the path of whatever fails: a
 * missing required member, a wrong type, and (checked after the codec read what it knows) a member it never asked
 * for.
 */
public final class ObjectReader {

  private final JsonObject object;
  private final String path;
  private final Set<String> read = new HashSet<>();

  private ObjectReader(JsonObject object, String path) {
    this.object = object;
    this.path = path;
  }

  /**
   * A reader over {@code json}, found at {@code path}.
   *
   * @throws InputInvalidException when {@code json} is not an object
   */
  public static ObjectReader of(JsonValue json, String path) {
    Objects.requireNonNull(json, "json");
    Objects.requireNonNull(path, "path");
    if (!(json instanceof JsonObject o)) {
      throw Scalars.wrongType(path, "an object", json);
    }
    return new ObjectReader(o, path);
  }

  /** The path of the object being read. */
  public String path() {
    return path;
  }

  /** Whether member {@code name} is present and not null. */
  public boolean has(String name) {
    JsonValue v = object.get(name);
    return v != null && v != JsonNull.NULL;
  }

  /**
   * Required member {@code name}, any JSON (null included).
   *
   * @throws InputInvalidException when it is missing
   */
  public JsonValue value(String name) {
    read.add(name);
    JsonValue v = object.get(name);
    if (v == null) {
      throw new InputInvalidException(JsonPath.member(path, name), "is missing", "Add the field '" + name + "'.");
    }
    return v;
  }

  /** Optional member {@code name}: null when missing or JSON null. */
  public @Nullable JsonValue optionalValue(String name) {
    read.add(name);
    JsonValue v = object.get(name);
    return v == null || v == JsonNull.NULL ? null : v;
  }

  /** Required string member. @throws InputInvalidException when missing or not a string */
  public String text(String name) {
    return Scalars.text(value(name), JsonPath.member(path, name));
  }

  /** Optional string member: null when missing or null. @throws InputInvalidException when not a string */
  public @Nullable String optionalText(String name) {
    JsonValue v = optionalValue(name);
    return v == null ? null : Scalars.text(v, JsonPath.member(path, name));
  }

  /** Required 32-bit integer member. @throws InputInvalidException when missing, not an integer or out of range */
  public int int4(String name) {
    return Scalars.int4(value(name), JsonPath.member(path, name));
  }

  /**
   * Required 64-bit integer member, a string of digits or a JSON integer.
   *
   * @throws InputInvalidException when missing, malformed or out of range
   */
  public long int8(String name) {
    return Scalars.int8(value(name), JsonPath.member(path, name));
  }

  /** Required number member, as a double. @throws InputInvalidException when missing or not a number */
  public double float8(String name) {
    return Scalars.number(value(name), JsonPath.member(path, name));
  }

  /** Required boolean member. @throws InputInvalidException when missing or not a boolean */
  public boolean bool(String name) {
    return Scalars.bool(value(name), JsonPath.member(path, name));
  }

  /** Required member decoded by {@code codec}. @throws InputInvalidException as the codec does, or when missing */
  public <V> V get(String name, JsonCodec<V> codec) {
    return codec.decode(value(name), JsonPath.member(path, name));
  }

  /** Optional member decoded by {@code codec}: null when missing or JSON null. */
  public <V> @Nullable V optional(String name, JsonCodec<V> codec) {
    JsonValue v = optionalValue(name);
    return v == null ? null : codec.decode(v, JsonPath.member(path, name));
  }

  /** Required array member, each element decoded by {@code element}. */
  public <V> List<V> list(String name, JsonCodec<V> element) {
    return get(name, JsonCodec.list(element));
  }

  /**
   * Refuses any member the codec did not read.
   *
   * @throws InputInvalidException naming the first unknown member
   */
  public void requireNoOtherMembers() {
    for (Map.Entry<String, JsonValue> e : object.members().entrySet()) {
      if (!read.contains(e.getKey())) {
        throw new InputInvalidException(JsonPath.member(path, e.getKey()), "is not a known field",
            "Remove it; the known fields are " + Texts.list(read) + ".");
      }
    }
  }
}
