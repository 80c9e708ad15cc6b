package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.server.AllRole;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The board's channel {@code org} on the one process: a member of the org joins {@code org.acme} with a presence
 * meta and sees the roster, another member's {@code typing} event reaches her, and a user of another org can
 * neither join nor send (each refused with its code).
 */
@FreshDatabase
class BoardChannelTest {

  static AllRole app;
  static BoardHttp http;

  @BeforeAll
  static void start(TestDatabase database) throws Exception {
    app = BoardHttp.start(BoardHttp.env(database, "RUNNEL_DEV", "true"));
    http = new BoardHttp(app.port());
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  static String join(String topic, String user) {
    return "{\"t\":\"join\",\"topic\":\"" + topic + "\",\"presence\":{\"user\":\"" + user + "\"}}";
  }

  @Test
  void membersOfTheOrgSeeEachOthersPresenceAndTypingAndAnotherOrgsUserIsRefused() throws Exception {
    String ada = http.token("ada");
    String alan = http.token("alan");
    String grace = http.token("grace");
    try (ProtocolClient<BoardFrame> adaSocket = BoardFrame.socket(app.port(), ada);
        ProtocolClient<BoardFrame> graceSocket = BoardFrame.socket(app.port(), grace)) {
      adaSocket.send(join("org.acme", "ada"));
      List<BoardFrame> roster = adaSocket.until(f -> f.t().equals("presence"));
      graceSocket.send(join("org.acme", "grace"));
      List<BoardFrame> refused = graceSocket.until(f -> f.t().equals("refuse"));
      BoardHttp.Answer typing = http.event(alan, "org.acme", "{\"event\":\"typing\",\"payload\":{\"user\":\"alan\"}}");
      List<BoardFrame> heard = adaSocket.until(f -> f.t().equals("event"));
      BoardHttp.Answer graceTyping = http.event(grace, "org.acme", "{\"event\":\"typing\",\"payload\":{}}");
      BoardHttp.Answer unknownEvent = http.event(alan, "org.acme", "{\"event\":\"shouting\",\"payload\":{}}");
      JsonObject presence = roster.get(roster.size() - 1).json();
      JsonObject event = heard.get(heard.size() - 1).json();
      assertAll(
          () -> assertEquals(JsonNumber.of(1), presence.get("total"), presence.toString()),
          () -> assertEquals(new JsonString("ada"),
              ((JsonObject) ((JsonObject) ((JsonArray) presence.get("members")).elements().get(0)).get("meta"))
                  .get("user")),
          () -> assertEquals(new JsonString("X_FORBIDDEN"), refused.get(refused.size() - 1).json().get("code"),
              "globex's grace may not join org.acme"),
          () -> assertEquals(202, typing.status(), typing.raw().body()),
          () -> assertEquals(JsonNumber.of(1), typing.get("delivered"), "ada's socket took it"),
          () -> assertEquals(new JsonString("typing"), event.get("event")),
          () -> assertEquals(new JsonString("org.acme"), event.get("topic")),
          () -> assertEquals(403, graceTyping.status(), graceTyping.raw().body()),
          () -> assertEquals("X_FORBIDDEN", graceTyping.code()),
          () -> assertTrue(unknownEvent.status() == 422, unknownEvent.raw().body()));
    }
  }
}
