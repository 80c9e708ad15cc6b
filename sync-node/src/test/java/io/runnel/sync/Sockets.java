package io.runnel.sync;

import io.runnel.testing.ProtocolClient;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import java.util.Map;

/** Opens the tests' {@link ProtocolClient} on a node, each frame parsed as the JSON object it is. */
public final class Sockets {

  private Sockets() {}

  /** A socket to the node on {@code port}, upgrading on {@code /v1/sync} with {@code headers}. */
  public static ProtocolClient<JsonObject> open(int port, Map<String, String> headers) {
    return ProtocolClient.to(port).headers(headers).open(Sockets::json);
  }

  /** A frame's text as its JSON object; a frame that is not one fails the cast, as it should fail the test. */
  public static JsonObject json(String text) {
    return (JsonObject) Json.parse(text);
  }
}
