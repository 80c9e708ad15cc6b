package io.runnel.client;

import static io.runnel.client.Page.answerLsn;
import static io.runnel.client.Page.key;
import static io.runnel.client.Page.recorder;
import static io.runnel.client.fake.Node.BY_LIKES;
import static io.runnel.client.fake.Node.BY_TITLE;
import static io.runnel.client.fake.Node.CREATE;
import static io.runnel.client.fake.Node.LIKE;
import static io.runnel.client.fake.Node.hello;
import static io.runnel.client.fake.Node.lsn;
import static io.runnel.client.fake.Node.patch;
import static io.runnel.client.fake.Node.post;
import static io.runnel.client.fake.Node.put;
import static io.runnel.client.fake.Node.snapshot;
import static io.runnel.client.fake.Node.update;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.fake.FakeSockets;
import io.runnel.client.fake.RecordingHttp;
import io.runnel.client.live.LiveQuery;
import io.runnel.client.live.QueryView;
import io.runnel.client.outbox.Mutation;
import io.runnel.client.outbox.MutationOutcome;
import io.runnel.client.outbox.OutboxState;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The composed client end to end, against a scripted node, a recording HTTP port, a map store and a clock the test
 * advances: every view a list handed its listener is recorded, so a record that flickers, shows twice or comes back
 * stale fails the test.
 */
class RunnelClientTest {

  private final Page page = new Page();
  private final List<List<String>> acme = new ArrayList<>();

  private LiveQuery list;
  private FakeSockets.Socket node;

  /** Connected as {@code u1} with the acme list live at commit 2 holding p2 (9 likes) and p1 (5 likes). */
  private void liveAcme() {
    page.client.connect();
    list = page.client.query(BY_LIKES, "acme", recorder(acme));
    node = page.online("u1", 1);
    node.receive(snapshot(list.sid(), 2, post("p2", "acme", "B", 9), post("p1", "acme", "A", 5)));
  }

  /** The network goes: the socket drops and every request finds no network. */
  private void networkGone() {
    page.http.offline = true;
    page.drop(node);
  }

  /** The network returns: after the client's backoff a new socket opens and the node answers {@code actor}. */
  private void networkBack(String actor, int commit) {
    page.http.offline = false;
    page.scheduler.advance(375);
    node = page.online(actor, commit);
  }

  @Test
  void anInsertShowsAtItsPlaceAtOnceAndItsAnswerAndEchoSettleItWithOneCopyAndNoFlicker() {
    liveAcme();
    Mutation call = page.client.mutate(CREATE, "p3|acme|AB|7");
    RecordingHttp.Call sent = page.http.open();
    sent.ok("d1", answerLsn(5));
    page.scheduler.runDue();
    List<String> framesAfterAnswer = node.kinds();
    node.receive(patch(list.sid(), 5, List.of("d1"), put(post("p3", "acme", "AB", 7), "p2")));
    node.receive(hello("u1", 5));
    assertAll(
        () -> assertEquals(List.of(
            List.of(),
            List.of("p2:B:9", "p1:A:5"),
            List.of("p2:B:9", "p3:AB:7", "p1:A:5")), acme,
            "placed by likes at the call; the answer, the echo and the hello change nothing a page sees"),
        () -> assertEquals(Page.ORIGIN + "/v1/mutate/createPost", sent.request.url()),
        () -> assertEquals(key("createPost", 1), sent.key()),
        () -> assertEquals("{\"input\":\"p3|acme|AB|7\"}", sent.request.body()),
        () -> assertEquals(List.of("hello", "sub", "hello"), framesAfterAnswer, "a beat right after the answer"),
        () -> assertInstanceOf(MutationOutcome.Applied.class, call.outcome()),
        () -> assertEquals(OutboxState.EMPTY, page.outbox(), "nothing left to send"));
  }

  @Test
  void aWriteWhoseEchoNeverComesSettlesByTheHelloLsn() {
    liveAcme();
    page.client.mutate(CREATE, "p9|other|Z|1");
    page.http.open().ok("d9", answerLsn(4));
    page.scheduler.runDue();
    node.receive(hello("u1", 4));
    List<List<String>> other = new ArrayList<>();
    LiveQuery others = page.client.query(BY_LIKES, "other", recorder(other));
    node.receive(snapshot(others.sid(), 4, post("p9", "other", "Z", 0)));
    assertAll(
        () -> assertEquals(List.of(List.of(), List.of("p2:B:9", "p1:A:5")), acme, "another org's post never showed"),
        () -> assertEquals(List.of(List.of(), List.of("p9:Z:0")), other,
            "the overlay went at the hello lsn: the list shows the server's row, never the twin's p9:Z:1"));
  }

  @Test
  void aWriteMadeOfflineKeepsItsOverlayAndIsReplayedInOrderUnderItsKeyWhenTheNodeComesBack() {
    liveAcme();
    networkGone();
    Mutation first = page.client.mutate(LIKE, "p1");
    Mutation second = page.client.mutate(LIKE, "p1");
    ConnectionState whileOffline = page.states.get(page.states.size() - 1);
    networkBack("u1", 3);
    JsonObject resume = (JsonObject) node.frames().get(1).get("cursor");
    node.receive(patch(list.sid(), 3, List.of()));
    page.http.open().ok("d1", answerLsn(4));
    page.http.open().ok("d2", answerLsn(5));
    node.receive(patch(list.sid(), 4, List.of("d1"), update(post("p1", "acme", "A", 6))));
    node.receive(patch(list.sid(), 5, List.of("d2"), update(post("p1", "acme", "A", 7))));
    node.receive(hello("u1", 5));
    assertAll(
        () -> assertInstanceOf(ConnectionState.Offline.class, whileOffline),
        () -> assertEquals(List.of(
            List.of(),
            List.of("p2:B:9", "p1:A:5"),
            List.of("p2:B:9", "p1:A:6"),
            List.of("p2:B:9", "p1:A:7")), acme, "both likes shown offline, kept through the reconnect, no flicker"),
        () -> assertEquals(List.of(key("likePost", 1), key("likePost", 1), key("likePost", 2)), page.http.keys(),
            "the first found no network; both then went in call order, under their original keys"),
        () -> assertEquals(new JsonString(lsn(2)), resume.get("lsn"), "the list resumed from its cursor"),
        () -> assertEquals(JsonArray.ofStrings(List.of("p2", "p1")), resume.get("ids")),
        () -> assertInstanceOf(MutationOutcome.Applied.class, first.outcome()),
        () -> assertInstanceOf(MutationOutcome.Applied.class, second.outcome()));
  }

  @Test
  void aRefusalDropsTheOverlayAtOnceAndSurfacesTheError() {
    liveAcme();
    List<OutboxState> outbox = new ArrayList<>();
    page.client.outbox(outbox::add);
    Mutation call = page.client.mutate(CREATE, "p3|acme|C|12");
    page.http.open().refuse(422, "X_TITLE_TAKEN");
    MutationOutcome.Failed failed = assertInstanceOf(MutationOutcome.Failed.class, call.outcome());
    OutboxState last = outbox.get(outbox.size() - 1);
    assertAll(
        () -> assertEquals(List.of(
            List.of(),
            List.of("p2:B:9", "p1:A:5"),
            List.of("p3:C:12", "p2:B:9", "p1:A:5"),
            List.of("p2:B:9", "p1:A:5")), acme, "exactly the server's list again"),
        () -> assertEquals("X_TITLE_TAKEN", failed.error().code()),
        () -> assertEquals(422, failed.error().status()),
        () -> assertEquals(List.of(key("createPost", 1)),
            last.failed().stream().map(OutboxState.FailedWrite::writeId).toList(), "shown as failed in the outbox"),
        () -> assertEquals(List.of(), last.pending()));
  }

  @Test
  void anotherActorInHelloClearsTheStoreAndParksTheOldQueue() {
    liveAcme();
    networkGone();
    page.client.mutate(LIKE, "p1");
    networkBack("u2", 3);
    JsonObject sub = node.frames().get(1);
    node.receive(snapshot(list.sid(), 3, post("p1", "acme", "A", 5)));
    page.scheduler.advance(5_000);
    assertAll(
        () -> assertEquals(List.of(
            List.of(),
            List.of("p2:B:9", "p1:A:5"),
            List.of("p2:B:9", "p1:A:6"),
            List.of(),
            List.of("p1:A:5")), acme, "u1's records and overlay went; u2's list has no like"),
        () -> assertNull(sub.get("cursor"), "the list starts over with no cursor"),
        () -> assertEquals(List.of(key("likePost", 1)), page.http.keys(), "u1's write never went out as u2"),
        () -> assertEquals(List.of(), page.outbox().pending(), "u2's queue is empty"),
        () -> assertTrue(page.durable.map.keySet().stream().anyMatch(k -> k.startsWith("runnel.outbox.u1.")),
            "u1's queue is parked in the durable store"),
        () -> assertEquals("u2", page.durable.map.get(RunnelClient.PRINCIPAL_KEY)));
  }

  /**
   * A write's digest can reach the page on a subscription that does not bring the record's new row into truth
   * (here a list released a moment earlier, whose patch was already on the wire): the record keeps the twin's row
   * until the holding list's own patch comes, never the server's old row in between.
   */
  @Test
  void aDigestNamedOnAnotherSubscriptionNeverShowsTheRecordsOldRowBeforeItsOwnEcho() {
    Page page = new Page();
    page.client.connect();
    List<List<String>> acme = new ArrayList<>();
    LiveQuery byLikes = page.client.query(BY_LIKES, "acme", recorder(acme));
    LiveQuery byTitle = page.client.query(BY_TITLE, "acme", v -> { });
    FakeSockets.Socket node = page.online("u1", 1);
    node.receive(snapshot(byLikes.sid(), 2, post("p1", "acme", "A", 5)));
    node.receive(snapshot(byTitle.sid(), 2, post("p1", "acme", "A", 5)));
    page.client.mutate(LIKE, "p1");
    page.http.open().ok("d1", answerLsn(3));
    byTitle.release();
    // The node had already queued byTitle's patch before it read the unsub; byLikes' patch follows.
    node.receive(patch(byTitle.sid(), 3, List.of("d1"), update(post("p1", "acme", "A", 6))));
    node.receive(patch(byLikes.sid(), 3, List.of("d1"), update(post("p1", "acme", "A", 6))));
    assertEquals(List.of(List.of(), List.of("p1:A:5"), List.of("p1:A:6")), acme,
        "the like shows once and stays: never back to the server's old 5 in between");
  }

  /**
   * A subscription the node refused for one actor (X_FORBIDDEN) is subscribed again when the page's actor changes:
   * the refusal was for the old actor.
   */
  @Test
  void aSubscriptionRefusedForTheOldActorIsAskedAgainForTheNewOne() {
    Page page = new Page();
    page.client.connect();
    List<QueryView> views = new ArrayList<>();
    LiveQuery list = page.client.query(BY_LIKES, "acme", views::add);
    FakeSockets.Socket node = page.online(null, 1);
    node.receive("{\"t\":\"refuse\",\"sid\":\"" + list.sid()
        + "\",\"code\":\"X_FORBIDDEN\",\"cause\":\"Anonymous actors may not read it.\",\"fix\":\"Sign in.\"}");
    page.drop(node);
    page.scheduler.advance(375);
    FakeSockets.Socket again = page.online("u1", 2);
    assertTrue(again.kinds().contains("sub"), "u1 may read it: subscribe again, " + again.kinds());
  }

  @Test
  void aQueryTheBundleDoesNotKnowIsNeverSentEvenAfterAPrincipalChange() {
    Page page = new Page();
    page.client.connect();
    page.client.query("noSuchQuery", JsonObject.EMPTY, v -> { });
    FakeSockets.Socket node = page.online(null, 1);
    page.drop(node);
    page.scheduler.advance(375);
    FakeSockets.Socket again = page.online("u1", 2);
    assertAll(
        () -> assertFalse(node.kinds().contains("sub"), "nothing to ask: " + node.kinds()),
        () -> assertFalse(again.kinds().contains("sub"), "still nothing for u1: " + again.kinds()));
  }
}
