package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM, as Kubernetes sends it, to the board's process (a JVM of its own): a connected client is told to reconnect
 * within the drain spread before its connection ends, and the process stops on its own. Helidon registers a JVM
 * shutdown hook of its own that stops the server at once; the node must not let it cut the sockets mid-drain.
 */
@FreshDatabase
class BoardSigtermTest {

  @Test
  void sigtermDrainsTheConnectedClientsBeforeTheProcessStops(TestDatabase db) throws Exception {
    try (RoleProcess app = RoleProcess.start("sigterm-all", BoardHttp.env(db, "RUNNEL_DEV", "true",
        "RUNNEL_DRAIN_SPREAD_MS", "2000"))) {
      int port = app.awaitPort("open:");
      HttpResponse<String> signIn = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + port + "/v1/dev/sign-in")).POST(HttpRequest.BodyPublishers.ofString(
              "{\"user\":\"ada\"}")).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
      String token = ((JsonString) ((JsonObject) Json.parse(signIn.body())).get("token")).value();
      // Not closed by the test: the node closes it (1001) at the end of the drain.
      ProtocolClient<BoardFrame> socket = BoardFrame.socket(port, token);
      socket.send("{\"t\":\"hello\",\"v\":1}");
      socket.until(f -> f.t().equals("hello"));
      app.terminate();
      List<BoardFrame> frames = socket.until(f -> f.t().equals("reconnect"));
      BoardFrame reconnect = frames.get(frames.size() - 1);
      long delay = ((JsonNumber) reconnect.json().get("delayMs")).longValueExact();
      String drained = app.awaitLine("Runnel: drained:");
      Integer exit = app.awaitExit(30);
      assertAll(
          () -> assertTrue(delay >= 0 && delay <= 2000, "a delay within the 2 s spread: " + delay),
          () -> assertEquals("drain", reconnect.text("reason")),
          () -> assertTrue(drained.contains("1 sockets told to reconnect"), drained),
          () -> assertNotNull(exit, "the process stopped on its own after the drain"));
    }
  }
}
