package io.runnel.protocol;

import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A {@link FrameSink} that builds the frame as a JSON tree, members in the order written: the browser client's sink,
 * whose page writes the tree as text with its own JSON writer.
 */
public final class JsonTreeSink implements FrameSink {

  /** An object or array being built, and the member name waiting for its value. */
  private static final class Open {
    final @Nullable Map<String, JsonValue> members;
    final @Nullable List<JsonValue> elements;
    @Nullable String name;

    Open(@Nullable Map<String, JsonValue> members, @Nullable List<JsonValue> elements) {
      this.members = members;
      this.elements = elements;
    }
  }

  /** The open objects and arrays, innermost last (a list: {@code ArrayDeque} costs the client bundle). */
  private final List<Open> open = new ArrayList<>();
  private @Nullable JsonValue result;

  /** The frame {@code frame} as a JSON object. */
  public static JsonObject toJson(ClientFrame frame) {
    JsonTreeSink sink = new JsonTreeSink();
    FrameEncoder.write(frame, sink);
    return (JsonObject) sink.result();
  }

  /**
   * The value written, once the outermost object or array has ended.
   *
   * @throws IllegalStateException while it is still open, or before anything was written
   */
  public JsonValue result() {
    if (result == null || !open.isEmpty()) {
      throw new IllegalStateException("The frame is not complete");
    }
    return result;
  }

  @Override
  public void startObject() {
    open.add(new Open(new LinkedHashMap<>(), null));
  }

  @Override
  public void endObject() {
    Open o = open.remove(open.size() - 1);
    add(new JsonObject(o.members == null ? Map.of() : o.members));
  }

  @Override
  public void startArray() {
    open.add(new Open(null, new ArrayList<>()));
  }

  @Override
  public void endArray() {
    Open o = open.remove(open.size() - 1);
    add(new JsonArray(o.elements == null ? List.of() : o.elements));
  }

  @Override
  public void name(String name) {
    Open o = open.isEmpty() ? null : open.get(open.size() - 1);
    if (o == null || o.members == null) {
      throw new IllegalStateException("A member name outside an object: " + name);
    }
    o.name = name;
  }

  @Override
  public void string(String value) {
    add(new JsonString(value));
  }

  @Override
  public void number(long value) {
    add(JsonNumber.of(value));
  }

  @Override
  public void bool(boolean value) {
    add(JsonBoolean.of(value));
  }

  @Override
  public void nullValue() {
    add(JsonNull.NULL);
  }

  @Override
  public void value(JsonValue value) {
    add(value);
  }

  private void add(JsonValue v) {
    Open o = open.isEmpty() ? null : open.get(open.size() - 1);
    if (o == null) {
      result = v;
    } else if (o.members != null) {
      String name = o.name;
      if (name == null) {
        throw new IllegalStateException("A value in an object without a member name");
      }
      o.members.put(name, v);
      o.name = null;
    } else if (o.elements != null) {
      o.elements.add(v);
    }
  }
}
