package io.runnel.client.bundle;

import io.runnel.client.port.JsonPort;
import io.runnel.wire.Json;
import io.runnel.wire.JsonValue;

/**
 * JSON text through the query DSL's own strict parser and writer ({@link Json}): what the bundles use until the
 * browser package brings {@code JSON.parse} / {@code JSON.stringify}, and what JVM tests use.
 */
public final class WireJsonPort implements JsonPort {

  @Override
  public JsonValue parse(String text) {
    return Json.parse(text);
  }

  @Override
  public String write(JsonValue value) {
    return Json.write(value);
  }
}
