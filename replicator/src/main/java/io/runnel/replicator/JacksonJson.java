package io.runnel.replicator;

import com.fasterxml.jackson.core.JsonGenerator;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.io.IOException;
import java.util.Map;

/**
 * Writes Runnel's {@link JsonValue} through a Jackson generator, keeping member order and each number's exact text.
 * Shared by the bus envelope and the socket frames.
 */
public final class JacksonJson {

  private JacksonJson() {}

  /**
   * Writes {@code value} at the generator's current position.
   *
   * @throws IOException as the generator's output fails
   */
  public static void write(JsonGenerator g, JsonValue value) throws IOException {
    switch (value) {
      case JsonNull n -> g.writeNull();
      case JsonBoolean b -> g.writeBoolean(b.value());
      case JsonNumber n -> g.writeNumber(n.text());
      case JsonString s -> g.writeString(s.value());
      case JsonArray a -> {
        g.writeStartArray();
        for (JsonValue e : a.elements()) {
          write(g, e);
        }
        g.writeEndArray();
      }
      case JsonObject o -> {
        g.writeStartObject();
        for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
          g.writeFieldName(e.getKey());
          write(g, e.getValue());
        }
        g.writeEndObject();
      }
    }
  }
}
