package io.runnel.client.fake;

import io.runnel.client.port.JsonPort;
import io.runnel.wire.Json;
import io.runnel.wire.JsonValue;

/** The JVM's JSON as the client's port: the query DSL's own parser. */
public final class JvmJson implements JsonPort {
  @Override
  public JsonValue parse(String text) {
    return Json.parse(text);
  }

  @Override
  public String write(JsonValue value) {
    return Json.write(value);
  }
}
