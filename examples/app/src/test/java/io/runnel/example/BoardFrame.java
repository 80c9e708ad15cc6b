package io.runnel.example;

import io.runnel.testing.ProtocolClient;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;

/**
 * One frame a running {@link BoardApp}'s {@code /v1/sync} sent: its text as sent, and parsed.
 *
 * @param text the frame's text
 * @param json the frame's JSON object
 */
record BoardFrame(String text, JsonObject json) {

  /**
   * A socket to the app on {@code port}, upgrading with {@code Authorization: Bearer <token>}, as a script would hold
   * one; it queues every frame it receives, in order.
   */
  static ProtocolClient<BoardFrame> socket(int port, String token) {
    return ProtocolClient.to(port).bearer(token).open(text -> new BoardFrame(text, (JsonObject) Json.parse(text)));
  }

  /** The frame's {@code t}. */
  String t() {
    return ((JsonString) json.get("t")).value();
  }

  /** The frame's {@code sid}, or null. */
  String sid() {
    return json.get("sid") instanceof JsonString s ? s.value() : null;
  }

  /** The frame's string member {@code name}, or null. */
  String text(String name) {
    return json.get(name) instanceof JsonString s ? s.value() : null;
  }
}
