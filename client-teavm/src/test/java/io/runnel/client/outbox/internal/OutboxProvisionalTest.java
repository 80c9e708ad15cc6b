package io.runnel.client.outbox.internal;

import static io.runnel.client.outbox.internal.Page.DIGEST;
import static io.runnel.client.outbox.internal.Page.key;
import static io.runnel.client.outbox.internal.Page.stored;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.MapStore;
import io.runnel.client.outbox.Mutation;
import io.runnel.client.outbox.MutationOutcome;
import io.runnel.client.outbox.OutboxState;
import io.runnel.client.outbox.StoreRefusedException;
import io.runnel.wire.RunnelException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Calls made before any actor is known (first load, never connected, nothing remembered): they wait in the
 * provisional queue and join the queue of the actor the first {@code Online} names.
 */
class OutboxProvisionalTest {

  private static final String PROVISIONAL = "!provisional";

  private static List<String> outboxKeys(MapStore store) {
    List<String> out = new ArrayList<>();
    for (String k : store.map.keySet()) {
      if (k.startsWith("runnel.outbox.")) {
        out.add(k);
      }
    }
    return out;
  }

  @Test
  void aCallBeforeAnyPrincipalRunsItsTwinAndIsStoredUnderTheProvisionalKeyButNotSent() {
    Page page = new Page();
    Mutation first = page.like("p1");
    page.like("p2");
    page.online(1);
    assertAll(
        () -> assertEquals(key(1), first.writeId(), "a write id like any other"),
        () -> assertEquals(List.of("apply " + key(1) + " {\"postId\":\"p1\"}",
            "apply " + key(2) + " {\"postId\":\"p2\"}"), page.writes.log, "both twins ran into the overlay"),
        () -> assertEquals(List.of(stored(PROVISIONAL, 0, 1), stored(PROVISIONAL, 1, 2)), outboxKeys(page.store),
            "stored entry by entry under the provisional key"),
        () -> assertEquals(List.of(key(1), key(2)), page.pendingIds(), "the page sees them pending"),
        () -> assertEquals(List.of(), page.http.calls, "no actor is known, so nothing is sent"));
  }

  @Test
  void onTheFirstOnlineTheEntriesJoinTheActorsQueueKeyByKeyAfterItsOwnAndAreSentInOrderUnderTheirKeys() {
    FakeScheduler clock = new FakeScheduler(1_700_000_000_000L);
    MapStore store = new MapStore();
    store.put("runnel.outbox.ada.1.likePost:earlier", "{\"v\":\"2\",\"seq\":\"1\",\"key\":\"likePost:earlier\","
        + "\"mutator\":\"likePost\",\"input\":{\"postId\":\"p0\"},\"createdAt\":\"" + clock.nowMillis() + "\"}");
    store.log.clear();
    Page page = new Page(clock, store);
    page.like("p1");
    page.like("p2");
    page.signedIn("ada");
    int beforeOnline = page.http.calls.size();
    page.http.open().ok(DIGEST);
    List<String> pendingBeforeOnline = page.pendingIds();
    page.online(1);
    int moved = store.log.indexOf("put " + stored("ada", 0, 1));
    List<String> movedLog = List.copyOf(store.log.subList(moved, moved + 4));
    List<String> storedAfterMove = outboxKeys(store);
    page.http.open().ok(DIGEST);
    page.http.open().ok(DIGEST);
    assertAll(
        () -> assertEquals(1, beforeOnline, "signed in offline, ada's own entry goes; the provisional ones wait"),
        () -> assertEquals(List.of(key(1), key(2)), pendingBeforeOnline, "still shown pending"),
        () -> assertEquals(List.of("put " + stored("ada", 0, 1), "remove " + stored(PROVISIONAL, 0, 1),
            "put " + stored("ada", 1, 2), "remove " + stored(PROVISIONAL, 1, 2)), movedLog,
            "re-keyed entry by entry, each written under ada before its provisional key goes"),
        () -> assertEquals(List.of(stored("ada", 0, 1), stored("ada", 1, 2)), storedAfterMove,
            "after ada's own entry, in (seq, write id) order"),
        () -> assertEquals(List.of("likePost:earlier", key(1), key(2)), page.http.keys(),
            "after ada's own, in call order, under their original keys"),
        () -> assertEquals(List.of(), outboxKeys(store), "drained"),
        () -> assertEquals(OutboxState.EMPTY, page.state()));
  }

  @Test
  void theProvisionalQueueGoesToTheActorTheFirstOnlineNamesNotToARememberedOne() {
    Page page = new Page();
    Mutation call = page.like("p1");
    page.signedIn("remembered");
    List<String> whileRemembered = outboxKeys(page.store);
    page.signedIn("ada");
    page.online(1);
    List<String> online = outboxKeys(page.store);
    page.http.open().ok(DIGEST);
    assertAll(
        () -> assertEquals(List.of(stored(PROVISIONAL, 0, 1)), whileRemembered,
            "a remembered actor does not adopt it"),
        () -> assertEquals(List.of(stored("ada", 0, 1)), online, "the actor named online does"),
        () -> assertEquals(List.of(key(1)), page.http.keys()),
        () -> assertInstanceOf(MutationOutcome.Applied.class, call.outcome(), "the call's handle settles"),
        () -> assertTrue(page.writes.log.contains("answered " + key(1) + " " + DIGEST + " " + Page.LSN),
            "the overlay is told"));
  }

  @Test
  void aPageReloadedBeforeItEverConnectedShowsItsProvisionalWritesAndSendsThemOnceOnline() {
    Page before = new Page();
    before.like("p1");
    Page after = before.reload();
    List<String> restored = after.pendingIds();
    List<String> twins = List.copyOf(after.writes.log);
    after.signedIn("ada");
    after.online(1);
    after.http.open().ok(DIGEST);
    assertAll(
        () -> assertEquals(List.of(key(1)), restored, "read back at once, before any actor is known"),
        () -> assertEquals(List.of("apply " + key(1) + " {\"postId\":\"p1\"}"), twins, "its twin re-ran"),
        () -> assertEquals(List.of(key(1)), after.http.keys(), "sent under its original key"),
        () -> assertEquals(List.of(), outboxKeys(after.store)));
  }

  @Test
  void entriesReadBackLateJoinTheActorOnceBothQueuesAreLoaded() {
    MapStore store = new MapStore();
    store.holdLists = true;
    Page page = new Page(new FakeScheduler(1_700_000_000_000L), store);
    page.like("p1");
    page.signedIn("ada");
    page.online(1);
    List<String> beforeLists = List.copyOf(page.writes.log);
    int sentBeforeLists = page.http.calls.size();
    store.releaseLists();
    assertAll(
        () -> assertEquals(List.of(), beforeLists, "no twin runs before the stored ones are read back"),
        () -> assertEquals(0, sentBeforeLists),
        () -> assertEquals(List.of("apply " + key(1) + " {\"postId\":\"p1\"}"), page.writes.log),
        () -> assertEquals(List.of(key(1)), page.http.keys(), "sent once both queues were read back"),
        () -> assertEquals(List.of(stored("ada", 0, 1)), outboxKeys(store), "under ada's key"));
  }

  @Test
  void aCallTheStoreRefusesIsReportedAndStillSentByThisPage() {
    Page page = new Page();
    List<RunnelException> errors = new ArrayList<>();
    page.outbox.onError(errors::add);
    page.signedIn("ada");
    page.store.refusePuts = true;
    page.like("p1");
    assertAll(
        () -> assertEquals(1, errors.size(), "the refusal is reported"),
        () -> assertInstanceOf(StoreRefusedException.class, errors.get(0)),
        () -> assertTrue(errors.get(0).getMessage().contains(stored("ada", 0, 1)), errors.get(0).getMessage()),
        () -> assertEquals(List.of(key(1)), page.http.keys(), "this page still sends it"));
  }

  @Test
  void aWriteTheStoreRefusesAfterAcceptingItIsReportedAndTheCallIsStillSent() {
    Page page = new Page();
    List<RunnelException> errors = new ArrayList<>();
    page.outbox.onError(errors::add);
    page.signedIn("ada");
    page.http.offline = true;
    page.like("p1");
    page.store.refuseLater(stored("ada", 0, 1));
    page.http.offline = false;
    page.clock.advance(1_000);
    assertAll(
        () -> assertEquals(1, errors.size(), "the late refusal is reported: " + errors),
        () -> assertInstanceOf(StoreRefusedException.class, errors.get(0)),
        () -> assertTrue(errors.get(0).getMessage().contains(stored("ada", 0, 1)), errors.get(0).getMessage()),
        () -> assertEquals(List.of(key(1), key(1)), page.http.keys(), "this page still sends it"));
  }

  @Test
  void aMoveTheStoreRefusesKeepsTheProvisionalKeySoAReloadStillHasTheCall() {
    Page page = new Page();
    List<RunnelException> errors = new ArrayList<>();
    page.outbox.onError(errors::add);
    page.like("p1");
    page.signedIn("ada");
    page.store.refusePuts = true;
    page.online(1);
    assertAll(
        () -> assertEquals(List.of(stored(PROVISIONAL, 0, 1)), outboxKeys(page.store),
            "the old key is kept, not removed"),
        () -> assertEquals(1, errors.size(), "the refusal is reported: " + errors),
        () -> assertEquals(List.of(key(1)), page.http.keys(), "this page still sends it"));
  }
}
