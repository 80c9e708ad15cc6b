package io.runnel.client;

import static io.runnel.client.fake.Node.ORG;
import static io.runnel.client.fake.Node.ROOM;
import static io.runnel.client.fake.Node.del;
import static io.runnel.client.fake.Node.event;
import static io.runnel.client.fake.Node.gap;
import static io.runnel.client.fake.Node.hello;
import static io.runnel.client.fake.Node.member;
import static io.runnel.client.fake.Node.post;
import static io.runnel.client.fake.Node.presence;
import static io.runnel.client.fake.Node.presenceDiff;
import static io.runnel.client.fake.Node.put;
import static io.runnel.client.fake.Node.read;
import static io.runnel.client.fake.Node.records;
import static io.runnel.client.fake.Node.refuseTopic;
import static io.runnel.client.fake.Node.update;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.runnel.client.channel.Channel;
import io.runnel.client.channel.ChannelListener;
import io.runnel.client.channel.ChannelState;
import io.runnel.client.channel.Roster;
import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.FakeSockets;
import io.runnel.client.fake.MapStore;
import io.runnel.client.fake.RecordingHttp;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Channels end to end over the composed client, a scripted node (heartbeat 1 s), a recording HTTP port and a clock
 * the test advances: the frames the page sends, the states and events its handles hear, the roster, and the rows a
 * records channel puts into the store, every row view recorded so that a row that regresses fails the test.
 */
class RunnelClientChannelTest {

  private static final JsonObject ADA = (JsonObject) Json.parse("{\"name\":\"Ada\"}");
  private static final String ACME_READ = Page.ORIGIN + "/v1/query/byLikes?input=%7B%22org%22%3A%22acme%22%7D";

  private final Page page = new Page();
  private final List<String> states = new ArrayList<>();
  private final List<String> events = new ArrayList<>();
  private final List<Roster> rosters = new ArrayList<>();
  private final ChannelListener listener = new ChannelListener() {
    @Override
    public void state(ChannelState state) {
      states.add(switch (state) {
        case ChannelState.Joining j -> "joining";
        case ChannelState.CatchingUp c -> "catching-up";
        case ChannelState.Live l -> "live";
        case ChannelState.Offline o -> "offline";
        case ChannelState.Failed f -> "failed " + f.code();
      });
    }

    @Override
    public void event(String event, JsonValue payload) {
      events.add(event + " " + Json.write(payload));
    }

    @Override
    public void presence(Roster roster) {
      rosters.add(roster);
    }
  };
  private FakeSockets.Socket node;

  /** Every view of record {@code posts:key} as {@code title:likes}, {@code -} while the page holds none. */
  private List<String> watch(String key) {
    List<String> seen = new ArrayList<>();
    page.client.record("posts", key, row -> seen.add(row == null ? "-" : row.text("title") + ":" + row.int4("likes")));
    return seen;
  }

  /** The frames of kind {@code t} the page sent on {@code socket}, as JSON text. */
  private static List<String> sent(FakeSockets.Socket socket, String t) {
    return socket.frames().stream().filter(f -> new JsonString(t).equals(f.get("t"))).map(Json::write).toList();
  }

  /** Connected as u1 with the room r1 open, announcing Ada, and the node's (empty) roster answering the join. */
  private Channel roomOnline() {
    Channel room = roomJoinSent();
    node.receive(presence("room.r1", 0));
    return room;
  }

  /** Connected as u1 with the room r1 open, announcing Ada: the join went out and the node has not answered it. */
  private Channel roomJoinSent() {
    page.client.connect();
    Channel room = page.client.channel(ROOM, Map.of("id", "r1"), ADA, listener);
    node = page.online("u1", 1);
    return room;
  }

  /**
   * Connected as u1 with channel org.acme caught up by a read at commit 2 holding p1 (A, 5 likes), which the node's
   * {@code gap} (its answer to a join without a cursor) started.
   */
  private Channel orgLive() {
    Channel org = orgJoined();
    page.http.open().answer(200, read(2, post("p1", "acme", "A", 5)));
    return org;
  }

  /**
   * Connected as u1 with channel org.acme joined without a cursor, and the node's answer to it: its roster (empty),
   * then {@code gap}.
   */
  private Channel orgJoined() {
    page.client.connect();
    Channel org = page.client.channel(ORG, Map.of("org", "acme"), null, listener);
    node = page.online("u1", 1);
    node.receive(presence("org.acme", 0));
    node.receive(gap("org.acme", "e0"));
    return org;
  }

  @Test
  void aChannelIsJoinedWhenTheConnectionComesAnnouncingItsPresenceAndWithNoCursor() {
    Channel room = roomOnline();
    assertAll(
        () -> assertEquals(List.of("hello", "join"), node.kinds(), "the join goes right after the hello answer"),
        () -> assertEquals(List.of("{\"t\":\"join\",\"topic\":\"room.r1\",\"presence\":{\"name\":\"Ada\"}}"),
            sent(node, "join")),
        () -> assertEquals(List.of("joining", "live"), states, "joining until the node's roster answered the join"),
        () -> assertEquals("room.r1", room.topic()),
        () -> assertEquals(List.of(), page.http.calls, "a channel without records reads nothing"));
  }

  @Test
  void aChannelIsJoiningUntilTheNodesRosterAnswersItsJoinAndSoAgainAfterEveryReconnect() {
    roomJoinSent();
    page.scheduler.advance(1_000);
    node.receive(hello("u1", 1));
    List<String> beforeTheRoster = List.copyOf(states);
    node.receive(presence("room.r1", 1, member("u1", "Ada", 10)));
    node.receive(presence("room.r1", 1, member("u1", "Ada", 10)));
    page.drop(node);
    page.scheduler.advance(375);
    FakeSockets.Socket again = page.online("u1", 2);
    List<String> beforeTheSecondRoster = List.copyOf(states);
    again.receive(presence("room.r1", 1, member("u1", "Ada", 10)));
    assertAll(
        () -> assertEquals(List.of("joining"), beforeTheRoster, "a join sent, even twice, is not a join accepted"),
        () -> assertEquals(List.of("joining", "live", "offline", "joining"), beforeTheSecondRoster,
            "the join after a reconnect waits for its own roster"),
        () -> assertEquals(List.of("joining", "live", "offline", "joining", "live"), states));
  }

  @Test
  void aChannelOpenedOnlineIsJoinedAtOnceAndItsParamsArePercentEncodedInTheTopic() {
    page.client.connect();
    node = page.online("u1", 1);
    page.client.channel(ROOM, Map.of("id", "a.b c"), null, listener);
    assertEquals(List.of("{\"t\":\"join\",\"topic\":\"room.a%2Eb%20c\"}"), sent(node, "join"));
  }

  @Test
  void broadcastEventsOfTheTopicReachOnEventAndOthersDoNot() {
    roomOnline();
    node.receive(event("room.r1", "typing", "{\"who\":\"u2\"}"));
    node.receive(event("room.r2", "typing", "{\"who\":\"u9\"}"));
    node.receive(event("room.r1", "ping", "[1,\"two\",null]"));
    assertEquals(List.of("typing {\"who\":\"u2\"}", "ping [1,\"two\",null]"), events);
  }

  @Test
  void theRosterIsTheLastPresenceFrameWithEveryDiffSinceApplied() {
    roomOnline();
    node.receive(presence("room.r1", 2, member("u1", "Ada", 10), member("u2", "Bo", 20)));
    node.receive(presenceDiff("room.r1", List.of(member("u3", "Cy", 30), member("u1", "Ada L.", 10)),
        List.of("u2"), 3));
    node.receive(presenceDiff("room.r1", List.of(), List.of("u9"), 2));
    List<String> seen = rosters.stream().map(r -> r.members().stream()
        .map(m -> m.key() + "=" + ((JsonString) m.meta().get("name")).value() + "@" + m.since()).toList()
        + " of " + r.total()).toList();
    assertEquals(List.of(
        "[] of 0",
        "[] of 0",
        "[u1=Ada@10, u2=Bo@20] of 2",
        "[u1=Ada L.@10, u3=Cy@30] of 3",
        "[u1=Ada L.@10, u3=Cy@30] of 2"), seen,
        "none yet, the node's answer to the join, then a join of a known key replaces its meta in place and a leave"
            + " of a member not listed changes only the total");
  }

  @Test
  void presenceWatchesTheRosterWithoutAnnouncingThePageAndCancellingLeaves() {
    page.client.connect();
    List<Roster> watched = new ArrayList<>();
    var watch = page.client.presence(ROOM, Map.of("id", "r1"), watched::add);
    node = page.online("u1", 1);
    node.receive(presence("room.r1", 1, member("u2", "Bo", 20)));
    watch.cancel();
    node.receive(presence("room.r1", 0));
    assertAll(
        () -> assertEquals(List.of("{\"t\":\"join\",\"topic\":\"room.r1\"}"), sent(node, "join")),
        () -> assertEquals(List.of(0L, 1L), watched.stream().map(Roster::total).toList()),
        () -> assertEquals(List.of("{\"t\":\"leave\",\"topic\":\"room.r1\"}"), sent(node, "leave")));
  }

  @Test
  void everyHeartbeatRepeatsTheJoinWithItsPresence() {
    roomOnline();
    page.scheduler.advance(1_000);
    node.receive(hello("u1", 1));
    page.scheduler.advance(1_000);
    String join = "{\"t\":\"join\",\"topic\":\"room.r1\",\"presence\":{\"name\":\"Ada\"}}";
    assertAll(
        () -> assertEquals(List.of("hello", "join", "hello", "join", "hello", "join"), node.kinds()),
        () -> assertEquals(List.of(join, join, join), sent(node, "join")),
        () -> assertEquals(List.of("joining", "live"), states, "a beat changes no state"));
  }

  @Test
  void aReconnectJoinsAgainAndAnnouncesPresenceAgainAndOfflineShowsMeanwhile() {
    roomOnline();
    page.drop(node);
    page.scheduler.advance(375);
    FakeSockets.Socket again = page.online("u1", 2);
    again.receive(presence("room.r1", 0));
    assertAll(
        () -> assertEquals(List.of("joining", "live", "offline", "joining", "live"), states),
        () -> assertEquals(List.of("hello", "join"), again.kinds()),
        () -> assertEquals(List.of("{\"t\":\"join\",\"topic\":\"room.r1\",\"presence\":{\"name\":\"Ada\"}}"),
            sent(again, "join")));
  }

  @Test
  void aDrainingNodesReconnectFrameLeavesTheSocketAndJoinsAgainAfterItsDelay() {
    roomOnline();
    node.receive("{\"t\":\"reconnect\",\"delayMs\":2000,\"reason\":\"drain\"}");
    page.scheduler.advance(1_999);
    int before = page.sockets.opened.size();
    page.scheduler.advance(1);
    FakeSockets.Socket again = page.online("u1", 2);
    again.receive(presence("room.r1", 0));
    assertAll(
        () -> assertEquals(1000, node.closedWith, "the page closed the draining node's socket itself"),
        () -> assertEquals(1, before, "nothing before the delay"),
        () -> assertEquals(List.of("joining", "live", "offline", "joining", "live"), states),
        () -> assertEquals(List.of("{\"t\":\"join\",\"topic\":\"room.r1\",\"presence\":{\"name\":\"Ada\"}}"),
            sent(again, "join"), "joined again with its presence"));
  }

  @Test
  void aRefusedJoinFailsTheChannelWithTheNodesCodeAndItIsNeverJoinedAgain() {
    Channel room = roomJoinSent();
    node.receive(refuseTopic("room.r1", "X_FORBIDDEN"));
    page.scheduler.advance(1_000);
    room.release();
    ChannelState.Failed failed = assertInstanceOf(ChannelState.Failed.class, room.state());
    assertAll(
        () -> assertEquals(List.of("joining", "failed X_FORBIDDEN"), states, "refused instead of a roster"),
        () -> assertEquals("Not a member.", failed.cause()),
        () -> assertEquals("Join the org.", failed.fix()),
        () -> assertEquals(List.of("hello", "join", "hello"), node.kinds(),
            "no join with the heartbeat, and no leave on release: the node holds no such topic"));
  }

  @Test
  void releaseSendsLeaveAndTheTopicIsHeardNoMore() {
    Channel room = roomOnline();
    room.release();
    node.receive(event("room.r1", "typing", "{}"));
    page.scheduler.advance(1_000);
    room.release();
    assertAll(
        () -> assertEquals(List.of("hello", "join", "leave", "hello"), node.kinds(), "one leave; no join after it"),
        () -> assertEquals(List.of("{\"t\":\"leave\",\"topic\":\"room.r1\"}"), sent(node, "leave")),
        () -> assertEquals(List.of(), events));
  }

  @Test
  void twoHandlesOfOneTopicShareOneJoinAndTheLastReleaseLeaves() {
    Channel first = roomOnline();
    List<String> second = new ArrayList<>();
    Channel other = page.client.channel(ROOM, Map.of("id", "r1"), null, new ChannelListener() {
      @Override
      public void event(String event, JsonValue payload) {
        second.add(event);
      }
    });
    node.receive(event("room.r1", "typing", "{}"));
    first.release();
    List<String> afterFirst = node.kinds();
    other.release();
    assertAll(
        () -> assertEquals(List.of("hello", "join", "leave"), node.kinds()),
        () -> assertEquals(List.of("hello", "join"), afterFirst, "the topic stays joined for the other handle"),
        () -> assertEquals(List.of("typing {}"), events),
        () -> assertEquals(List.of("typing"), second));
  }

  @Test
  void aChannelTheBundleDoesNotDeclareOrParamsThatDoNotFitAreRefusedAndNothingIsSent() {
    page.client.connect();
    node = page.online("u1", 1);
    InputInvalidException unknown = assertThrows(InputInvalidException.class,
        () -> page.client.channel("nope", JsonObject.EMPTY, null, listener));
    InputInvalidException missing = assertThrows(InputInvalidException.class,
        () -> page.client.channel("room", Json.parse("{\"room\":\"r1\"}"), null, listener));
    InputInvalidException extra = assertThrows(InputInvalidException.class,
        () -> page.client.channel(ROOM, Map.of("id", "r1", "x", "y"), null, listener));
    InputInvalidException notText = assertThrows(InputInvalidException.class,
        () -> page.client.channel("room", Json.parse("{\"id\":7}"), null, listener));
    InputInvalidException meta = assertThrows(InputInvalidException.class,
        () -> page.client.channel("room", Json.parse("{\"id\":\"r1\"}"), Json.parse("[1]"), listener));
    assertAll(
        () -> assertEquals(List.of("name", "id", "params", "id", "presence"),
            List.of(unknown.path(), missing.path(), extra.path(), notText.path(), meta.path())),
        () -> assertEquals("Field 'name' names no channel this bundle registers ('nope').", unknown.cause()),
        () -> assertEquals(List.of(), states, "no handle was made"),
        () -> assertEquals(List.of("hello"), node.kinds(), "nothing sent"));
  }

  @Test
  void aRecordsChannelJoinedWithoutACursorReadsItsCatchUpQueryThenItsFramesUpdateTheStore() {
    List<String> p1 = watch("p1");
    List<String> p2 = watch("p2");
    orgLive();
    RecordingHttp.Call readCall = page.http.last();
    node.receive(records("org.acme", "e1", 1, 3, update(post("p1", "acme", "A", 6))));
    node.receive(records("org.acme", "e1", 2, 4, put(post("p2", "acme", "B", 1), null)));
    node.receive(records("org.acme", "e1", 3, 5, del("p2")));
    assertAll(
        () -> assertEquals(List.of("{\"t\":\"join\",\"topic\":\"org.acme\"}"), sent(node, "join")),
        () -> assertEquals("GET", readCall.request.method()),
        () -> assertEquals(ACME_READ, readCall.request.url(), "the catch-up query, the params as its input"),
        () -> assertEquals(List.of("joining", "catching-up", "live"), states),
        () -> assertEquals(List.of("-", "A:5", "A:6"), p1),
        () -> assertEquals(List.of("-", "B:1", "-"), p2, "a del lets go of the row"));
  }

  @Test
  void aJoinWithoutACursorHoldsFramesAndReadsOnceWhenTheNodesGapAnswersIt() {
    List<String> p1 = watch("p1");
    page.client.connect();
    page.client.channel(ORG, Map.of("org", "acme"), null, listener);
    node = page.online("u1", 1);
    List<String> statesBeforeTheRoster = List.copyOf(states);
    node.receive(presence("org.acme", 0));
    int readsBeforeTheGap = page.http.calls.size();
    List<String> statesBeforeTheGap = List.copyOf(states);
    node.receive(gap("org.acme", "e1"));
    RecordingHttp.Call read = page.http.open();
    node.receive(records("org.acme", "e1", 1, 3, update(post("p1", "acme", "A", 6))));
    read.answer(200, read(2, post("p1", "acme", "A", 5)));
    page.scheduler.advance(1_000);
    assertAll(
        () -> assertEquals(List.of("joining"), statesBeforeTheRoster, "joining until the node's roster"),
        () -> assertEquals(0, readsBeforeTheGap, "no read before the node took the join"),
        () -> assertEquals(List.of("joining", "catching-up"), statesBeforeTheGap, "frames are held meanwhile"),
        () -> assertEquals(1, page.http.calls.size(), "one read, heartbeats included"),
        () -> assertEquals(List.of("-", "A:6"), p1, "the read and the frame held meanwhile land as one batch"),
        () -> assertEquals(List.of("joining", "catching-up", "live"), states));
  }

  @Test
  void aGapThatNeverComesIsReadAnywayAtTheSecondHeartbeat() {
    page.client.connect();
    page.client.channel(ORG, Map.of("org", "acme"), null, listener);
    node = page.online("u1", 1);
    node.receive(presence("org.acme", 0));
    page.scheduler.advance(1_000);
    int afterOneBeat = page.http.calls.size();
    node.receive(hello("u1", 1));
    page.scheduler.advance(1_000);
    page.http.open().answer(200, read(2));
    assertAll(
        () -> assertEquals(0, afterOneBeat, "the first heartbeat still waits for the gap"),
        () -> assertEquals(1, page.http.calls.size()),
        () -> assertEquals(List.of("joining", "catching-up", "live"), states));
  }

  @Test
  void aSeqHoleCatchesUpHoldingLaterFramesAndNoRowRegresses() {
    List<String> p1 = watch("p1");
    List<String> p2 = watch("p2");
    orgLive();
    node.receive(records("org.acme", "e1", 1, 3, update(post("p1", "acme", "A", 6))));
    node.receive(records("org.acme", "e1", 3, 5, update(post("p1", "acme", "A", 8))));
    node.receive(records("org.acme", "e1", 4, 6, put(post("p2", "acme", "B", 1), null)));
    List<String> p1WhileCatchingUp = List.copyOf(p1);
    RecordingHttp.Call catchUp = page.http.open();
    catchUp.answer(200, read(7, post("p1", "acme", "A", 9), post("p2", "acme", "B", 2)));
    node.receive(records("org.acme", "e1", 5, 8, update(post("p1", "acme", "A", 10))));
    page.scheduler.advance(1_000);
    assertAll(
        () -> assertEquals(List.of("joining", "catching-up", "live", "catching-up", "live"), states),
        () -> assertEquals(List.of("-", "A:5", "A:6"), p1WhileCatchingUp, "frames after the hole are held"),
        () -> assertEquals(ACME_READ, catchUp.request.url()),
        () -> assertEquals(List.of("-", "A:5", "A:6", "A:9", "A:10"), p1,
            "the held A:8 (commit 5) is older than the read's A:9 (commit 7) and never shows"),
        () -> assertEquals(List.of("-", "B:2"), p2, "the held B:1 (commit 6) never overwrites the read's B:2"),
        () -> assertEquals("{\"t\":\"join\",\"topic\":\"org.acme\",\"cursor\":{\"epoch\":\"e1\",\"seq\":5}}",
            sent(node, "join").get(1), "the heartbeat's join carries the cursor of the last frame applied"));
  }

  @Test
  void heldFramesNewerThanTheCatchUpReadAreAppliedInOrderAfterIt() {
    List<String> p1 = watch("p1");
    orgLive();
    node.receive(records("org.acme", "e1", 1, 3, update(post("p1", "acme", "A", 6))));
    node.receive(records("org.acme", "e1", 4, 5, update(post("p1", "acme", "A", 8))));
    node.receive(records("org.acme", "e1", 5, 6, update(post("p1", "acme", "A", 9))));
    page.http.open().answer(200, read(4, post("p1", "acme", "A", 7)));
    node.receive(records("org.acme", "e1", 6, 7, update(post("p1", "acme", "A", 10))));
    assertAll(
        () -> assertEquals(List.of("-", "A:5", "A:6", "A:9", "A:10"), p1,
            "the read (commit 4) and the held frames (commits 5, 6) land as one batch, then seq 6 applies live"),
        () -> assertEquals(List.of("joining", "catching-up", "live", "catching-up", "live"), states));
  }

  @Test
  void aGapFrameCatchesUpAndARowTheReadNoLongerHoldsIsLetGoAndNotBroughtBackByAnOlderHeldFrame() {
    List<String> p1 = watch("p1");
    List<String> p3 = watch("p3");
    orgLive();
    node.receive(records("org.acme", "e1", 1, 3, put(post("p3", "acme", "C", 1), null)));
    node.receive(gap("org.acme", "e2"));
    node.receive(records("org.acme", "e2", 1, 5, update(post("p3", "acme", "C", 2))));
    node.receive(records("org.acme", "e2", 2, 7, update(post("p1", "acme", "A", 7))));
    page.http.open().answer(200, read(6, post("p1", "acme", "A", 6)));
    assertAll(
        () -> assertEquals(List.of("joining", "catching-up", "live", "catching-up", "live"), states),
        () -> assertEquals(2, page.http.calls.size(), "one read after the join, one after the gap"),
        () -> assertEquals(List.of("-", "A:5", "A:7"), p1, "the held frame of commit 7 applies after the read"),
        () -> assertEquals(List.of("-", "C:1", "-"), p3,
            "p3 left the topic by commit 6: its held put of commit 5 does not bring it back"));
  }

  @Test
  void aGapWhileAReadIsInFlightReadsAgainOnceItLands() {
    List<String> p1 = watch("p1");
    orgJoined();
    RecordingHttp.Call first = page.http.open();
    node.receive(gap("org.acme", "e1"));
    first.answer(200, read(2, post("p1", "acme", "A", 5)));
    RecordingHttp.Call second = page.http.open();
    second.answer(200, read(3, post("p1", "acme", "A", 6)));
    assertAll(
        () -> assertEquals(List.of("-", "A:6"), p1, "the first read may predate the lost frames; the second shows"),
        () -> assertEquals(List.of("joining", "catching-up", "live"), states));
  }

  @Test
  void aReconnectJoinsAgainWithTheCursorOfTheLastFrameAppliedAndReadsNothing() {
    orgLive();
    node.receive(records("org.acme", "e1", 1, 3, update(post("p1", "acme", "A", 6))));
    node.receive(records("org.acme", "e1", 2, 4, update(post("p1", "acme", "A", 7))));
    page.drop(node);
    page.scheduler.advance(375);
    FakeSockets.Socket again = page.online("u1", 4);
    again.receive(presence("org.acme", 0));
    assertAll(
        () -> assertEquals(List.of("{\"t\":\"join\",\"topic\":\"org.acme\",\"cursor\":{\"epoch\":\"e1\",\"seq\":2}}"),
            sent(again, "join")),
        () -> assertEquals(1, page.http.calls.size(), "no second read: the node resumes or sends gap"),
        () -> assertEquals(List.of("joining", "catching-up", "live", "offline", "joining", "live"), states));
  }

  @Test
  void anotherActorOnReconnectClearsTheRowsAndTheCursorSoTheChannelReadsAgain() {
    List<String> p1 = watch("p1");
    orgLive();
    node.receive(records("org.acme", "e1", 1, 3, update(post("p1", "acme", "A", 6))));
    page.drop(node);
    page.scheduler.advance(375);
    FakeSockets.Socket again = page.online("u2", 4);
    again.receive(presence("org.acme", 0));
    again.receive(gap("org.acme", "e2"));
    page.http.open().answer(200, read(4, post("p1", "acme", "A", 1)));
    assertAll(
        () -> assertEquals(List.of("{\"t\":\"join\",\"topic\":\"org.acme\"}"), sent(again, "join")),
        () -> assertEquals(List.of("-", "A:5", "A:6", "-", "A:1"), p1, "u1's rows went with the principal"));
  }

  @Test
  void aCatchUpReadWithNoNetworkOrA5xxIsTriedAgainAtTheNextHeartbeat() {
    orgJoined();
    page.http.open().networkFails();
    page.scheduler.advance(1_000);
    page.http.open().answer(503, "{}");
    node.receive(hello("u1", 1));
    page.scheduler.advance(1_000);
    page.http.open().answer(200, read(2));
    assertAll(
        () -> assertEquals(3, page.http.calls.size()),
        () -> assertEquals(List.of("joining", "catching-up", "live"), states));
  }

  @Test
  void aRefusedCatchUpReadFailsTheChannelWithTheNodesErrorAndLeaves() {
    Channel org = orgJoined();
    page.http.open().refuse(403, "X_TENANCY_ACTOR_MISMATCH");
    page.scheduler.advance(1_000);
    assertAll(
        () -> assertEquals(List.of("joining", "catching-up", "failed X_TENANCY_ACTOR_MISMATCH"), states),
        () -> assertEquals("Post p1 does not exist.", ((ChannelState.Failed) org.state()).cause()),
        () -> assertEquals(List.of("hello", "join", "leave", "hello"), node.kinds()),
        () -> assertEquals(1, page.http.calls.size()));
  }

  @Test
  void aBearerTokenGoesWithTheCatchUpReadAndA401AsksForAFreshOneOnce() {
    Page page = new Page(new FakeScheduler(), new MapStore(),
        (refresh, done) -> done.accept(refresh ? "fresh" : "stale"));
    page.client.connect();
    page.http.open().answer(200, "{\"ticket\":\"t1\",\"expiresAt\":1}");
    page.client.channel(ORG, Map.of("org", "acme"), null, listener);
    FakeSockets.Socket socket = page.online("u1", 1);
    socket.receive(presence("org.acme", 0));
    socket.receive(gap("org.acme", "e1"));
    RecordingHttp.Call stale = page.http.open();
    stale.answer(401, "{}");
    RecordingHttp.Call fresh = page.http.open();
    fresh.answer(200, read(2));
    assertAll(
        () -> assertEquals("Bearer stale", stale.request.headers().get("Authorization")),
        () -> assertEquals("Bearer fresh", fresh.request.headers().get("Authorization")),
        () -> assertEquals(List.of("joining", "catching-up", "live"), states));
  }
}
