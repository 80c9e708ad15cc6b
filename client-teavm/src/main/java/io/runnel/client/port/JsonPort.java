package io.runnel.client.port;

import io.runnel.wire.JsonValue;

/**
 * JSON text in and out: the browser's {@code JSON.parse} / {@code JSON.stringify} (small and fast in a bundle), the
 * query DSL's own parser on the JVM.
 */
public interface JsonPort {

  /**
   * Parses one JSON value.
   *
   * @throws RuntimeException when {@code text} is not JSON
   */
  JsonValue parse(String text);

  /** Writes {@code value} as compact JSON text. */
  String write(JsonValue value);
}
