package io.runnel.client;

import static io.runnel.client.Page.answerLsn;
import static io.runnel.client.Page.key;
import static io.runnel.client.Page.recorder;
import static io.runnel.client.fake.Node.BY_LIKES;
import static io.runnel.client.fake.Node.CREATE;
import static io.runnel.client.fake.Node.LIKE;
import static io.runnel.client.fake.Node.hello;
import static io.runnel.client.fake.Node.patch;
import static io.runnel.client.fake.Node.post;
import static io.runnel.client.fake.Node.put;
import static io.runnel.client.fake.Node.snapshot;
import static io.runnel.client.fake.Node.update;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.FakeSockets;
import io.runnel.client.fake.MapStore;
import io.runnel.client.fake.RecordingHttp;
import io.runnel.client.live.LiveQuery;
import io.runnel.client.live.QueryState;
import io.runnel.client.live.QueryView;
import io.runnel.client.live.internal.LiveClient;
import io.runnel.client.outbox.Credentials;
import io.runnel.client.outbox.Mutation;
import io.runnel.client.outbox.MutationOutcome;
import io.runnel.client.outbox.OutboxState;
import io.runnel.client.outbox.StoreRefusedException;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.Json;
import io.runnel.wire.JsonString;
import io.runnel.wire.RunnelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The composed client's entry: calls by name, the remembered actor across a reload, the endpoint, and close. */
class RunnelClientEntryTest {

  @Test
  void aCallBeforeAnyNodeNamedTheActorShowsAtOnceAndIsSentAsTheActorTheFirstHelloNames() {
    Page page = new Page();
    page.client.connect();
    List<List<String>> seen = new ArrayList<>();
    LiveQuery list = page.client.query(BY_LIKES, "acme", recorder(seen));
    Mutation call = page.client.mutate(CREATE, "p3|acme|C|1");
    List<String> storedBefore = List.copyOf(page.durable.map.keySet());
    int sentBefore = page.http.calls.size();
    FakeSockets.Socket node = page.online("u1", 1);
    node.receive(snapshot(list.sid(), 1, post("p1", "acme", "A", 5)));
    RecordingHttp.Call sent = page.http.open();
    List<String> storedOnline = List.copyOf(page.durable.map.keySet());
    sent.ok("d1", answerLsn(2));
    node.receive(patch(list.sid(), 2, List.of("d1"), put(post("p3", "acme", "C", 1), null)));
    assertAll(
        () -> assertEquals(List.of(Page.stored("!provisional", 0, key("createPost", 1))), storedBefore,
            "kept under the provisional key"),
        () -> assertEquals(0, sentBefore, "no actor known, nothing sent"),
        () -> assertEquals(List.of(List.of(), List.of("p3:C:1"), List.of("p1:A:5", "p3:C:1")), seen,
            "in the overlay from the call, placed by the list's select once the actor is known (its twins run again"
            + " as that actor), then the list's truth around it; no flicker"),
        () -> assertEquals(key("createPost", 1), sent.key(), "sent as u1 under its original key"),
        () -> assertEquals(List.of(Page.stored("u1", 0, key("createPost", 1)), RunnelClient.PRINCIPAL_KEY),
            storedOnline,
            "moved to u1's queue"),
        () -> assertInstanceOf(MutationOutcome.Applied.class, call.outcome()),
        () -> assertEquals(List.of(), page.outbox().pending()));
  }

  /**
   * A later {@code hello} answer that says another lag is a new {@code Online} state the page hears, not a new
   * connection: the outbox is not held back again for a catch-up, so a call made then is sent at once.
   */
  @Test
  void aLagTheNodeSaysLaterReachesThePageWithoutHoldingTheOutboxAgain() {
    Page page = new Page();
    page.client.connect();
    LiveQuery list = page.client.query(BY_LIKES, "acme", v -> { });
    FakeSockets.Socket node = page.online("u1", 1);
    node.receive(snapshot(list.sid(), 1, post("p1", "acme", "A", 5)));
    node.receive(hello("u1", 1).replace("}", ",\"lagMs\":6500,\"asOf\":1764566400000}"));
    ConnectionState heard = page.states.get(page.states.size() - 1);
    page.client.mutate(CREATE, "p3|acme|C|1");
    page.scheduler.runDue();
    assertAll(
        () -> assertEquals(new ConnectionState.Online(1, 6500L, 1_764_566_400_000L), heard, "the page hears the lag"),
        () -> assertEquals(List.of(key("createPost", 1)), page.http.keys(), "sent at once, not after a catch-up wait"));
  }

  @Test
  void queriesAndMutatorsAreFoundByNameWithJsonInputAsAPageCallsThem() {
    Page page = new Page();
    page.client.connect();
    List<List<String>> seen = new ArrayList<>();
    LiveQuery list = page.client.query("byLikes", Json.parse("{\"org\":\"acme\"}"), recorder(seen));
    FakeSockets.Socket node = page.online("u1", 1);
    node.receive(snapshot(list.sid(), 2, post("p1", "acme", "A", 5)));
    page.client.mutate("likePost", new JsonString("p1"));
    page.client.mutate("unregisteredPing", Json.parse("{\"at\":1}"));
    assertAll(
        () -> assertEquals("{\"t\":\"sub\",\"sid\":\"" + list.sid() + "\",\"q\":\"byLikes\",\"in\":{\"org\":\"acme\"}}",
            node.sent.get(1)),
        () -> assertEquals(List.of(List.of(), List.of("p1:A:5"), List.of("p1:A:6")), seen, "the twin ran"),
        () -> assertEquals(List.of(key("likePost", 1)), page.http.keys(), "the second waits behind the first"));
    page.http.open().ok("d1", answerLsn(3));
    assertEquals(Page.ORIGIN + "/v1/mutate/unregisteredPing", page.http.open().request.url(),
        "a mutator with no ref in the bundle still goes to the node, with no twin");
  }

  @Test
  void aQueryByAnUnknownNameIsAFailedHandleNotAnExceptionAndNothingOfItIsSent() {
    Page page = new Page();
    page.client.connect();
    List<QueryView> views = new ArrayList<>();
    LiveQuery unknown = page.client.query("nope", Json.parse("{\"org\":\"acme\"}"), views::add);
    FakeSockets.Socket node = page.online("u1", 1);
    node.listener.closed(1006, "network");
    page.scheduler.advance(375);
    FakeSockets.Socket again = page.online("u1", 2);
    unknown.release();
    QueryState.Failed failed = assertInstanceOf(QueryState.Failed.class, views.get(0).state());
    assertAll(
        () -> assertEquals(ErrorCode.X_LIVE_QUERY_UNKNOWN.name(), failed.code(), "the node's code for it"),
        () -> assertTrue(failed.cause().contains("'nope'"), "the cause names the query: " + failed.cause()),
        () -> assertTrue(failed.fix().contains("Refs"), "the fix says where to register it: " + failed.fix()),
        () -> assertEquals(List.of(new QueryView(failed, List.of())), views, "one view, failed, no records"),
        () -> assertEquals(List.of("hello"), node.kinds(), "never subscribed"),
        () -> assertEquals(List.of("hello"), again.kinds(), "not on reconnect either, nor unsubscribed"));
  }

  @Test
  void aOneShotQueryByNameIsAFailedHandleToo() {
    Page page = new Page();
    LiveQuery once = page.client.query("onePost", Json.parse("{\"id\":\"p1\"}"), v -> { });
    QueryState.Failed failed = assertInstanceOf(QueryState.Failed.class, once.view().state());
    assertAll(
        () -> assertEquals(ErrorCode.X_LIVE_QUERY_UNKNOWN.name(), failed.code(), "the node refuses it so"),
        () -> assertTrue(failed.cause().contains("'onePost'") && failed.cause().contains("not live"), failed.cause()),
        () -> assertTrue(failed.fix().contains("/v1/query/onePost"), failed.fix()));
  }

  /**
   * A page signed in as {@code u1} at commit 1 that liked p1 with no network, then reloaded: the new page, not yet
   * connected, with the like in its durable queue.
   */
  private static Page reloadedWithALikeQueued() {
    Page before = new Page();
    before.client.connect();
    before.online("u1", 1);
    before.http.offline = true;
    before.client.mutate(LIKE, "p1");
    return before.reload();
  }

  @Test
  void aPageReloadedOfflineShowsItsQueuedWriteUnderTheRememberedActorAndSendsItUnderItsKey() {
    Page after = reloadedWithALikeQueued();
    OutboxState restored = after.outbox();
    after.client.connect();
    List<List<String>> seen = new ArrayList<>();
    LiveQuery list = after.client.query(BY_LIKES, "acme", recorder(seen));
    FakeSockets.Socket node = after.online("u1", 2);
    node.receive(snapshot(list.sid(), 2, post("p1", "acme", "A", 5)));
    after.http.open().ok("d1", answerLsn(3));
    node.receive(patch(list.sid(), 3, List.of("d1"), update(post("p1", "acme", "A", 6))));
    assertAll(
        () -> assertEquals(List.of(key("likePost", 1)),
            restored.pending().stream().map(OutboxState.PendingWrite::writeId).toList(),
            "the queue is back before any connection"),
        () -> assertEquals(List.of(List.of(), List.of("p1:A:6")), seen, "the like over the server's 5, then its echo"),
        () -> assertEquals(key("likePost", 1), after.http.last().key(), "replayed under its original key"),
        () -> assertEquals(List.of(), after.outbox().pending()));
  }

  /**
   * The reload of the board test that once showed 1, 2, 3, 2: a like queued offline is replayed by a page whose store
   * is empty. Sent before the list's snapshot, its overlay had no row of the post to hold, so the snapshot showed
   * with the twin on top and the echo, beating the answer, got the twin again. The outbox now sends once the list
   * caught up, so the overlay holds the snapshot's row and the echo does not count the like twice.
   */
  @Test
  void aReloadedPageReplaysItsQueueOnlyOnceItsListsCaughtUpSoAnEchoBeforeTheAnswerIsNotCountedTwice() {
    Page after = reloadedWithALikeQueued();
    after.client.connect();
    List<List<String>> seen = new ArrayList<>();
    LiveQuery list = after.client.query(BY_LIKES, "acme", recorder(seen));
    FakeSockets.Socket node = after.online("u1", 2);
    after.scheduler.runDue();
    List<String> sentBeforeSnapshot = after.http.keys();
    node.receive(snapshot(list.sid(), 2, post("p1", "acme", "A", 5)));
    after.scheduler.runDue();
    RecordingHttp.Call like = after.http.open();
    node.receive(patch(list.sid(), 3, List.of("d1"), update(post("p1", "acme", "A", 6))));
    List<List<String>> beforeAnswer = List.copyOf(seen);
    like.ok("d1", answerLsn(3));
    after.scheduler.runDue();
    assertAll(
        () -> assertEquals(List.of(), sentBeforeSnapshot, "nothing is sent while the list is loading"),
        () -> assertEquals(key("likePost", 1), like.key(), "sent once the list caught up, under its original key"),
        () -> assertEquals(List.of(List.of(), List.of("p1:A:6")), beforeAnswer,
            "the server's 5 with the like, and its echo, before the answer, still 6"),
        () -> assertEquals(List.of(List.of(), List.of("p1:A:6")), seen, "the answer changes nothing shown"),
        () -> assertEquals(List.of(), after.outbox().pending()));
  }

  /**
   * A list whose snapshot is slow holds the outbox back for {@link LiveClient#CATCH_UP_WAIT_MS} at most (the node
   * answers the beats meanwhile, so the socket stays up).
   */
  @Test
  void aListThatNeverCatchesUpHoldsTheReplayForTheCatchUpWaitOnly() {
    Page after = reloadedWithALikeQueued();
    after.client.connect();
    after.client.query(BY_LIKES, "acme", v -> { });
    FakeSockets.Socket node = after.online("u1", 2);
    for (long waited = 1_000; waited < LiveClient.CATCH_UP_WAIT_MS; waited += 1_000) {
      after.scheduler.advance(1_000);
      node.receive(hello("u1", 2));
    }
    after.scheduler.advance(999);
    List<String> sentBeforeWait = after.http.keys();
    after.scheduler.advance(1);
    assertAll(
        () -> assertEquals(List.of(), sentBeforeWait),
        () -> assertEquals(List.of(key("likePost", 1)), after.http.keys(), "sent when the wait ran out"));
  }

  @Test
  void withABearerTokenEachSocketGetsAFreshTicketAndATicketRefusedTwiceBacksOff() {
    Page page = new Page(new FakeScheduler(), new MapStore(), Credentials.bearer("tok"));
    page.client.connect();
    var ticketCall = page.http.open();
    ticketCall.answer(401, "{\"code\":\"X_UNAUTHENTICATED\",\"cause\":\"expired\",\"fix\":\"sign in\"}");
    ConnectionState afterFirstRefusal = page.states.get(page.states.size() - 1);
    page.http.open().answer(401, "{\"code\":\"X_UNAUTHENTICATED\",\"cause\":\"expired\",\"fix\":\"sign in\"}");
    ConnectionState afterRefusal = page.states.get(page.states.size() - 1);
    int socketsAfterRefusal = page.sockets.opened.size();
    page.scheduler.advance(375);
    page.http.open().answer(200, "{\"ticket\":\"eyJ0.c2ln-_\",\"expiresAt\":1}");
    assertAll(
        () -> assertEquals("POST", ticketCall.request.method()),
        () -> assertEquals(Page.ORIGIN + "/v1/tickets", ticketCall.request.url()),
        () -> assertEquals(Map.of("Authorization", "Bearer tok"), ticketCall.request.headers()),
        () -> assertInstanceOf(ConnectionState.Connecting.class, afterFirstRefusal,
            "a first 401 asks for a refreshed token and tries again at once"),
        () -> assertInstanceOf(ConnectionState.Offline.class, afterRefusal, "no ticket, no socket: back off"),
        () -> assertEquals(0, socketsAfterRefusal),
        () -> assertEquals("wss://app.example/v1/sync?ticket=eyJ0.c2ln-_", page.sockets.last().url));
  }

  @Test
  void inCookieModeTheSocketGoesStraightToTheOriginsSyncPath() {
    Page page = new Page();
    page.client.connect();
    assertAll(
        () -> assertEquals("wss://app.example/v1/sync", page.sockets.last().url),
        () -> assertEquals(List.of(), page.http.calls, "no ticket needed: the browser sends the cookie"));
  }

  @Test
  void closeEndsTheSocketTellsTheListenersAndLeavesNoTimerOrSendBehind() {
    Page page = new Page();
    page.client.connect();
    FakeSockets.Socket node = page.online("u1", 1);
    page.client.mutate(LIKE, "p1");
    page.http.open().answer(503, "");
    page.client.close();
    page.scheduler.advance(60_000);
    page.client.mutate(LIKE, "p2");
    assertAll(
        () -> assertEquals(1000, node.closedWith),
        () -> assertEquals(new ConnectionState.Closed(1), page.states.get(page.states.size() - 1),
            "the page hears a final closed state"),
        () -> assertEquals(List.of(), page.scheduler.armed(), "no beat, reconnect or outbox retry is armed"),
        () -> assertEquals(1, page.sockets.opened.size(), "no new socket"),
        () -> assertEquals(List.of(key("likePost", 1)), page.http.keys(), "no retry, and a later call is not sent"),
        () -> assertEquals(2, page.outbox().pending().size(), "both wait in the store for the next page"),
        () -> assertThrows(IllegalStateException.class, page.client::connect, "a closed client stays closed"));
  }

  /**
   * A page reloaded with a remembered actor shows that actor's queue but sends none of it before a node names the
   * page's actor: the cookie (or token) may by now be another user's, and a write must never run as someone else.
   */
  @Test
  void aRememberedActorsQueueIsNotSentBeforeTheNodeNamesThePagesActor() {
    Page after = reloadedWithALikeQueued();
    List<String> sentBeforeAnyHello = after.http.keys();
    after.client.connect();
    after.online("u2", 2);
    assertAll(
        () -> assertEquals(List.of(), sentBeforeAnyHello, "no node has said who this page is yet"),
        () -> assertEquals(List.of(), after.http.keys(), "u1's write is never sent on a page the node calls u2"));
  }

  /**
   * A page closed in the middle of moving a provisional call to its actor's queue leaves a second copy under the
   * same idempotency key (QueueStore.move: never a lost write); the next page drops the copy, builds its client and
   * shows the write once.
   */
  @Test
  void aCopyLeftByAnInterruptedMoveFromTheProvisionalQueueDoesNotBreakTheNextPage() {
    Page first = new Page();
    first.client.connect();
    first.online("u1", 1);
    first.http.offline = true;
    first.client.mutate(LIKE, "p1");
    String stored = first.durable.map.get(Page.stored("u1", 0, key("likePost", 1)));
    // As if the page closed between writing the new key and removing the provisional one.
    String copy = Page.stored("!provisional", 0, key("likePost", 1));
    first.durable.map.put(copy, stored);
    Page[] next = new Page[1];
    assertDoesNotThrow(() -> next[0] = first.reload(), "the reload builds its client");
    List<List<String>> seen = new ArrayList<>();
    next[0].client.connect();
    LiveQuery list = next[0].client.query(BY_LIKES, "acme", recorder(seen));
    FakeSockets.Socket node = next[0].online("u1", 2);
    node.receive(snapshot(list.sid(), 2, post("p1", "acme", "A", 5)));
    assertAll(
        () -> assertTrue(seen.contains(List.of("p1:A:6")), "the like shows once, over the server's 5: " + seen),
        () -> assertFalse(next[0].durable.map.containsKey(copy), "the copy is removed"));
  }

  @Test
  void aWriteTheDurableStoreRefusesLaterReachesTheClientsErrorListener() {
    Page page = new Page();
    List<RunnelException> errors = new ArrayList<>();
    page.client.errors(errors::add);
    page.client.connect();
    page.online("u1", 1);
    page.durable.refuseLater(RunnelClient.PRINCIPAL_KEY);
    assertAll(
        () -> assertEquals(1, errors.size(), "the remembered actor's write failed later: " + errors),
        () -> assertInstanceOf(StoreRefusedException.class, errors.get(0)),
        () -> assertTrue(errors.get(0).getMessage().contains(RunnelClient.PRINCIPAL_KEY)));
  }

  @Test
  void writesTheDurableStoreRefusesReachTheClientsErrorListener() {
    Page page = new Page();
    List<RunnelException> errors = new ArrayList<>();
    page.client.errors(errors::add);
    page.durable.refusePuts = true;
    page.client.connect();
    page.online("u1", 1);
    page.http.offline = true;
    page.client.mutate(LIKE, "p1");
    assertAll(
        () -> assertEquals(2, errors.size(), "the remembered actor and the queued call: " + errors),
        () -> assertTrue(errors.stream().allMatch(e -> e instanceof StoreRefusedException), errors.toString()));
  }
}
