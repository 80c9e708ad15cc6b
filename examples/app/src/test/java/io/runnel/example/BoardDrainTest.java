package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.server.AllRole;
import io.runnel.sync.socket.Drained;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonNumber;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the process's SIGTERM hook runs ({@link AllRole#drainNode()}): the node drains over
 * {@code RUNNEL_DRAIN_SPREAD_MS}, telling each socket to reconnect within it, and stops being ready.
 */
@FreshDatabase
class BoardDrainTest {

  @Test
  void drainingTheNodeTellsEachSocketToReconnectWithinTheConfiguredSpreadAndStopsBeingReady(TestDatabase db)
      throws Exception {
    try (AllRole app = BoardHttp.start(BoardHttp.env(db, "RUNNEL_DEV", "true", "RUNNEL_DRAIN_SPREAD_MS", "500"))) {
      String ada = new BoardHttp(app.port()).token("ada");
      ProtocolClient<BoardFrame> socket = BoardFrame.socket(app.port(), ada);
      socket.send("{\"t\":\"hello\",\"v\":1}");
      socket.until(f -> f.t().equals("hello"));
      Drained drained = app.drainNode();
      List<BoardFrame> frames = socket.until(f -> f.t().equals("reconnect"));
      BoardFrame reconnect = frames.get(frames.size() - 1);
      long delay = ((JsonNumber) reconnect.json().get("delayMs")).longValueExact();
      HttpResponse<String> ready = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + app.port() + "/readyz")).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertAll(
          () -> assertTrue(delay >= 0 && delay < 500, "within the configured 500 ms: " + delay),
          () -> assertEquals("drain", reconnect.text("reason")),
          () -> assertEquals(new Drained(1, 1), drained,
              "told, and closed at the end of the window: this socket ignored its frame"),
          () -> assertEquals(503, ready.statusCode(), ready.body()));
    }
  }
}
