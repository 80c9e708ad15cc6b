package io.runnel.client.outbox.internal;

import static io.runnel.client.outbox.internal.Page.DIGEST;
import static io.runnel.client.outbox.internal.Page.key;
import static io.runnel.client.outbox.internal.Page.stored;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.ConnectionState;
import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.MapStore;
import io.runnel.client.fake.RecordingHttp;
import io.runnel.client.outbox.Mutation;
import io.runnel.client.outbox.MutationOutcome;
import io.runnel.client.outbox.OutboxState;
import io.runnel.wire.ErrorCode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The offline outbox: order, refusals, connection epochs, reloads, retention and per-principal queues. */
class OutboxReplayTest {

  /** Three calls made while the network is down: the first found no network, the others queue behind it. */
  private static Page threeQueuedOffline() {
    Page page = new Page().signedIn("ada");
    page.online(1);
    page.like("p1");
    page.http.open().networkFails();
    page.offline(1);
    page.like("p2");
    page.like("p3");
    return page;
  }

  @Test
  void queuedCallsAreSentOneAtATimeInOrderWhenTheConnectionReturns() {
    Page page = threeQueuedOffline();
    assertEquals(List.of(key(1), key(2), key(3)), page.pendingIds(), "all three wait, in call order");
    assertEquals(1, page.http.calls.size(), "only the first went out, and found no network");
    page.online(2);
    page.http.open().ok(DIGEST);
    page.http.open().ok(DIGEST);
    page.http.open().ok(DIGEST);
    assertAll(
        () -> assertEquals(List.of(key(1), key(1), key(2), key(3)), page.http.keys(),
            "replayed in order under the original keys, one request at a time"),
        () -> assertEquals(List.of(), page.clock.armed(), "the backoff timer was called off"),
        () -> assertEquals(OutboxState.EMPTY, page.state(), "drained"),
        () -> assertEquals(3, page.beats, "a beat after each answer"));
  }

  @Test
  void aRefusalInTheMiddleFailsOnlyThatEntryAndStopsThePass() {
    Page page = threeQueuedOffline();
    page.online(2);
    page.http.open().ok(DIGEST);
    page.http.open().refuse(409, "X_POST_NOT_FOUND");
    assertAll(
        () -> assertEquals(List.of(key(1), key(1), key(2)), page.http.keys(), "the third was not sent"),
        () -> assertEquals(List.of(key(2)), page.failedIds(), "only the refused entry failed"),
        () -> assertEquals(List.of(key(3)), page.pendingIds(), "the third still waits"),
        () -> assertTrue(page.writes.log.contains("dropped " + key(2)), "the refused overlay went"),
        () -> assertFalse(page.writes.log.contains("dropped " + key(3)), "the third's overlay stays"));
    page.outbox.drain();
    page.http.open().ok(DIGEST);
    assertEquals(List.of(key(1), key(1), key(2), key(3)), page.http.keys(), "the next pass sends the rest");
  }

  @Test
  void aPassCutByADroppedSocketSendsNothingTwiceEvenWhenItsAnswerArrivesLate() {
    Page page = threeQueuedOffline();
    page.online(2);
    page.http.open().ok(DIGEST);
    RecordingHttp.Call second = page.http.open();
    page.offline(2);
    assertFalse(page.state().pending().get(0).sending(), "the in-flight entry is pending again");
    second.ok(DIGEST);
    assertAll(
        () -> assertEquals(List.of(key(1), key(1), key(2)), page.http.keys(),
            "the cut pass did not go on to the third entry"),
        () -> assertEquals(List.of(key(3)), page.pendingIds(), "the late answer still settled the second"),
        () -> assertTrue(page.writes.log.contains("answered " + key(2) + " " + DIGEST + " " + Page.LSN),
            "and told the overlay"));
    page.online(3);
    page.http.open().ok(DIGEST);
    assertEquals(List.of(key(1), key(1), key(2), key(3)), page.http.keys(), "each entry sent once more at most");
  }

  @Test
  void aLateAnswerFromACutPassSettlesTheEntryTheNewPassIsResending() {
    Page page = threeQueuedOffline();
    page.online(2);
    RecordingHttp.Call cut = page.http.open();
    page.offline(2);
    page.online(3);
    RecordingHttp.Call resent = page.http.calls.get(2);
    cut.ok(DIGEST);
    assertEquals(3, page.http.calls.size(), "the old pass's answer sends nothing");
    resent.ok(DIGEST);
    page.http.open().ok(DIGEST);
    page.http.open().ok(DIGEST);
    assertAll(
        () -> assertEquals(List.of(key(1), key(1), key(1), key(2), key(3)), page.http.keys(),
            "the first entry went again under its key (its fate was unknown); the others once"),
        () -> assertEquals(1, page.writes.log.stream().filter(l -> l.startsWith("answered " + key(1))).count(),
            "the overlay was told once"),
        () -> assertEquals(OutboxState.EMPTY, page.state(), "drained"));
  }

  @Test
  void aNewConnectionEpochCutsAPassBegunUnderTheOldOne() {
    Page page = new Page().signedIn("ada");
    page.online(1);
    page.like("p1");
    RecordingHttp.Call old = page.http.open();
    page.online(2);
    assertEquals(List.of(key(1), key(1)), page.http.keys(), "resent under the new connection");
    old.networkFails();
    assertEquals(List.of(), page.clock.armed(), "the old pass's failure arms no retry");
    page.http.last().ok(DIGEST);
    assertEquals(OutboxState.EMPTY, page.state(), "settled");
  }

  @Test
  void aCallMadeBeforeTheFirstConnectionIsNotResentWhenTheSocketOpens() {
    Page page = new Page().signedIn("ada");
    page.outbox.connection(new ConnectionState.Connecting(0));
    page.like("p1");
    page.online(1);
    page.http.open().ok(DIGEST);
    assertAll(
        () -> assertEquals(List.of(key(1)), page.http.keys(), "sent once: no connection was cut"),
        () -> assertEquals(OutboxState.EMPTY, page.state(), "settled"));
  }

  @Test
  void aReloadReappliesTheTwinsInOrderAndReplaysUnderTheOriginalKeys() {
    Page before = threeQueuedOffline();
    Page after = before.reload().signedIn("ada");
    assertAll(
        () -> assertEquals(List.of("apply " + key(1) + " {\"postId\":\"p1\"}", "apply " + key(2)
            + " {\"postId\":\"p2\"}", "apply " + key(3) + " {\"postId\":\"p3\"}"), after.writes.log,
            "the restored twins ran in call order"),
        () -> assertEquals(List.of(key(1), key(2), key(3)), after.pendingIds(), "all three restored"));
    after.http.open().ok(DIGEST);
    after.http.open().ok(DIGEST);
    RecordingHttp.Call third = after.http.open();
    assertAll(
        () -> assertEquals(List.of(key(1), key(2), key(3)), after.http.keys(), "the original keys, in order"),
        () -> assertEquals("{\"input\":{\"postId\":\"p3\"}}", third.request.body(), "the original input"));
    third.ok(DIGEST);
    assertEquals(Map.of(), after.store.map, "every entry removed by key");
  }

  @Test
  void theQueueIsWrittenEntryByEntryNeverAsAWhole() {
    Page page = threeQueuedOffline();
    page.online(2);
    page.http.open().ok(DIGEST);
    assertEquals(List.of("put " + stored("ada", 0, 1), "put " + stored("ada", 1, 2), "put " + stored("ada", 2, 3),
        "remove " + stored("ada", 0, 1)), page.store.log, "one key per entry, each naming its seq and write id");
  }

  @Test
  void callsMadeBeforeTheStoredQueueIsReadBackQueueBehindIt() {
    Page before = threeQueuedOffline();
    MapStore store = before.store;
    store.holdLists = true;
    Page after = before.reload().signedIn("ada");
    Mutation early = after.like("p9");
    assertAll(
        () -> assertEquals(List.of(), after.writes.log, "no twin runs before the stored ones"),
        () -> assertEquals(List.of(), after.http.calls, "nothing sent yet"));
    store.releaseLists();
    assertAll(
        () -> assertEquals("apply " + early.writeId() + " {\"postId\":\"p9\"}", after.writes.log.get(3),
            "the early call's twin runs after the three restored"),
        () -> assertEquals(List.of(key(1), key(2), key(3), early.writeId()), after.pendingIds(), "queued last"),
        () -> assertTrue(store.map.containsKey("runnel.outbox.ada." + (Page.SEQ + 3) + "." + early.writeId()),
            "stored after the restored ones"));
  }

  @Test
  void anEntryOlderThanTheRetentionIsAbandonedNeverReplayed() {
    Page page = new Page().signedIn("ada");
    page.online(1);
    page.http.offline = true;
    Mutation old = page.like("p1");
    page.offline(1);
    page.clock.advance(Outbox.DEFAULT_RETENTION_MILLIS - 1_000);
    Mutation recent = page.like("p2");
    page.clock.advance(1_000);
    assertEquals(List.of(key(1), key(2)), page.pendingIds(), "retried every 30 s while fresh, still pending");
    page.clock.advance(1_000);
    page.http.offline = false;
    int before = page.http.calls.size();
    page.online(2);
    MutationOutcome.Failed failed = assertInstanceOf(MutationOutcome.Failed.class, old.outcome());
    assertAll(
        () -> assertEquals(ErrorCode.X_OFFLINE_QUEUE_ABANDONED.name(), failed.error().code(), "code"),
        () -> assertEquals(410, failed.error().status(), "status"),
        () -> assertEquals(List.of(key(1)), page.failedIds(), "surfaced in the state"),
        () -> assertTrue(page.writes.log.contains("dropped " + key(1)), "its overlay went"),
        () -> assertEquals(List.of(key(2)), page.http.keys().subList(before, page.http.calls.size()),
            "past the retention it is never replayed; the recent one is sent"),
        () -> assertNull(recent.outcome(), "the recent one waits for its answer"));
  }

  @Test
  void aPrincipalChangeParksTheQueueAndNeverSendsItUnderAnotherIdentity() {
    Page page = threeQueuedOffline();
    page.outbox.principal("bob");
    assertAll(
        () -> assertTrue(page.writes.log.containsAll(List.of("dropped " + key(1), "dropped " + key(2),
            "dropped " + key(3))), "ada's overlay left the page"),
        () -> assertEquals(OutboxState.EMPTY, page.state(), "bob's outbox is empty"));
    page.online(2);
    assertEquals(1, page.http.calls.size(), "nothing of ada's is sent while bob is signed in");
    page.like("b1");
    RecordingHttp.Call bobs = page.http.open();
    assertEquals(key(4), bobs.key(), "bob's own call goes");
    bobs.ok(DIGEST);
    assertTrue(page.store.map.keySet().stream().allMatch(k -> k.startsWith("runnel.outbox.ada.")),
        "ada's queue is still stored, under her name");
    page.outbox.principal("ada");
    page.http.open().ok(DIGEST);
    page.http.open().ok(DIGEST);
    page.http.open().ok(DIGEST);
    assertAll(
        () -> assertEquals(List.of(key(1), key(4), key(1), key(2), key(3)), page.http.keys(),
            "ada's queue resumes when she signs back in"),
        () -> assertEquals(OutboxState.EMPTY, page.state(), "drained"));
  }

  @Test
  void theAnswerOfAParkedPrincipalsCallStillRemovesItsEntry() {
    Page page = new Page().signedIn("ada");
    page.online(1);
    page.like("p1");
    RecordingHttp.Call adas = page.http.open();
    page.outbox.principal("bob");
    adas.ok(DIGEST);
    assertAll(
        () -> assertEquals(Map.of(), page.store.map, "the server ran it: nothing left to replay"),
        () -> assertFalse(page.writes.log.contains("answered " + key(1) + " " + DIGEST + " " + Page.LSN),
            "bob's overlay is not told about ada's write"),
        () -> assertEquals(1, page.http.calls.size(), "nothing else sent"));
  }

  @Test
  void principalsWithDotsInTheirIdsGetSeparateQueues() {
    Page page = new Page().signedIn("a.b");
    page.like("p1");
    page.http.open().networkFails();
    Page other = page.reload().signedIn("a");
    assertAll(
        () -> assertEquals(stored("a%002Eb", 0, 1), page.store.map.firstKey(), "the id is escaped"),
        () -> assertEquals(OutboxState.EMPTY, other.state(), "principal 'a' does not see 'a.b''s queue"));
  }

  @Test
  void anUnreadableStoredEntryIsRemovedAndReportedNotReplayed() {
    MapStore store = new MapStore();
    store.map.put("runnel.outbox.ada.1", "{\"v\":\"9\"}");
    Page page = new Page(new FakeScheduler(1_700_000_000_000L), store).signedIn("ada");
    assertAll(
        () -> assertEquals(List.of("runnel.outbox.ada.1"), page.failedIds(), "reported"),
        () -> assertEquals(Map.of(), store.map, "removed"),
        () -> assertEquals(List.of(), page.http.calls, "never sent"));
  }

  @Test
  void theStateListenersSeeEachWriteGoFromPendingToDone() {
    Page page = new Page().signedIn("ada");
    page.like("p1");
    page.http.open().ok(DIGEST);
    assertAll(
        () -> assertEquals(OutboxState.EMPTY, page.states.get(0), "the first state given at once"),
        () -> assertEquals(List.of(new OutboxState.PendingWrite(key(1), "likePost", page.clock.nowMillis(), true)),
            page.states.get(page.states.size() - 2).pending(), "sending"),
        () -> assertEquals(OutboxState.EMPTY, page.states.get(page.states.size() - 1), "done"));
  }
}
