package io.runnel.client.bundle;

import static io.runnel.client.fake.Node.post;
import static io.runnel.client.fake.Node.snapshot;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.Refs;
import io.runnel.client.RunnelClient;
import io.runnel.client.fake.CountingIds;
import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.FakeSockets;
import io.runnel.client.fake.MapStore;
import io.runnel.client.fake.Node;
import io.runnel.client.fake.RecordingHttp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The page's JSON face of the client: views, outcomes, connection and outbox as JSON text; refusals never throw. */
class PageClientTest {

  private final FakeSockets sockets = new FakeSockets();
  private final RecordingHttp http = new RecordingHttp();
  private final Refs refs = new Refs().entity(Node.POSTS).query(Node.BY_LIKES).mutator(Node.LIKE);
  private final PageClient page = new PageClient(RunnelClient.builder()
      .ports(sockets, http, new MapStore(), new WireJsonPort(), new CountingIds(), new FakeScheduler())
      .origin("https://app.example").refs(refs).random(() -> 0.5).create(), refs, new WireJsonPort());

  private FakeSockets.Socket online() {
    FakeSockets.Socket node = sockets.last();
    node.open();
    node.receive(Node.hello("u1", 1));
    return node;
  }

  @Test
  void aQueryIsHeardAsJsonFromPendingToReadyWithTheTwinsWriteInItsRecords() {
    List<String> views = new ArrayList<>();
    List<String> outcomes = new ArrayList<>();
    List<String> states = new ArrayList<>();
    page.connection(states::add);
    page.connect();
    page.query("byLikes", "{\"org\":\"acme\"}", views::add);
    FakeSockets.Socket node = online();
    node.receive(snapshot("q1", 2, post("p1", "acme", "A", 5)));
    page.mutate("likePost", "\"p1\"", outcomes::add);
    http.open().ok("d1", "000000000000000300000000");
    assertAll(
        () -> assertEquals("{\"status\":\"pending\",\"records\":[]}", views.get(0)),
        () -> assertEquals("{\"status\":\"ready\",\"records\":[{\"type\":\"posts\",\"key\":\"p1\",\"record\":"
            + "{\"id\":\"p1\",\"org\":\"acme\",\"title\":\"A\",\"likes\":6}}]}", views.get(views.size() - 1),
            "the like is in the overlay"),
        () -> assertEquals(1, outcomes.size(), "the outcome is heard once the node answered"),
        () -> assertTrue(outcomes.get(0).startsWith("{\"writeId\":\"likePost:"), outcomes.get(0)),
        () -> assertEquals("{\"state\":\"offline\",\"epoch\":0,\"reconnectAt\":1000000}", states.get(0),
            "before connect: offline, due now"),
        () -> assertEquals("{\"state\":\"connecting\",\"epoch\":0}", states.get(1)),
        () -> assertEquals("{\"state\":\"online\",\"epoch\":1}", states.get(states.size() - 1)));
  }

  @Test
  void anUnknownQueryIsOneFailedViewAndARefusedInputOneOutcomeWithNothingThrown() {
    List<String> views = new ArrayList<>();
    List<String> outcomes = new ArrayList<>();
    page.connect();
    online();
    Runnable release = page.query("nope", "{}", views::add);
    page.query("byLikes", "{}", views::add);
    page.mutate("likePost", "7", outcomes::add);
    release.run();
    assertAll(
        () -> assertEquals(2, views.size(), "one view each"),
        () -> assertTrue(views.get(0).startsWith("{\"status\":\"failed\",\"error\":{\"code\":\"X_LIVE_QUERY_UNKNOWN\""),
            views.get(0)),
        () -> assertTrue(views.get(1).contains("\"code\":\"X_INPUT_INVALID\""), views.get(1)),
        () -> assertTrue(outcomes.get(0).startsWith("{\"error\":{\"code\":\"X_INPUT_INVALID\""), outcomes.get(0)),
        () -> assertEquals(List.of(), http.calls, "nothing sent"));
  }

  @Test
  void theOutboxIsHeardAsJsonWithEachPendingWrite() {
    List<String> outbox = new ArrayList<>();
    page.connect();
    online();
    http.offline = true;
    page.outbox(outbox::add);
    page.mutate("likePost", "\"p1\"", o -> { });
    assertAll(
        () -> assertEquals("{\"pending\":[],\"failed\":[]}", outbox.get(0)),
        () -> assertTrue(outbox.get(outbox.size() - 1).startsWith("{\"pending\":[{\"writeId\":\"likePost:"),
            outbox.get(outbox.size() - 1)));
  }

  @Test
  void aRecordIsHeardAsJsonNowAndAtEachChangeAndAnUnknownTypeIsOneAnswerWithAnError() {
    List<String> heard = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    page.connect();
    page.query("byLikes", "{\"org\":\"acme\"}", v -> { });
    page.record("posts", "p1", heard::add);
    FakeSockets.Socket node = online();
    node.receive(snapshot("q1", 2, post("p1", "acme", "A", 5)));
    page.record("comments", "c1", refused::add).cancel();
    assertAll(
        () -> assertEquals(List.of("{\"type\":\"posts\",\"key\":\"p1\",\"record\":null}",
            "{\"type\":\"posts\",\"key\":\"p1\",\"record\":{\"id\":\"p1\",\"org\":\"acme\",\"title\":\"A\","
            + "\"likes\":5}}"), heard, "null until a list brought it, then the row"),
        () -> assertEquals(1, refused.size(), "one answer"),
        () -> assertTrue(refused.get(0).startsWith("{\"type\":\"comments\",\"key\":\"c1\",\"record\":null,"
            + "\"error\":{\"code\":\"X_INPUT_INVALID\",\"cause\":\"Field 'type' names no entity"), refused.get(0)));
  }

  @Test
  void aChannelInABundleThatDeclaresNoneIsOneFailedStateWithNothingThrownOrSent() {
    List<String> states = new ArrayList<>();
    page.connect();
    FakeSockets.Socket node = online();
    page.channel("room", "{\"id\":\"r1\"}", null, states::add, e -> { }, r -> { }).cancel();
    assertAll(
        () -> assertEquals(1, states.size()),
        () -> assertTrue(states.get(0).startsWith("{\"state\":\"failed\",\"error\":{\"code\":\"X_INPUT_INVALID\""),
            states.get(0)),
        () -> assertEquals(List.of("hello"), node.kinds(), "nothing sent"));
  }

  @Test
  void aChannelsStatesEventsAndRosterAreHeardAsJson() {
    Refs withRoom = new Refs().entity(Node.POSTS).channel(Node.ROOM);
    PageClient page = new PageClient(RunnelClient.builder()
        .ports(sockets, http, new MapStore(), new WireJsonPort(), new CountingIds(), new FakeScheduler())
        .origin("https://app.example").refs(withRoom).random(() -> 0.5).create(), withRoom, new WireJsonPort());
    List<String> states = new ArrayList<>();
    List<String> events = new ArrayList<>();
    List<String> rosters = new ArrayList<>();
    page.connect();
    var room = page.channel("room", "{\"id\":\"r1\"}", "{\"name\":\"Ada\"}", states::add, events::add,
        rosters::add);
    FakeSockets.Socket node = online();
    node.receive(Node.presence("room.r1", 1, Node.member("u1", "Ada", 10)));
    node.receive(Node.event("room.r1", "typing", "{\"who\":\"u1\"}"));
    node.receive(Node.refuseTopic("room.r1", "X_FORBIDDEN"));
    room.cancel();
    assertAll(
        () -> assertEquals(List.of("{\"state\":\"joining\"}", "{\"state\":\"live\"}",
            "{\"state\":\"failed\",\"error\":{\"code\":\"X_FORBIDDEN\",\"cause\":\"Not a member.\","
                + "\"fix\":\"Join the org.\"}}"), states),
        () -> assertEquals(List.of("{\"event\":\"typing\",\"payload\":{\"who\":\"u1\"}}"), events),
        () -> assertEquals(List.of("{\"members\":[],\"total\":0}",
            "{\"members\":[{\"key\":\"u1\",\"meta\":{\"name\":\"Ada\"},\"since\":10}],\"total\":1}"), rosters),
        () -> assertEquals("{\"t\":\"join\",\"topic\":\"room.r1\",\"presence\":{\"name\":\"Ada\"}}",
            node.sent.get(1)));
  }

  @Test
  void aPresenceWatchJoinsWithoutAnnouncingThePageAndHearsTheRosterAsJsonAndARefusalAsAnErrorRoster() {
    Refs withRoom = new Refs().entity(Node.POSTS).channel(Node.ROOM);
    PageClient page = new PageClient(RunnelClient.builder()
        .ports(sockets, http, new MapStore(), new WireJsonPort(), new CountingIds(), new FakeScheduler())
        .origin("https://app.example").refs(withRoom).random(() -> 0.5).create(), withRoom, new WireJsonPort());
    List<String> rosters = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    page.connect();
    var watch = page.presence("room", "{\"id\":\"r1\"}", rosters::add);
    page.presence("nope", "{\"id\":\"r1\"}", unknown::add).cancel();
    FakeSockets.Socket node = online();
    node.receive(Node.presence("room.r1", 1, Node.member("u2", "Bo", 20)));
    node.receive(Node.event("room.r1", "typing", "{}"));
    node.receive(Node.refuseTopic("room.r1", "X_FORBIDDEN"));
    watch.cancel();
    assertAll(
        () -> assertEquals(List.of("{\"members\":[],\"total\":0}",
            "{\"members\":[{\"key\":\"u2\",\"meta\":{\"name\":\"Bo\"},\"since\":20}],\"total\":1}",
            "{\"members\":[],\"total\":0,\"error\":{\"code\":\"X_FORBIDDEN\",\"cause\":\"Not a member.\","
                + "\"fix\":\"Join the org.\"}}"), rosters, "now, at every change, and the node's refusal"),
        () -> assertEquals(1, unknown.size()),
        () -> assertTrue(unknown.get(0).startsWith("{\"members\":[],\"total\":0,\"error\":{\"code\":"
            + "\"X_INPUT_INVALID\",\"cause\":\"Field 'name' names no channel"), unknown.get(0)),
        () -> assertEquals(List.of("hello", "join"), node.kinds(), "one join, none for the unknown channel"),
        () -> assertEquals("{\"t\":\"join\",\"topic\":\"room.r1\"}", node.sent.get(1), "no presence meta"));
  }

  @Test
  void aChannelsTopicIsSpelledAsItsJoinSpellsItWithEachParamPercentEncodedAndNullWhenRefused() {
    Refs withRoom = new Refs().entity(Node.POSTS).channel(Node.ROOM);
    PageClient page = new PageClient(RunnelClient.builder()
        .ports(sockets, http, new MapStore(), new WireJsonPort(), new CountingIds(), new FakeScheduler())
        .origin("https://app.example").refs(withRoom).random(() -> 0.5).create(), withRoom, new WireJsonPort());
    page.connect();
    FakeSockets.Socket node = online();
    String topic = page.topic("room", "{\"id\":\"a.b c%\"}");
    page.channel("room", "{\"id\":\"a.b c%\"}", null, s -> { }, e -> { }, r -> { });
    assertAll(
        () -> assertEquals("room.a%2Eb%20c%25", topic),
        () -> assertEquals("{\"t\":\"join\",\"topic\":\"" + topic + "\"}", node.sent.get(1), "the topic joined"),
        () -> assertEquals(null, page.topic("nope", "{\"id\":\"r1\"}"), "a channel the bundle does not know"),
        () -> assertEquals(null, page.topic("room", "{\"room\":\"r1\"}"), "a param missing"),
        () -> assertEquals(null, page.topic("room", "[]"), "params not an object"),
        () -> assertEquals(null, this.page.topic("room", "{\"id\":\"r1\"}"), "a bundle with no channel"));
  }
}
