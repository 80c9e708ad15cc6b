package io.runnel.client.live.internal;

import static io.runnel.client.fake.Node.BY_LIKES;
import static io.runnel.client.fake.Node.hello;
import static io.runnel.client.fake.Node.patch;
import static io.runnel.client.fake.Node.post;
import static io.runnel.client.fake.Node.snapshot;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.ConnectionState;
import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.FakeSockets;
import io.runnel.client.fake.Node;
import io.runnel.client.live.LiveQuery;
import io.runnel.client.live.QueryState;
import io.runnel.client.live.QueryView;
import io.runnel.client.store.internal.RecordStore;
import io.runnel.dsl.Row;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.RunnelException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The live client against a scripted node on a scheduler the test advances. */
class LiveClientTest {

  private final FakeScheduler scheduler = new FakeScheduler();
  private final FakeSockets sockets = new FakeSockets();
  private final List<ConnectionState> states = new ArrayList<>();
  private final List<RunnelException> errors = new ArrayList<>();
  private RecordStore store;
  private LiveClient client;

  @BeforeEach
  void setUp() {
    store = RecordStore.create();
    client = LiveClient.builder().sockets(sockets).scheduler(scheduler).json(Node.JSON).store(store)
        .endpoint((ready, failed) -> ready.accept("ws://node/v1/sync?ticket=t" + sockets.opened.size()))
        .random(() -> 0.5).build("test-build").create();
    client.onConnection(states::add);
    client.onError(errors::add);
  }

  private FakeSockets.Socket online(String actor) {
    client.start();
    FakeSockets.Socket s = sockets.last();
    s.open();
    s.receive(hello(actor, 1));
    return s;
  }

  /** The network drops {@code s}; after the backoff the next socket opens and the node answers {@code actor}. */
  private FakeSockets.Socket droppedAndBackAs(FakeSockets.Socket s, String actor, int commit) {
    s.listener.closed(1006, "gone");
    scheduler.advance(375);
    FakeSockets.Socket next = sockets.last();
    next.open();
    next.receive(hello(actor, commit));
    return next;
  }

  @Test
  void helloGoesFirstAndSubscriptionsFollowTheNodesAnswer() {
    LiveQuery q = client.query(BY_LIKES, "acme");
    client.start();
    FakeSockets.Socket s = sockets.last();
    s.open();
    List<String> beforeAnswer = s.kinds();
    s.receive(hello("u1", 1));
    assertAll(
        () -> assertEquals(List.of("hello"), beforeAnswer, "no sub before the node answered hello"),
        () -> assertEquals("{\"t\":\"hello\",\"v\":1,\"build\":\"test-build\"}", s.sent.get(0)),
        () -> assertEquals(List.of("hello", "sub"), s.kinds()),
        () -> assertEquals("{\"t\":\"sub\",\"sid\":\"" + q.sid() + "\",\"q\":\"byLikes\",\"in\":{\"org\":\"acme\"}}",
            s.sent.get(1), "a first sub has no cursor"),
        () -> assertEquals(List.of(new ConnectionState.Offline(0, 1_000_000), new ConnectionState.Connecting(0),
            new ConnectionState.Online(1)), states));
  }

  @Test
  void eachHelloAnswerThatSaysAnotherLagIsANewOnlineStateOfTheSameConnection() {
    client.start();
    FakeSockets.Socket s = sockets.last();
    s.open();
    String lagged = hello("u1", 1).replace("}", ",\"lagMs\":120,\"asOf\":1764566400000}");
    s.receive(lagged);
    s.receive(lagged);
    s.receive(hello("u1", 2).replace("}", ",\"lagMs\":7000,\"asOf\":1764566400500}"));
    List<ConnectionState> online = states.stream().filter(ConnectionState.Online.class::isInstance).toList();
    assertAll(
        () -> assertEquals(List.of(new ConnectionState.Online(1, 120L, 1_764_566_400_000L),
            new ConnectionState.Online(1, 7000L, 1_764_566_400_500L)), online,
            "the same epoch: one state per lag the node said, none for an answer that said the same"),
        () -> assertEquals(1, sockets.opened.size(), "no second connection"),
        () -> assertEquals(List.of("hello"), s.kinds(), "and no subscription sent again"));
  }

  /**
   * Catch-up is told once per connection, after every list's first answer since the {@code hello}, never for a
   * connection lost before it, and again for the next connection once its resume lands.
   */
  @Test
  void catchUpIsToldOncePerConnectionAfterEveryListAnsweredAndNeverForALostOne() {
    List<Long> caughtUp = new ArrayList<>();
    client.onCaughtUp(caughtUp::add);
    LiveQuery a = client.query(BY_LIKES, "acme");
    LiveQuery b = client.query(BY_LIKES, "other");
    FakeSockets.Socket s = online("u1");
    s.receive(snapshot(a.sid(), 1, post("p1", "acme", "A", 5)));
    List<Long> afterOne = List.copyOf(caughtUp);
    s.receive(snapshot(b.sid(), 1));
    s.receive(patch(a.sid(), 2, List.of()));
    List<Long> afterBoth = List.copyOf(caughtUp);
    FakeSockets.Socket next = droppedAndBackAs(s, "u1", 2);
    next.listener.closed(1006, "gone again");
    scheduler.advance(LiveClient.CATCH_UP_WAIT_MS);
    List<Long> afterLost = List.copyOf(caughtUp);
    FakeSockets.Socket third = sockets.last();
    third.open();
    third.receive(hello("u1", 2));
    third.receive(patch(a.sid(), 2, List.of()));
    third.receive(patch(b.sid(), 2, List.of()));
    assertAll(
        () -> assertEquals(List.of(), afterOne, "one list still loading"),
        () -> assertEquals(List.of(1L), afterBoth, "told once, at the second snapshot"),
        () -> assertEquals(List.of(1L), afterLost, "a connection lost before catching up is never told, not even by"
            + " its wait"),
        () -> assertEquals(List.of(1L, 3L), caughtUp, "the third connection, once both resumes landed"));
  }

  @Test
  void theClientBeatsHelloEveryHeartbeatTheNodeNamed() {
    FakeSockets.Socket s = online("u1");
    scheduler.advance(999);
    int before = s.sent.size();
    scheduler.advance(1);
    s.receive(hello("u1", 1));
    scheduler.advance(1000);
    assertAll(
        () -> assertEquals(1, before, "only the opening hello within the first interval"),
        () -> assertEquals(List.of("hello", "hello", "hello"), s.kinds(), "one beat per 1000 ms"),
        () -> assertEquals(-1, s.closedWith, "answered beats keep the socket"));
  }

  @Test
  void heartbeatSilenceClosesWith4000AndReconnectsAfterBackoff() {
    FakeSockets.Socket s = online("u1");
    scheduler.advance(1999);
    boolean openBeforeTwoIntervals = s.closedWith == -1;
    scheduler.advance(1);
    ConnectionState afterSilence = client.connection();
    scheduler.advance(374);
    int socketsBeforeBackoff = sockets.opened.size();
    scheduler.advance(1);
    assertAll(
        () -> assertTrue(openBeforeTwoIntervals, "not closed before two silent intervals"),
        () -> assertEquals(4000, s.closedWith, "closed with 4000"),
        () -> assertEquals(new ConnectionState.Offline(1, 1_000_000 + 2000 + 375), afterSilence,
            "offline until the next attempt: 500 ms cap, half plus half of the rest at random 0.5"),
        () -> assertEquals(1, socketsBeforeBackoff),
        () -> assertEquals(2, sockets.opened.size(), "a new socket after the backoff"));
  }

  @Test
  void failedAttemptsBackOffOnAnEqualJitterCurveCappedAtFourSeconds() {
    client.start();
    List<Long> delays = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      sockets.last().listener.closed(1006, "unreachable");
      ConnectionState.Offline off = assertInstanceOf(ConnectionState.Offline.class, client.connection());
      delays.add(off.reconnectAt() - scheduler.nowMillis());
      scheduler.advance(off.reconnectAt() - scheduler.nowMillis());
    }
    assertEquals(List.of(375L, 750L, 1500L, 3000L, 3000L, 3000L), delays);
  }

  @Test
  void backoffDrawsBetweenHalfTheCapAndTheCap() {
    Backoff b = Backoff.DEFAULT;
    assertAll(
        () -> assertEquals(250, b.delay(0, 0.0)),
        () -> assertEquals(499, b.delay(0, 0.999)),
        () -> assertEquals(2000, b.delay(3, 0.0)),
        () -> assertEquals(3999, b.delay(9, 0.9999)),
        () -> assertEquals(2000, b.delay(100, 0.0), "no overflow on a long outage"));
  }

  @Test
  void onlineResetsTheBackoffAndEachOnlineGrowsTheEpoch() {
    FakeSockets.Socket s = online("u1");
    s.listener.closed(1006, "gone");
    scheduler.advance(375);
    sockets.last().listener.closed(1006, "gone");
    long second = ((ConnectionState.Offline) client.connection()).reconnectAt() - scheduler.nowMillis();
    scheduler.advance(second);
    sockets.last().open();
    sockets.last().receive(hello("u1", 2));
    sockets.last().listener.closed(1006, "gone");
    long afterOnline = ((ConnectionState.Offline) client.connection()).reconnectAt() - scheduler.nowMillis();
    assertAll(
        () -> assertEquals(750, second, "the second failure waits longer"),
        () -> assertEquals(375, afterOnline, "an online connection starts the curve over"),
        () -> assertEquals(2, client.connection() instanceof ConnectionState.Offline o ? o.epoch() : -1));
  }

  @Test
  void onReconnectEverySubscriptionResumesWithItsCursorAndHeldIds() {
    LiveQuery a = client.query(BY_LIKES, "acme");
    LiveQuery b = client.query(BY_LIKES, "other");
    FakeSockets.Socket s = online("u1");
    s.receive(snapshot(a.sid(), 3, post("p2", "acme", "B", 9), post("p1", "acme", "A", 5)));
    s.receive(snapshot(b.sid(), 3));
    s.receive(patch(a.sid(), 4, List.of(), Node.put(post("p3", "acme", "C", 7), "p2")));
    s.listener.closed(1006, "gone");
    scheduler.advance(375);
    FakeSockets.Socket next = sockets.last();
    next.open();
    next.receive(hello("u1", 4));
    List<JsonObject> subs = next.frames().stream().filter(f -> f.get("t").equals(new JsonString("sub"))).toList();
    JsonObject cursorA = (JsonObject) subs.get(0).get("cursor");
    JsonObject cursorB = (JsonObject) subs.get(1).get("cursor");
    assertAll(
        () -> assertEquals(2, subs.size(), "every subscription again"),
        () -> assertEquals(new JsonString(Node.lsn(4)), cursorA.get("lsn"), "the last cursor"),
        () -> assertEquals(JsonArray.ofStrings(List.of("p2", "p3", "p1")), cursorA.get("ids"), "held keys, in order"),
        () -> assertEquals(JsonArray.ofStrings(List.of()), cursorB.get("ids"), "an empty list resumes too"),
        () -> assertEquals(new JsonString("ws://node/v1/sync?ticket=t1"), new JsonString(next.url),
            "each attempt asks the endpoint again"));
  }

  @Test
  void aSubscriptionWhoseIdsWouldPassTheFrameLimitResumesWithoutACursor() {
    LiveQuery q = client.query(BY_LIKES, "acme");
    FakeSockets.Socket s = online("u1");
    Row[] many = new Row[14_000];
    for (int i = 0; i < many.length; i++) {
      many[i] = post("post-number-" + (100_000 + i), "acme", "T", many.length - i);
    }
    s.receive(snapshot(q.sid(), 3, many));
    s.listener.closed(1006, "gone");
    scheduler.advance(375);
    FakeSockets.Socket next = sockets.last();
    next.open();
    next.receive(hello("u1", 4));
    JsonObject sub = next.frames().get(1);
    assertAll(
        () -> assertEquals(14_000, q.view().records().size()),
        () -> assertTrue(sub.get("cursor") == null, "no cursor: a snapshot instead"),
        () -> assertTrue(next.sent.get(1).length() < LiveClient.MAX_FRAME_BYTES));
  }

  @Test
  void aReconnectFrameWaitsItsDelayNotTheBackoff() {
    FakeSockets.Socket s = online("u1");
    s.receive("{\"t\":\"reconnect\",\"delayMs\":2500,\"reason\":\"drain\"}");
    scheduler.advance(2499);
    int before = sockets.opened.size();
    scheduler.advance(1);
    assertAll(
        () -> assertEquals(1000, s.closedWith),
        () -> assertEquals(1, before),
        () -> assertEquals(2, sockets.opened.size()));
  }

  @Test
  void aReconnectFrameClosesTheSocketAndResumesEverySubscriptionWithItsCursorAfterExactlyItsDelay() {
    LiveQuery q = client.query(BY_LIKES, "acme");
    FakeSockets.Socket s = online("u1");
    s.receive(snapshot(q.sid(), 3, post("p2", "acme", "B", 9), post("p1", "acme", "A", 5)));
    s.receive("{\"t\":\"reconnect\",\"delayMs\":7300,\"reason\":\"drain\"}");
    ConnectionState waiting = client.connection();
    client.reconnectNow();
    scheduler.advance(7299);
    int before = sockets.opened.size();
    scheduler.advance(1);
    FakeSockets.Socket next = sockets.last();
    next.open();
    next.receive(hello("u1", 4));
    JsonObject sub = next.frames().get(1);
    JsonObject cursor = (JsonObject) sub.get("cursor");
    assertAll(
        () -> assertEquals(1000, s.closedWith, "the client closes the draining node's socket itself, at once"),
        () -> assertEquals(new ConnectionState.Offline(1, 1_000_000 + 7300), waiting,
            "offline until exactly delayMs, no backoff"),
        () -> assertEquals(1, before, "not a millisecond earlier, though the page said the network is back"),
        () -> assertEquals(2, sockets.opened.size(), "a new socket at delayMs"),
        () -> assertEquals(new JsonString("sub"), sub.get("t")),
        () -> assertEquals(new JsonString(Node.lsn(3)), cursor.get("lsn"), "resumes from its last cursor"),
        () -> assertEquals(JsonArray.ofStrings(List.of("p2", "p1")), cursor.get("ids"), "with the keys it holds"),
        () -> assertEquals(2, q.view().records().size(), "the records stay shown meanwhile"));
  }

  @Test
  void afterAReconnectDelayAFailedAttemptBacksOffAsUsualAndThePagesWordCountsAgain() {
    FakeSockets.Socket s = online("u1");
    s.receive("{\"t\":\"reconnect\",\"delayMs\":100,\"reason\":\"drain\"}");
    scheduler.advance(100);
    sockets.last().listener.closed(1006, "refused");
    ConnectionState backingOff = client.connection();
    client.reconnectNow();
    assertAll(
        () -> assertEquals(new ConnectionState.Offline(1, 1_000_000 + 100 + 375), backingOff,
            "the attempt after the delay failed: the usual backoff, from its first step"),
        () -> assertEquals(3, sockets.opened.size(), "the page's word cuts a backoff short again"));
  }

  @Test
  void aPrincipalChangeClearsTheStoreAndSubscribesAfreshWithoutACursor() {
    LiveQuery q = client.query(BY_LIKES, "acme");
    FakeSockets.Socket s = online("u1");
    s.receive(snapshot(q.sid(), 3, post("p1", "acme", "A", 5)));
    FakeSockets.Socket next = droppedAndBackAs(s, "u2", 4);
    assertAll(
        () -> assertFalse(store.holds("posts", "p1"), "the other actor's records are gone"),
        () -> assertEquals(new QueryView(new QueryState.Pending(), List.of()), q.view()),
        () -> assertNull(next.frames().get(1).get("cursor"), "a fresh subscription"));
  }

  @Test
  void unreadableFramesAreReportedAndTheClientCarriesOn() {
    LiveQuery q = client.query(BY_LIKES, "acme");
    FakeSockets.Socket s = online("u1");
    s.receive("not json");
    s.receive("{\"t\":\"snapshot\",\"sid\":\"q1\"}");
    s.receive("{\"t\":\"refuse\",\"code\":\"X_FRAME_RATE_LIMIT\",\"cause\":\"c\",\"fix\":\"f\"}");
    s.receive(snapshot(q.sid(), 3, post("p1", "acme", "A", 5)));
    assertAll(
        () -> assertEquals(List.of(ErrorCode.X_FRAME_INVALID, ErrorCode.X_FRAME_INVALID, ErrorCode.X_FRAME_RATE_LIMIT),
            errors.stream().map(RunnelException::code).toList()),
        () -> assertEquals(1, q.view().records().size(), "later frames still apply"));
  }

  @Test
  void releasingAQueryUnsubscribesAndEvictsItsRecords() {
    LiveQuery q = client.query(BY_LIKES, "acme");
    FakeSockets.Socket s = online("u1");
    s.receive(snapshot(q.sid(), 3, post("p1", "acme", "A", 5)));
    q.release();
    assertAll(
        () -> assertEquals("{\"t\":\"unsub\",\"sid\":\"" + q.sid() + "\"}", s.sent.get(s.sent.size() - 1)),
        () -> assertFalse(store.holds("posts", "p1")));
  }

  @Test
  void aRefusedSubscriptionFailsWithTheNodesCodeAndIsNotResentOnReconnect() {
    LiveQuery q = client.query(BY_LIKES, "acme");
    FakeSockets.Socket s = online("u1");
    s.receive("{\"t\":\"refuse\",\"sid\":\"" + q.sid()
        + "\",\"code\":\"X_FORBIDDEN\",\"cause\":\"no\",\"fix\":\"ask\"}");
    s.listener.closed(1006, "gone");
    scheduler.advance(375);
    sockets.last().open();
    sockets.last().receive(hello("u1", 2));
    assertAll(
        () -> assertEquals(new QueryState.Failed("X_FORBIDDEN", "no", "ask"), q.view().state()),
        () -> assertEquals(List.of("hello"), sockets.last().kinds()));
  }

  @Test
  void aLateCloseOfAnOldSocketDoesNotDisturbTheNewOne() {
    FakeSockets.Socket s = online("u1");
    s.receive("{\"t\":\"reconnect\",\"delayMs\":0,\"reason\":\"drain\"}");
    scheduler.runDue();
    sockets.last().open();
    sockets.last().receive(hello("u1", 2));
    s.listener.closed(1000, "late");
    assertEquals(new ConnectionState.Online(2), client.connection());
  }

  @Test
  void theActorIdIsUnknownBeforeTheFirstHelloAnswerEmptyForAnAnonymousPageAndTheNewOneOnceOnline() {
    String before = client.actorId();
    FakeSockets.Socket s = online(null);
    String anonymous = client.actorId();
    List<String> heardOnline = new ArrayList<>();
    client.onConnection(state -> {
      if (state instanceof ConnectionState.Online) {
        heardOnline.add(client.actorId());
      }
    });
    droppedAndBackAs(s, "u2", 2);
    assertAll(
        () -> assertNull(before, "no node has answered yet"),
        () -> assertEquals("", anonymous),
        () -> assertEquals(List.of("", "u2"), heardOnline, "listeners hearing Online already see the new actor"));
  }

  @Test
  void stopClosesTheSocketAndPublishesAFinalClosedStateOnce() {
    FakeSockets.Socket s = online("u1");
    client.stop();
    client.stop();
    s.listener.closed(1006, "late");
    scheduler.advance(60_000);
    assertAll(
        () -> assertEquals(List.of(new ConnectionState.Online(1), new ConnectionState.Closed(1)),
            states.subList(states.size() - 2, states.size()), "Closed is the last state listeners hear, once"),
        () -> assertEquals(new ConnectionState.Closed(1), client.connection()),
        () -> assertEquals(1000, s.closedWith),
        () -> assertEquals(1, sockets.opened.size(), "no reconnect"),
        () -> assertEquals(List.of(), scheduler.armed(), "no beat, silence or retry timer left"));
  }

  @Test
  void stopWhileWaitingToReconnectCancelsTheAttemptAndIsClosed() {
    FakeSockets.Socket s = online("u1");
    s.listener.closed(1006, "gone");
    ConnectionState waiting = client.connection();
    client.stop();
    scheduler.advance(60_000);
    assertAll(
        () -> assertInstanceOf(ConnectionState.Offline.class, waiting),
        () -> assertEquals(new ConnectionState.Closed(1), states.get(states.size() - 1)),
        () -> assertEquals(1, sockets.opened.size(), "the armed attempt never ran"));
  }

  @Test
  void reconnectNowWhileOfflineCallsOffTheBackoffAndOpensASocketAtOnce() {
    FakeSockets.Socket s = online("u1");
    s.listener.closed(1006, "gone");
    ConnectionState waiting = client.connection();
    client.reconnectNow();
    ConnectionState now = client.connection();
    int opened = sockets.opened.size();
    scheduler.advance(375);
    assertAll(
        () -> assertEquals(new ConnectionState.Offline(1, 1_000_000 + 375), waiting, "it was waiting out 375 ms"),
        () -> assertEquals(new ConnectionState.Connecting(1), now, "connecting at once"),
        () -> assertEquals(2, opened, "a second socket opened without the clock moving"),
        () -> assertEquals(2, sockets.opened.size(), "the backoff's retry was called off, not run as well"));
  }

  @Test
  void reconnectNowWhileOnlineBeatsAtOnceOnTheSameSocketAndWhileConnectingOrStoppedDoesNothing() {
    FakeSockets.Socket s = online("u1");
    int sent = s.sent.size();
    client.reconnectNow();
    scheduler.runDue();
    List<String> afterOnline = s.kinds().subList(sent, s.sent.size());
    s.listener.closed(1006, "gone");
    scheduler.advance(375);
    client.reconnectNow();
    int whileConnecting = sockets.opened.size();
    client.stop();
    client.reconnectNow();
    assertAll(
        () -> assertEquals(List.of("hello"), afterOnline, "a beat checks the socket; nothing is dropped"),
        () -> assertEquals(-1, s.closedWith, "the working socket was not closed by the call"),
        () -> assertEquals(2, whileConnecting, "an attempt already under way is not doubled"),
        () -> assertEquals(2, sockets.opened.size(), "a stopped client stays stopped"),
        () -> assertInstanceOf(ConnectionState.Closed.class, client.connection()));
  }
}
