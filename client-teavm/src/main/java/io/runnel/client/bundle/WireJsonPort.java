package io.runnel.client.bundle;

import io.runnel.client.port.JsonPort;
import io.runnel.wire.Json;
import io.runnel.wire.JsonValue;

/**
 * JSON text through the query DSL's own strict parser and writer ({@link Json}): the JVM's JSON port
 * ({@link HostPorts#json()} off the browser), and what the JVM tests use.
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
