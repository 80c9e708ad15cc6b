package io.runnel.dsl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.QueryHash;
import io.runnel.wire.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Topics, the protocol's digests, record keys and policies. */
class ChannelAndHashTest {

  @Test
  void aTopicIsTheChannelNameAndItsPercentEncodedParams() {
    ChannelRef room = ChannelRef.of("room", "orgId", "roomId");
    assertAll(
        () -> assertEquals("room.acme.lobby", room.topic("acme", "lobby")),
        () -> assertEquals("room.acme%2Eio.a%20b%2A%3E", room.topic("acme.io", "a b*>"), ". * > and space never raw"),
        () -> assertEquals("room.acme%2Eio.x", room.topic(Map.of("roomId", "x", "orgId", "acme.io"))),
        () -> assertEquals(Map.of("orgId", "acme.io", "roomId", "ä"), room.parseTopic(room.topic("acme.io", "ä"))),
        () -> assertNull(room.parseTopic("other.a.b"), "another channel"),
        () -> assertNull(room.parseTopic("room.a"), "too few params"),
        () -> assertThrows(IllegalArgumentException.class, () -> room.parseTopic("room.a.b c"), "raw space"),
        () -> assertThrows(IllegalArgumentException.class, () -> room.topic("only-one")));
  }

  @Test
  void queryHashIsTheNameAndSixteenHexOfSha256OverCanonicalJson() {
    // printf '{"a":1,"b":"x"}' | sha256sum → ecf9e98ec0641e23…
    String expected = "q:ecf9e98ec0641e23";
    assertAll(
        () -> assertEquals(expected, QueryHash.of("q", Json.parse("{\"b\":\"x\",\"a\":1.0}")), "key order and 1.0"),
        () -> assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", QueryHash.sha256Hex(""),
            "SHA-256 of the empty string (FIPS 180-2 test vector)"),
        () -> assertEquals(18, expected.length()));
  }

  @Test
  void recordKeysAreTheValueTextOrACanonicalJsonArray() {
    EntityRef one = EntityRef.of("a").key("id").columns(c -> c.int8("id"));
    EntityRef two = EntityRef.of("b").key("n", "t").columns(c -> c.int8("n").text("t"));
    assertAll(
        () -> assertEquals("9007199254740993", one.keyOf(Row.of(Map.of("id", 9007199254740993L)))),
        () -> assertEquals("[\"9007199254740993\",\"x\\\"y\"]",
            two.keyOf(Row.of(Map.of("n", 9007199254740993L, "t", "x\"y")))),
        () -> assertThrows(IllegalArgumentException.class, () -> one.keyOf(Row.empty())));
  }

  @Test
  void policiesGateActorsAndRowRulesFilterRows() {
    Actor ada = Actor.user("ada").inOrg("acme").withPermissions("feed:read");
    Policy own = Policy.authenticated().visible((actor, row) -> actor.id().equals(row.get("author")));
    assertAll(
        () -> assertTrue(Policy.allowPublic().admits(Actor.anonymous())),
        () -> assertFalse(Policy.authenticated().admits(Actor.anonymous())),
        () -> assertTrue(Policy.can("feed:read").admits(ada)),
        () -> assertFalse(Policy.can("feed:write").admits(ada)),
        () -> assertTrue(Policy.memberOfParam("orgId").admits(ada, Map.of("orgId", "acme"))),
        () -> assertFalse(Policy.memberOfParam("orgId").admits(ada, Map.of("orgId", "other"))),
        () -> assertFalse(Policy.memberOfParam("orgId").admits(Actor.anonymous(), Map.of("orgId", "acme"))),
        () -> assertTrue(own.visible(ada, Row.of(Map.of("author", "ada")))),
        () -> assertFalse(own.visible(ada, Row.of(Map.of("author", "bob")))),
        () -> assertThrows(IllegalArgumentException.class, () -> new Actor(null, "acme", java.util.Set.of(),
            java.util.Set.of()), "an anonymous actor has no org"));
  }
}
