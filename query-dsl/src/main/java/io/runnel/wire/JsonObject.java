package io.runnel.wire;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** A JSON object; members keep the order they were added or parsed in, and the map is unmodifiable. */
public record JsonObject(Map<String, JsonValue> members) implements JsonValue {

  /** The empty object. */
  public static final JsonObject EMPTY = new JsonObject(Map.of());

  /** Copies {@code members}, keeping their order; {@code null} values are refused (use {@link JsonNull#NULL}). */
  public JsonObject {
    Objects.requireNonNull(members, "members");
    LinkedHashMap<String, JsonValue> copy = new LinkedHashMap<>();
    for (Map.Entry<String, JsonValue> e : members.entrySet()) {
      copy.put(Objects.requireNonNull(e.getKey(), "member name"),
          Objects.requireNonNull(e.getValue(), "member value"));
    }
    members = Collections.unmodifiableMap(copy);
  }

  /** A builder that keeps members in the order they are put. */
  public static Builder builder() {
    return new Builder();
  }

  /** Member {@code name}, or null when absent. */
  public @Nullable JsonValue get(String name) {
    return members.get(name);
  }

  /** The member count. */
  public int size() {
    return members.size();
  }

  @Override
  public String toString() {
    return Json.write(this);
  }

  /** Builds a {@link JsonObject}; a later {@code put} of the same name replaces the value in place. */
  public static final class Builder {
    private final LinkedHashMap<String, JsonValue> members = new LinkedHashMap<>();

    private Builder() {}

    /** Adds member {@code name}. */
    public Builder put(String name, JsonValue value) {
      members.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /** Adds a string member, or JSON null when {@code value} is null. */
    public Builder put(String name, @Nullable String value) {
      return put(name, value == null ? JsonNull.NULL : new JsonString(value));
    }

    /** Adds a number member. */
    public Builder put(String name, long value) {
      return put(name, JsonNumber.of(value));
    }

    /** Adds a boolean member. */
    public Builder put(String name, boolean value) {
      return put(name, JsonBoolean.of(value));
    }

    /** The object. */
    public JsonObject build() {
      return new JsonObject(members);
    }
  }
}
