package io.runnel.sync.http.internal;

import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * A server function's return value as the answer's {@code result}: null, a {@link JsonValue}, a String, a Boolean,
 * an integral or decimal Number, a UUID (as its text), or a Map with String keys / a Collection of those.
 */
final class Results {

  private static final int MAX_DEPTH = 64;

  private Results() {}

  /**
   * {@code value} as JSON.
   *
   * @throws IllegalArgumentException for any other type, a non-finite double, a map key that is not a String, or
   *     nesting deeper than 64 (a cycle)
   */
  static JsonValue toJson(@Nullable Object value) {
    return toJson(value, 0);
  }

  private static JsonValue toJson(@Nullable Object value, int depth) {
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException("The result nests deeper than " + MAX_DEPTH + " (a cycle?)");
    }
    return switch (value) {
      case null -> JsonNull.NULL;
      case JsonValue v -> v;
      case String s -> new JsonString(s);
      case Boolean b -> JsonBoolean.of(b);
      case Integer i -> JsonNumber.of(i.longValue());
      case Long l -> JsonNumber.of(l);
      case Short s -> JsonNumber.of(s.longValue());
      case Byte b -> JsonNumber.of(b.longValue());
      case BigInteger i -> new JsonNumber(i.toString());
      case BigDecimal d -> JsonNumber.of(d);
      case Double d -> JsonNumber.of(d.doubleValue());
      case Float f -> JsonNumber.of(Double.parseDouble(f.toString()));
      case UUID u -> new JsonString(u.toString());
      case Map<?, ?> m -> {
        Map<String, JsonValue> members = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
          if (!(e.getKey() instanceof String name)) {
            throw new IllegalArgumentException("A result map's keys must be Strings, not " + e.getKey());
          }
          members.put(name, toJson(e.getValue(), depth + 1));
        }
        yield new JsonObject(members);
      }
      case Collection<?> c -> {
        List<JsonValue> elements = new ArrayList<>(c.size());
        for (Object o : c) {
          elements.add(toJson(o, depth + 1));
        }
        yield new JsonArray(elements);
      }
      default -> throw new IllegalArgumentException("A server function returned a " + value.getClass().getName()
          + "; return null, a String, Boolean, Number, UUID, JsonValue, or a Map / List of those");
    };
  }
}
