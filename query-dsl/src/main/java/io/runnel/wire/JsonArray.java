package io.runnel.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** A JSON array; its element list is unmodifiable. */
public record JsonArray(List<JsonValue> elements) implements JsonValue {

  /** The empty array. */
  public static final JsonArray EMPTY = new JsonArray(List.of());

  /** Copies {@code elements}; {@code null} elements are refused (use {@link JsonNull#NULL}). */
  public JsonArray {
    elements = List.copyOf(Objects.requireNonNull(elements, "elements"));
  }

  /** An array of {@code elements}. */
  public static JsonArray of(JsonValue... elements) {
    return new JsonArray(List.of(elements));
  }

  /** An array of the given strings. */
  public static JsonArray ofStrings(List<String> strings) {
    List<JsonValue> out = new ArrayList<>(strings.size());
    for (String s : strings) {
      out.add(new JsonString(s));
    }
    return new JsonArray(out);
  }

  /** The element count. */
  public int size() {
    return elements.size();
  }

  /** Element {@code index}. */
  public JsonValue get(int index) {
    return elements.get(index);
  }

  @Override
  public String toString() {
    return Json.write(this);
  }
}
