package io.runnel.sync;

import static io.runnel.sync.ChannelFixture.join;
import static io.runnel.sync.ChannelFixture.meta;
import static io.runnel.sync.ChannelFixture.until;
import static io.runnel.sync.SyncNodeTest.str;
import static io.runnel.sync.SyncNodeTest.t;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Channels on one node, end to end over real sockets: joins and leaves, deny by default, the policy, the per-socket
 * cap as a reservation, events over HTTP, and presence with a manual clock and ticker (no sleeps). Each test uses
 * topics of its own.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChannelsTest {

  ChannelFixture f;

  @BeforeAll
  void start(TestDatabase db) {
    f = new ChannelFixture(db, b -> b);
  }

  @AfterAll
  void stop() {
    f.close();
  }

  static long num(JsonObject frame, String field) {
    return ((JsonNumber) frame.get(field)).longValueExact();
  }

  /** The keys of the members listed in {@code field} ({@code members} or {@code joins}). */
  static List<String> keys(JsonObject frame, String field) {
    List<String> out = new ArrayList<>();
    for (JsonValue v : ((JsonArray) frame.get(field)).elements()) {
      out.add(str((JsonObject) v, "key"));
    }
    return out;
  }

  static List<String> leaves(JsonObject frame) {
    List<String> out = new ArrayList<>();
    for (JsonValue v : ((JsonArray) frame.get("leaves")).elements()) {
      out.add(((JsonString) v).value());
    }
    return out;
  }

  static JsonObject member(JsonObject frame, String field, int i) {
    return (JsonObject) ((JsonArray) frame.get(field)).get(i);
  }

  static String event(String name, String payload) {
    return "{\"event\":\"" + name + "\",\"payload\":" + payload + "}";
  }

  @Test
  void aJoinIsAnsweredFirstByTheRosterAndALeaveEndsTheTopicsEvents() throws Exception {
    ProtocolClient<JsonObject> c = f.connect("ada@acme");
    c.send(join("room.j1", null));
    JsonObject roster = c.next();
    HttpResponse<String> sent = f.event("bob@acme", "room.j1", event("typing", "{\"x\":1}"));
    JsonObject received = c.next();
    c.send("{\"t\":\"leave\",\"topic\":\"room.j1\"}");
    List<JsonObject> afterLeave = until(c);
    HttpResponse<String> unheard = f.event("bob@acme", "room.j1", event("typing", "{\"x\":2}"));
    List<JsonObject> afterEvent = until(c);
    assertAll(
        () -> assertEquals("presence", t(roster), "the roster answers the join"),
        () -> assertEquals("room.j1", str(roster, "topic")),
        () -> assertEquals(0, num(roster, "total"), "nobody joined with a presence meta"),
        () -> assertEquals(202, sent.statusCode(), sent.body()),
        () -> assertEquals("{\"delivered\":1}", sent.body()),
        () -> assertEquals("{\"t\":\"event\",\"topic\":\"room.j1\",\"event\":\"typing\",\"payload\":{\"x\":1}}",
            received.toString()),
        () -> assertEquals(List.of(), afterLeave),
        () -> assertEquals("{\"delivered\":0}", unheard.body(), "nobody holds the topic after the leave"),
        () -> assertEquals(List.of(), afterEvent, "no event reaches a socket that left"));
    c.close();
  }

  @Test
  void aTopicNoChannelDeclaresOrSpelledAnotherWayIsRefusedWithTopicForbidden() throws Exception {
    ProtocolClient<JsonObject> c = f.connect("ada@acme");
    List<String> topics = List.of("nochannel.x", "Room.x", "room.a%2e", "room.%41", "org");
    List<JsonObject> answers = new ArrayList<>();
    for (String topic : topics) {
      c.send(join(topic, null));
      answers.add(c.next());
    }
    HttpResponse<String> overHttp = f.event("ada@acme", "nochannel.x", event("typing", "{}"));
    List<JsonObject> still = until(c);
    for (int i = 0; i < topics.size(); i++) {
      JsonObject a = answers.get(i);
      String topic = topics.get(i);
      assertAll(topic,
          () -> assertEquals("refuse", t(a), a.toString()),
          () -> assertEquals("X_TOPIC_FORBIDDEN", str(a, "code"), a.toString()),
          () -> assertEquals(topic, str(a, "topic"), "the refusal names the topic"));
    }
    assertAll(
        () -> assertEquals(403, overHttp.statusCode(), overHttp.body()),
        () -> assertTrue(overHttp.body().contains("\"code\":\"X_TOPIC_FORBIDDEN\""), overHttp.body()),
        () -> assertEquals(List.of(), still, "the socket stays up and answers its hello"));
    c.close();
  }

  @Test
  void aTopicThatDoesNotSpellItsChannelsParamsIsForbiddenAndOneThatDoesIsJoined() throws Exception {
    ProtocolClient<JsonObject> c = f.connect("ada@acme");
    List<String> topics = List.of("pair.x", "room", "room.a.b", "lobby.x", "room.a%zz");
    List<JsonObject> answers = new ArrayList<>();
    for (String topic : topics) {
      c.send(join(topic, null));
      answers.add(c.next());
    }
    c.send(join("pair.x.y", null));
    JsonObject joined = c.next();
    for (int i = 0; i < topics.size(); i++) {
      JsonObject a = answers.get(i);
      assertEquals("X_TOPIC_FORBIDDEN", str(a, "code"), topics.get(i) + ": " + a);
    }
    assertAll(
        () -> assertEquals("presence", t(joined)),
        () -> assertEquals("pair.x.y", str(joined, "topic")));
    c.close();
  }

  @Test
  void theChannelsPolicyDecidesEachJoinAndEachEvent() throws Exception {
    ProtocolClient<JsonObject> ada = f.connect("ada@acme");
    ProtocolClient<JsonObject> anonymous = f.connect(null);
    ada.send(join("org.acme", null));
    JsonObject own = ada.next();
    List<JsonObject> refused = new ArrayList<>();
    for (String topic : List.of("org.globex", "room.private-1", "broken.x")) {
      ada.send(join(topic, null));
      refused.add(ada.next());
    }
    anonymous.send(join("org.acme", null));
    JsonObject anonymousRefused = anonymous.next();
    HttpResponse<String> outsider = f.event("eve@globex", "org.acme", event("ping", "{}"));
    HttpResponse<String> member = f.event("bob@acme", "org.acme", event("ping", "{}"));
    JsonObject ping = ada.next();
    assertAll(
        () -> assertEquals("presence", t(own), "a member of acme joins org.acme"),
        () -> assertEquals("X_FORBIDDEN", str(refused.get(0), "code"), "another org's topic"),
        () -> assertEquals("org.globex", str(refused.get(0), "topic")),
        () -> assertEquals("X_FORBIDDEN", str(refused.get(1), "code"), "a room the policy closes"),
        () -> assertEquals("X_FORBIDDEN", str(refused.get(2), "code"), "a policy that throws refuses"),
        () -> assertEquals("X_FORBIDDEN", str(anonymousRefused, "code"), "an anonymous actor has no org"),
        () -> assertEquals(403, outsider.statusCode(), outsider.body()),
        () -> assertTrue(outsider.body().contains("\"code\":\"X_FORBIDDEN\""), outsider.body()),
        () -> assertEquals(202, member.statusCode(), member.body()),
        () -> assertEquals("event", t(ping)));
    ada.close();
    anonymous.close();
  }

  @Test
  void seventyJoinsInOneWriteAreAnsweredBy64RostersAndSixCapRefusals() throws Exception {
    try (RawSocket raw = RawSocket.open(f.node.port(), "cap@acme", 0)) {
      List<String> joins = new ArrayList<>();
      for (int i = 0; i < 70; i++) {
        joins.add(join("room.cap-" + i, null));
      }
      raw.writeAll(joins);
      int rosters = 0;
      List<String> refusedTopics = new ArrayList<>();
      for (int i = 0; i < 70; i++) {
        JsonObject frame = (JsonObject) Json.parse(raw.read());
        if (t(frame).equals("presence")) {
          rosters++;
        } else {
          assertEquals("X_SUBSCRIPTION_LIMIT", str(frame, "code"), frame.toString());
          refusedTopics.add(str(frame, "topic"));
        }
      }
      // A repeated join of a held topic counts nothing again and answers nothing; a leave gives its slot back.
      raw.writeAll(List.of(join("room.cap-0", meta("beat")), "{\"t\":\"leave\",\"topic\":\"room.cap-1\"}",
          join("room.cap-64", null), join("room.cap-65", null), "{\"t\":\"hello\",\"v\":1}"));
      JsonObject afterLeave = (JsonObject) Json.parse(raw.read());
      JsonObject overAgain = (JsonObject) Json.parse(raw.read());
      JsonObject hello = (JsonObject) Json.parse(raw.read());
      int accepted = rosters;
      assertAll(
          () -> assertEquals(64, accepted, "exactly 64 topics per socket"),
          () -> assertEquals(List.of("room.cap-64", "room.cap-65", "room.cap-66", "room.cap-67", "room.cap-68",
              "room.cap-69"), refusedTopics),
          () -> assertEquals("presence", t(afterLeave), "the slot the leave gave back is taken"),
          () -> assertEquals("room.cap-64", str(afterLeave, "topic")),
          () -> assertEquals("X_SUBSCRIPTION_LIMIT", str(overAgain, "code"), "and then the cap holds again"),
          () -> assertEquals("hello", t(hello), "the repeated join was answered by nothing"));
    }
  }

  @Test
  void anEventReachesEveryMemberOnTwoSocketsOnceAndIsCounted() throws Exception {
    ProtocolClient<JsonObject> a = f.connect("ada@acme");
    ProtocolClient<JsonObject> b = f.connect("bob@acme");
    ProtocolClient<JsonObject> other = f.connect("cy@acme");
    a.send(join("room.e1", null));
    b.send(join("room.e1", meta("Bob")));
    other.send(join("room.e2", null));
    a.send(join("room.a%2Eb", null));
    for (ProtocolClient<JsonObject> c : List.of(a, b, other, a)) {
      assertEquals("presence", t(c.next()));
    }
    HttpResponse<String> sent = f.event("cy@acme", "room.e1",
        event("typing", "{\"text\":\"hi\",\"n\":\"9007199254740993\"}"));
    JsonObject atA = a.next();
    JsonObject atB = b.next();
    HttpResponse<String> dotted = f.event("cy@acme", "room.a%2Eb", event("typing", "null"));
    JsonObject dottedAtA = a.next();
    List<JsonObject> elsewhere = until(other);
    List<JsonObject> restA = until(a);
    List<JsonObject> restB = until(b);
    String expected = "{\"t\":\"event\",\"topic\":\"room.e1\",\"event\":\"typing\",\"payload\":"
        + "{\"text\":\"hi\",\"n\":\"9007199254740993\"}}";
    assertAll(
        () -> assertEquals(202, sent.statusCode(), sent.body()),
        () -> assertEquals("{\"delivered\":2}", sent.body(), "two member sockets took it"),
        () -> assertEquals(expected, atA.toString()),
        () -> assertEquals(expected, atB.toString()),
        () -> assertEquals("{\"delivered\":1}", dotted.body(), "a '.' in a param is %2E, sent as %252E in the path"),
        () -> assertEquals("room.a%2Eb", str(dottedAtA, "topic")),
        () -> assertEquals(List.of(), elsewhere, "another topic's member hears nothing"),
        () -> assertEquals(List.of(), restA, "each member got the event once"),
        () -> assertEquals(List.of(), restB, "each member got the event once"));
    a.close();
    b.close();
    other.close();
  }

  @Test
  void anEventWithAnUndeclaredNameAnOversizedPayloadOrABadBodyIsRefused() throws Exception {
    ProtocolClient<JsonObject> c = f.connect("ada@acme");
    c.send(join("room.big", null));
    c.next();
    String fits = "\"" + "x".repeat(64 * 1024 - 2) + "\"";
    String over = "\"" + "x".repeat(64 * 1024 - 1) + "\"";
    HttpResponse<String> undeclared = f.event("ada@acme", "room.big", event("shout", "{}"));
    HttpResponse<String> tooLarge = f.event("ada@acme", "room.big", event("typing", over));
    HttpResponse<String> exactly = f.event("ada@acme", "room.big", event("typing", fits));
    HttpResponse<String> notJson = f.event("ada@acme", "room.big", "{");
    HttpResponse<String> noName = f.event("ada@acme", "room.big", "{\"payload\":1}");
    JsonObject delivered = c.next();
    assertAll(
        () -> assertEquals(422, undeclared.statusCode(), undeclared.body()),
        () -> assertTrue(undeclared.body().contains("\"code\":\"X_INPUT_INVALID\""), undeclared.body()),
        () -> assertTrue(undeclared.body().contains("shout"), "the name is echoed: " + undeclared.body()),
        () -> assertEquals(413, tooLarge.statusCode(), tooLarge.body()),
        () -> assertTrue(tooLarge.body().contains("\"code\":\"X_PAYLOAD_TOO_LARGE\""), tooLarge.body()),
        () -> assertEquals(202, exactly.statusCode(), "a payload of exactly 64 KiB passes: " + exactly.body()),
        () -> assertEquals(422, notJson.statusCode(), notJson.body()),
        () -> assertEquals(422, noName.statusCode(), noName.body()),
        () -> assertEquals("event", t(delivered)),
        () -> assertEquals(List.of(), until(c), "only the event that passed arrived"));
    c.close();
  }

  @Test
  void anActorOverItsEventRateIsRefused429WithRetryAfterAndServedAgainOnceItRefills() throws Exception {
    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      statuses.add(f.event("rate@acme", "room.rate", event("typing", "{}")).statusCode());
    }
    HttpResponse<String> over = f.event("rate@acme", "room.rate", event("typing", "{}"));
    HttpResponse<String> another = f.event("calm@acme", "room.rate", event("typing", "{}"));
    f.clock.advance(Duration.ofSeconds(1));
    HttpResponse<String> later = f.event("rate@acme", "room.rate", event("typing", "{}"));
    assertAll(
        () -> assertTrue(statuses.stream().allMatch(s -> s == 202), "the burst of 40 passes: " + statuses),
        () -> assertEquals(429, over.statusCode(), over.body()),
        () -> assertTrue(over.body().contains("\"code\":\"X_FRAME_RATE_LIMIT\""), over.body()),
        () -> assertEquals("1", over.headers().firstValue("Retry-After").orElse(null)),
        () -> assertEquals(202, another.statusCode(), "the rate is per actor"),
        () -> assertEquals(202, later.statusCode(), "a second later the bucket has refilled"));
  }

  @Test
  void aJoinWithAMetaIsInTheRosterAndTheOtherMembersHearOfItInADiff() throws Exception {
    long since = f.clock.millis();
    ProtocolClient<JsonObject> a = f.connect("ada@acme");
    a.send(join("room.p1", meta("Ada")));
    JsonObject first = a.next();
    f.ticker.tick();
    List<JsonObject> nothingYet = until(a);
    ProtocolClient<JsonObject> b = f.connect("bob@acme");
    b.send(join("room.p1", meta("Bob")));
    JsonObject second = b.next();
    f.clock.advance(Duration.ofMillis(250));
    f.ticker.tick();
    JsonObject diff = a.next();
    List<JsonObject> atB = until(b);
    assertAll(
        () -> assertEquals("{\"t\":\"presence\",\"topic\":\"room.p1\",\"members\":[{\"key\":\"ada\",\"meta\":"
            + "{\"name\":\"Ada\"},\"since\":" + since + "}],\"total\":1}", first.toString(), "the roster holds Ada"),
        () -> assertEquals(List.of(), nothingYet, "Ada is not told of her own join"),
        () -> assertEquals(List.of("ada", "bob"), keys(second, "members")),
        () -> assertEquals(2, num(second, "total")),
        () -> assertEquals("presence-diff", t(diff)),
        () -> assertEquals(List.of("bob"), keys(diff, "joins")),
        () -> assertEquals(List.of(), leaves(diff)),
        () -> assertEquals(2, num(diff, "total")),
        () -> assertEquals("{\"name\":\"Bob\"}", member(diff, "joins", 0).get("meta").toString()),
        () -> assertEquals(List.of(), atB, "Bob's roster already held everything"));
    a.close();
    b.close();
  }

  @Test
  void rosterChangesAreCoalescedIntoOneDiffAtMostEvery250Milliseconds() throws Exception {
    ProtocolClient<JsonObject> a = f.connect("ada@acme");
    a.send(join("room.c1", meta("Ada")));
    a.next();
    ProtocolClient<JsonObject> b = f.connect("bob@acme");
    b.send(join("room.c1", meta("Bob")));
    b.next();
    f.ticker.tick();
    JsonObject firstDiff = a.next();
    ProtocolClient<JsonObject> c = f.connect("cy@acme");
    ProtocolClient<JsonObject> d = f.connect("di@acme");
    c.send(join("room.c1", meta("Cy")));
    c.next();
    d.send(join("room.c1", meta("Di")));
    d.next();
    f.ticker.tick();
    List<JsonObject> atOnce = until(a);
    f.clock.advance(Duration.ofMillis(100));
    f.ticker.tick();
    List<JsonObject> at100 = until(a);
    b.send("{\"t\":\"leave\",\"topic\":\"room.c1\"}");
    until(b);
    f.clock.advance(Duration.ofMillis(150));
    f.ticker.tick();
    JsonObject coalesced = a.next();
    List<JsonObject> after = until(a);
    assertAll(
        () -> assertEquals(List.of("bob"), keys(firstDiff, "joins")),
        () -> assertEquals(List.of(), atOnce, "no second diff within 250 ms of the first"),
        () -> assertEquals(List.of(), at100, "nor 100 ms later"),
        () -> assertEquals("presence-diff", t(coalesced)),
        () -> assertEquals(List.of("cy", "di"), keys(coalesced, "joins"), "one diff carries both joins"),
        () -> assertEquals(List.of("bob"), leaves(coalesced), "and the leave"),
        () -> assertEquals(3, num(coalesced, "total")),
        () -> assertEquals(List.of(), after, "one frame for the whole spell"));
    for (ProtocolClient<JsonObject> s : List.of(a, b, c, d)) {
      s.close();
    }
  }

  @Test
  void aSeatNotHeardForThreeHeartbeatsLeavesAndItsNextJoinSeatsItAgainWithoutARoster() throws Exception {
    ProtocolClient<JsonObject> a = f.connect("ada@acme");
    ProtocolClient<JsonObject> b = f.connect("bob@acme");
    a.send(join("room.h1", meta("Ada")));
    a.next();
    b.send(join("room.h1", meta("Bob")));
    b.next();
    f.ticker.tick();
    a.next();
    f.clock.advance(Duration.ofSeconds(20));
    a.send(join("room.h1", meta("Ada")));
    until(a);
    f.clock.advance(Duration.ofSeconds(10));
    f.ticker.tick();
    List<JsonObject> atThirty = until(a);
    f.clock.advance(Duration.ofMillis(1));
    f.ticker.tick();
    JsonObject left = a.next();
    JsonObject leftAtBob = b.next();
    HttpResponse<String> sent = f.event("ada@acme", "room.h1", event("typing", "{}"));
    a.next();
    JsonObject stillMember = b.next();
    b.send(join("room.h1", meta("Bob")));
    List<JsonObject> beatAnswer = until(b);
    f.clock.advance(Duration.ofMillis(250));
    f.ticker.tick();
    JsonObject back = a.next();
    assertAll(
        () -> assertEquals(List.of(), atThirty, "30 s of silence is three heartbeats, not more"),
        () -> assertEquals("presence-diff", t(left)),
        () -> assertEquals(List.of("bob"), leaves(left), "Bob, silent past three heartbeats, left"),
        () -> assertEquals(1, num(left, "total"), "Ada, who beat, stayed"),
        () -> assertEquals(left.toString(), leftAtBob.toString(), "Bob's socket hears it too"),
        () -> assertEquals("{\"delivered\":2}", sent.body(), "Bob's socket is still a member for events"),
        () -> assertEquals("event", t(stillMember)),
        () -> assertEquals(List.of(), beatAnswer, "the next beat seats him again and sends no roster"),
        () -> assertEquals(List.of("bob"), keys(back, "joins")),
        () -> assertEquals(2, num(back, "total")));
    a.close();
    b.close();
  }

  @Test
  void aSocketThatClosesLeavesAtOnceWithoutWaitingOutTheHeartbeats() throws Exception {
    ProtocolClient<JsonObject> a = f.connect("ada@acme");
    ProtocolClient<JsonObject> b = f.connect("bob@acme");
    a.send(join("room.x1", meta("Ada")));
    a.next();
    b.send(join("room.x1", meta("Bob")));
    b.next();
    f.ticker.tick();
    a.next();
    b.close();
    // The node handles the close on its own thread: tick each 250 ms of the manual clock until the diff comes,
    // at most 40 times (10 s of that clock, a third of the 30 s a silent seat would take).
    JsonObject left = null;
    for (int i = 0; i < 40 && left == null; i++) {
      f.clock.advance(Duration.ofMillis(250));
      f.ticker.tick();
      List<JsonObject> got = until(a);
      left = got.isEmpty() ? null : got.get(0);
    }
    JsonObject diff = left;
    assertAll(
        () -> assertTrue(diff != null, "the leave came within 10 s"),
        () -> assertEquals(List.of("bob"), leaves(diff), "Bob left without waiting out three heartbeats"),
        () -> assertEquals(1, num(diff, "total")));
    a.close();
  }

  @Test
  void aRepeatedJoinRefreshesTheMetaAndSendsNoRoster() throws Exception {
    ProtocolClient<JsonObject> a = f.connect("ada@acme");
    ProtocolClient<JsonObject> b = f.connect("bob@acme");
    a.send(join("room.r1", JsonObject.builder().put("status", "idle").build()));
    a.next();
    b.send(join("room.r1", meta("Bob")));
    b.next();
    f.ticker.tick();
    a.next();
    a.send(join("room.r1", JsonObject.builder().put("status", "typing").build()));
    List<JsonObject> answer = until(a);
    f.clock.advance(Duration.ofMillis(250));
    f.ticker.tick();
    JsonObject diff = b.next();
    assertAll(
        () -> assertEquals(List.of(), answer, "no roster, no refusal: a beat answers nothing"),
        () -> assertEquals(List.of("ada"), keys(diff, "joins")),
        () -> assertEquals("{\"status\":\"typing\"}", member(diff, "joins", 0).get("meta").toString()),
        () -> assertEquals(2, num(diff, "total"), "nobody was counted twice"));
    a.close();
    b.close();
  }

  @Test
  void aPresenceMetaOnAChannelWithoutPresenceIsRefusedAndAHeldTopicIsLeft() throws Exception {
    ProtocolClient<JsonObject> a = f.connect("ada@meta-org");
    a.send(join("org.meta-org", meta("Ada")));
    JsonObject refused = a.next();
    a.send(join("org.meta-org", null));
    JsonObject joined = a.next();
    a.send(join("org.meta-org", meta("Ada")));
    JsonObject refusedBeat = a.next();
    HttpResponse<String> sent = f.event("ada@meta-org", "org.meta-org", event("ping", "{}"));
    assertAll(
        () -> assertEquals("X_INPUT_INVALID", str(refused, "code")),
        () -> assertEquals("org.meta-org", str(refused, "topic")),
        () -> assertEquals("presence", t(joined)),
        () -> assertEquals("X_INPUT_INVALID", str(refusedBeat, "code")),
        () -> assertEquals("{\"delivered\":0}", sent.body(), "the refused beat left the topic, as its refuse says"));
    a.close();
  }

  @Test
  void aPresenceMetaOverTwoKiBIsRefusedAsInputAndABeatWithOneKeepsTheSeatAndItsLastMeta() throws Exception {
    JsonObject big = JsonObject.builder().put("name", "x".repeat(2040)).build();
    ProtocolClient<JsonObject> a = f.connect("ada@acme");
    ProtocolClient<JsonObject> b = f.connect("bob@acme");
    a.send(join("room.big-meta", big));
    JsonObject refused = a.next();
    a.send(join("room.big-meta", meta("Ada")));
    JsonObject joined = a.next();
    a.send(join("room.big-meta", big));
    JsonObject refusedBeat = a.next();
    b.send(join("room.big-meta", meta("Bob")));
    JsonObject roster = b.next();
    assertAll(
        () -> assertEquals("X_INPUT_INVALID", str(refused, "code")),
        () -> assertEquals("room.big-meta", str(refused, "topic")),
        () -> assertTrue(str(refused, "cause").contains("join.presence is 2051 bytes"), str(refused, "cause")),
        () -> assertEquals("presence", t(joined), "a meta within the cap joins"),
        () -> assertEquals("X_INPUT_INVALID", str(refusedBeat, "code")),
        () -> assertEquals(List.of("ada", "bob"), keys(roster, "members"), "the refused beat kept ada's seat"),
        () -> assertEquals("{\"name\":\"Ada\"}", member(roster, "members", 0).get("meta").toString(),
            "and her last meta"));
    a.close();
    b.close();
  }

  @Test
  void anonymousMembersAreKeyedBySocketAndTwoSocketsOfOneActorAreOneMember() throws Exception {
    ProtocolClient<JsonObject> anon1 = f.connect(null);
    ProtocolClient<JsonObject> anon2 = f.connect(null);
    anon1.send(join("lobby", meta("guest 1")));
    anon1.next();
    anon2.send(join("lobby", meta("guest 2")));
    JsonObject guests = anon2.next();
    ProtocolClient<JsonObject> tab1 = f.connect("ada@acme");
    ProtocolClient<JsonObject> tab2 = f.connect("ada@acme");
    tab1.send(join("room.tabs", meta("tab 1")));
    tab1.next();
    f.clock.advance(Duration.ofMillis(5));
    tab2.send(join("room.tabs", meta("tab 2")));
    JsonObject tabs = tab2.next();
    List<String> guestKeys = keys(guests, "members");
    assertAll(
        () -> assertEquals(2, num(guests, "total")),
        () -> assertTrue(guestKeys.stream().allMatch(k -> k.startsWith("anonymous:")), guestKeys.toString()),
        () -> assertTrue(!guestKeys.get(0).equals(guestKeys.get(1)), "one key per anonymous socket"),
        () -> assertEquals(1, num(tabs, "total"), "two tabs of Ada are one member"),
        () -> assertEquals("{\"name\":\"tab 2\"}", member(tabs, "members", 0).get("meta").toString(),
            "the meta set last shows"));
    for (ProtocolClient<JsonObject> s : List.of(anon1, anon2, tab1, tab2)) {
      s.close();
    }
  }
}
