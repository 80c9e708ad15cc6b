package io.runnel.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Maps a Java type to and from a {@link JsonValue}, explicitly (TeaVM has no reflection). Decoding validates: a
 * missing or unknown member, a wrong JSON type or an out-of-range number is an {@link InputInvalidException}
 * naming the field path.
 *
 * <p>Most codecs are written with {@link #object}: <pre>{@code
 * record FeedInput(String orgId) {
 *   static final JsonCodec<FeedInput> CODEC = JsonCodec.object(
 *       r -> new FeedInput(r.text("orgId")),
 *       (in, w) -> w.put("orgId", in.orgId()));
 * }}</pre>
 *
 * @param <T> the Java type
 */
public interface JsonCodec<T> {

  /**
   * Decodes {@code json}, found at {@code path} inside the whole input.
   *
   * @throws InputInvalidException naming the failing field's path
   */
  T decode(JsonValue json, String path);

  /** Encodes {@code value}. */
  JsonValue encode(T value);

  /**
   * Decodes a whole input: {@link #decode(JsonValue, String)} at the empty path.
   *
   * @throws InputInvalidException naming the failing field's path
   */
  default T decode(JsonValue json) {
    return decode(json, "");
  }

  /**
   * A codec for a JSON object: {@code read} pulls members through an {@link ObjectReader} (which refuses members it
   * was never asked for), {@code write} puts them on a builder.
   */
  static <T> JsonCodec<T> object(Function<ObjectReader, T> read, BiConsumer<T, JsonObject.Builder> write) {
    Objects.requireNonNull(read, "read");
    Objects.requireNonNull(write, "write");
    return new JsonCodec<>() {
      @Override
      public T decode(JsonValue json, String path) {
        ObjectReader reader = ObjectReader.of(json, path);
        T value = read.apply(reader);
        reader.requireNoOtherMembers();
        return value;
      }

      @Override
      public JsonValue encode(T value) {
        JsonObject.Builder b = JsonObject.builder();
        write.accept(value, b);
        return b.build();
      }
    };
  }

  /** A codec for a JSON array whose elements use {@code element}. */
  static <E> JsonCodec<List<E>> list(JsonCodec<E> element) {
    Objects.requireNonNull(element, "element");
    return new JsonCodec<>() {
      @Override
      public List<E> decode(JsonValue json, String path) {
        if (!(json instanceof JsonArray a)) {
          throw new InputInvalidException(path, "must be an array, not " + json.typeName(), "Send a JSON array.");
        }
        List<E> out = new ArrayList<>(a.size());
        for (int i = 0; i < a.size(); i++) {
          out.add(element.decode(a.get(i), JsonPath.element(path, i)));
        }
        return List.copyOf(out);
      }

      @Override
      public JsonValue encode(List<E> value) {
        List<JsonValue> out = new ArrayList<>(value.size());
        for (E e : value) {
          out.add(element.encode(e));
        }
        return new JsonArray(out);
      }
    };
  }

  /** The codec for a JSON string. */
  static JsonCodec<String> text() {
    return Scalars.TEXT;
  }

  /** The codec for a JSON integer within {@code int}'s range. */
  static JsonCodec<Integer> int4() {
    return Scalars.INT4;
  }

  /** The codec for a 64-bit integer: a string of digits (as {@code docs/protocol.md} spells int8) or a JSON integer. */
  static JsonCodec<Long> int8() {
    return Scalars.INT8;
  }

  /** The codec for a JSON boolean. */
  static JsonCodec<Boolean> bool() {
    return Scalars.BOOL;
  }

  /** The codec for any JSON value, passed through as is. */
  static JsonCodec<JsonValue> any() {
    return Scalars.ANY;
  }
}
