package io.runnel.dsl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.QueryHash;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.Json;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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
        () -> assertEquals("roomId",
            assertThrows(InputInvalidException.class, () -> room.parseTopic("room.a.b c"), "raw space").path()),
        () -> assertEquals("orgId",
            assertThrows(InputInvalidException.class, () -> room.parseTopic("room.%ZZ.b"), "bad escape").path()),
        () -> assertEquals("orgId",
            assertThrows(InputInvalidException.class, () -> room.parseTopic("room.%C3.b"), "not UTF-8").path()),
        () -> assertEquals(ErrorCode.X_INPUT_INVALID,
            assertThrows(InputInvalidException.class, () -> room.parseTopic("room.a%2.b")).code()),
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
  void keyBuildsTheRecordKeyFromKeyColumnValuesCoercedThroughTheirTypes() {
    EntityRef posts = EntityRef.of("posts").key("id").columns(c -> c.uuid("id").text("title"));
    EntityRef likes = EntityRef.of("likes").key("post_id", "user_id").columns(c -> c.uuid("post_id").text("user_id"));
    EntityRef prices = EntityRef.of("prices").key("amount", "n").columns(c -> c.numeric("amount").int8("n"));
    String post = "0B7E6A52-1C3B-4C5E-8F00-0A1B2C3D4E5F";
    assertAll(
        () -> assertEquals("0b7e6a52-1c3b-4c5e-8f00-0a1b2c3d4e5f", posts.key(post), "uuid in lower case"),
        () -> assertEquals(likes.keyOf(Row.of(Map.of("post_id", post.toLowerCase(Locale.ROOT),
            "user_id", "ada"))), likes.key(post, "ada"), "the same spelling as keyOf"),
        () -> assertEquals("[\"0b7e6a52-1c3b-4c5e-8f00-0a1b2c3d4e5f\",\"ada\"]", likes.key(post, "ada"),
            "a composite key is the canonical JSON array"),
        () -> assertEquals("[\"0.10\",\"9007199254740993\"]", prices.key("0.10", 9007199254740993L)),
        () -> assertThrows(IllegalArgumentException.class, () -> likes.key(post), "one value for two columns"),
        () -> assertEquals("posts.id",
            assertThrows(InputInvalidException.class, () -> posts.key("not-a-uuid")).path()),
        () -> assertEquals("likes.user_id",
            assertThrows(InputInvalidException.class, () -> likes.key(post, null)).path()));
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
        () -> assertThrows(IllegalArgumentException.class, () -> new Actor(null, "acme", Set.of(),
            Set.of()), "an anonymous actor has no org"));
  }
}
