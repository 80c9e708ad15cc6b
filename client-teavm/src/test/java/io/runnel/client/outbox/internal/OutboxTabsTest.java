package io.runnel.client.outbox.internal;

import static io.runnel.client.outbox.internal.Page.DIGEST;
import static io.runnel.client.outbox.internal.Page.LSN;
import static io.runnel.client.outbox.internal.Page.key;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.fake.CountingIds;
import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.FakeTabs;
import io.runnel.client.fake.MapStore;
import io.runnel.client.outbox.Mutation;
import io.runnel.client.outbox.MutationOutcome;
import io.runnel.client.outbox.OutboxState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Several tabs of one origin over one durable store: one tab (the lock holder) drains a principal's queue, every tab
 * shows every tab's writes, and every tab hears each outcome.
 */
class OutboxTabsTest {

  private static final String ADA_LOCK = "runnel.outbox.ada";

  private final FakeScheduler clock = new FakeScheduler(1_700_000_000_000L);
  private final MapStore store = new MapStore();
  private final FakeTabs origin = new FakeTabs();
  private final FakeTabs.Tab tabA = origin.open("a");
  private final FakeTabs.Tab tabB = origin.open("b");
  private final Page a = new Page(clock, store, tabA, new CountingIds("000a"));
  private final Page b = new Page(clock, store, tabB, new CountingIds("000b"));

  private static String a(int n) {
    return key("000a", n);
  }

  private static String b(int n) {
    return key("000b", n);
  }

  /** Both tabs signed in as ada, tab a first: a holds ada's lock. */
  private void bothSignedIn() {
    a.signedIn("ada");
    b.signedIn("ada");
    origin.deliver();
  }

  private List<String> storedKeys() {
    return List.copyOf(store.map.keySet());
  }

  @Test
  void onlyTheLockHolderSendsEachEntryOnceInSeqOrderAndEveryTabShowsBothTabsWrites() {
    bothSignedIn();
    a.online(1);
    a.http.offline = true;
    a.like("p1");
    a.offline(1);
    Mutation b1 = b.like("p2");
    clock.advance(5);
    a.like("p3");
    Mutation b2 = b.like("p4");
    origin.deliver();
    List<String> shownByA = a.pendingIds();
    List<String> shownByB = b.pendingIds();
    a.http.offline = false;
    a.online(2);
    for (int i = 0; i < 4; i++) {
      a.http.open().ok(DIGEST);
      origin.deliver();
    }
    assertAll(
        () -> assertSame(tabA, origin.holder(ADA_LOCK), "the first tab to ask holds the lock"),
        () -> assertEquals(List.of(a(1), b(1), a(2), b(2)), shownByA,
            "a shows b's writes too, in (seq, write id) order: a1 and b1 share the first millisecond"),
        () -> assertEquals(shownByA, shownByB, "and b shows the same queue"),
        () -> assertEquals(List.of(a(1), a(1), b(1), a(2), b(2)), a.http.keys(),
            "the holder sent each once in order (after its first try found no network)"),
        () -> assertEquals(List.of(), b.http.calls, "the other tab sent nothing"),
        () -> assertInstanceOf(MutationOutcome.Applied.class, b1.outcome(), "b's calls settle from a's messages"),
        () -> assertInstanceOf(MutationOutcome.Applied.class, b2.outcome()),
        () -> assertTrue(b.writes.log.containsAll(List.of("apply " + a(1) + " {\"postId\":\"p1\"}",
            "answered " + a(1) + " " + DIGEST + " " + LSN, "answered " + b(1) + " " + DIGEST + " " + LSN)),
            "b ran a's twin into its overlay and settles every write by the holder's answer: " + b.writes.log),
        () -> assertTrue(a.writes.log.contains("answered " + b(2) + " " + DIGEST + " " + LSN), "so does a"),
        () -> assertEquals(OutboxState.EMPTY, a.state()),
        () -> assertEquals(OutboxState.EMPTY, b.state(), "b's view emptied as a drained"),
        () -> assertEquals(Map.of(), store.map, "every entry removed once"));
  }

  @Test
  void twoTabsCallingInTheSameMillisecondStoreTwoKeysAndAReloadSeesBoth() {
    bothSignedIn();
    a.http.offline = true;
    a.like("p1");
    b.like("p2");
    Page reloaded = new Page(clock, store).signedIn("ada");
    assertAll(
        () -> assertEquals(List.of(Page.stored("ada", 0, 1).replace(key(1), a(1)),
            Page.stored("ada", 0, 1).replace(key(1), b(1))), storedKeys(),
            "one seq (now ms × 1000) in both tabs, told apart by the write id"),
        () -> assertEquals(List.of(a(1), b(1)), reloaded.pendingIds(), "neither overwrote the other"));
  }

  @Test
  void aFailureIsListedByTheTabThatMadeTheCallAndTheHolderButNotByAnyOtherTab() {
    bothSignedIn();
    a.like("p1");
    origin.deliver();
    a.http.open().refuse(409, "X_POST_NOT_FOUND");
    origin.deliver();
    List<String> failedInBAfterA = b.failedIds();
    Mutation call = b.like("p2");
    origin.deliver();
    a.http.open().refuse(409, "X_POST_NOT_FOUND");
    origin.deliver();
    MutationOutcome.Failed failed = assertInstanceOf(MutationOutcome.Failed.class, call.outcome(),
        "b's call settles with the holder's refusal");
    assertAll(
        () -> assertEquals(List.of(), failedInBAfterA, "a's refused call is not b's to show"),
        () -> assertTrue(b.writes.log.contains("dropped " + a(1)), "but its overlay left b's page"),
        () -> assertEquals("X_POST_NOT_FOUND", failed.error().code(), "the node's code came through"),
        () -> assertEquals(409, failed.error().status()),
        () -> assertEquals(List.of(b(1)), b.failedIds(), "b lists its own call's failure"),
        () -> assertEquals(List.of(a(1), b(1)), a.failedIds(), "the holder lists every failure it decided"),
        () -> assertEquals(List.of(), b.pendingIds()));
  }

  @Test
  void aHolderStoppedWithARequestInFlightHandsTheQueueToTheNextTabWhichResendsItUnderItsKey() {
    bothSignedIn();
    Mutation call = a.like("p1");
    origin.deliver();
    a.outbox.stop();
    origin.deliver();
    List<String> sentByB = b.http.keys();
    b.http.open().ok(DIGEST);
    origin.deliver();
    assertAll(
        () -> assertSame(tabB, origin.holder(ADA_LOCK), "stop released the lock, and b was granted it"),
        () -> assertEquals(List.of(a(1)), sentByB, "b re-read the queue and sent a's in-flight entry, same key"),
        () -> assertEquals(Map.of(), store.map, "settled once"),
        () -> assertInstanceOf(MutationOutcome.Applied.class, call.outcome(),
            "the stopped tab still hears how its call ended"),
        () -> assertEquals(OutboxState.EMPTY, b.state()));
  }

  @Test
  void aStoppedOutboxNeverAsksForALockAgain() {
    bothSignedIn();
    a.outbox.stop();
    a.signedIn("bob");
    origin.deliver();
    assertAll(
        () -> assertNull(origin.holder("runnel.outbox.bob"), "a stopped tab would hold bob's queue and never send it"),
        () -> assertSame(tabB, origin.holder(ADA_LOCK)));
  }

  @Test
  void aHolderPageClosedWithoutAWordLosesTheLockAndItsInFlightEntryIsSentByTheNextHolder() {
    bothSignedIn();
    a.like("p1");
    a.like("p2");
    tabA.close();
    origin.deliver();
    b.http.open().ok(DIGEST);
    b.http.open().ok(DIGEST);
    assertAll(
        () -> assertSame(tabB, origin.holder(ADA_LOCK), "the browser released the closed page's lock"),
        () -> assertEquals(List.of(a(1), a(2)), b.http.keys(),
            "the entries a stored (the first in flight) were read back by b and sent in order, once each"),
        () -> assertEquals(Map.of(), store.map));
  }

  @Test
  void aPrincipalChangeReleasesTheLockAndTheNextTabSendsTheQueue() {
    bothSignedIn();
    b.like("p1");
    origin.deliver();
    var inFlight = a.http.open();
    a.signedIn("bob");
    origin.deliver();
    List<String> sentByB = b.http.keys();
    inFlight.ok(DIGEST);
    origin.deliver();
    b.http.open().ok(DIGEST);
    assertAll(
        () -> assertEquals(List.of(b(1)), a.http.keys(), "a sent b's call while it held ada's lock"),
        () -> assertSame(tabB, origin.holder(ADA_LOCK), "bob's sign-in released ada's lock in a"),
        () -> assertSame(tabA, origin.holder("runnel.outbox.bob"), "and a asked for bob's"),
        () -> assertEquals(List.of(b(1)), sentByB, "b resent the entry a's pass was cut on, under its key"),
        () -> assertEquals(OutboxState.EMPTY, b.state(), "a's late answer still settled it everywhere"),
        () -> assertEquals(Map.of(), store.map));
  }

  @Test
  void messagesThisVersionCannotReadAreIgnored() {
    bothSignedIn();
    b.like("p1");
    FakeTabs.Tab other = origin.open("other version");
    String settled = "{\"t\":\"settled\",\"q\":\"runnel.outbox.ada.\",\"id\":\"" + b(1) + "\"";
    for (String text : List.of("not json", "[1]", "{}", "{\"t\":\"queued\",\"q\":5}", "{\"t\":\"moved\",\"q\":\"x\"}",
        settled + ",\"mutator\":\"likePost\",\"status\":\"200\",\"body\":{}}",
        settled + ",\"mutator\":\"likePost\",\"status\":200,\"body\":\"{}\"}",
        settled + ",\"status\":200,\"body\":{}}",
        settled + ",\"mutator\":\"likePost\",\"status\":2.5e400,\"body\":{}}",
        settled + ",\"mutator\":\"likePost\",\"status\":503,\"body\":{}}")) {
      other.post(text);
    }
    origin.deliver();
    assertAll(
        () -> assertEquals(List.of(b(1)), b.pendingIds(), "nothing settled b's call"),
        () -> assertEquals(List.of(b(1)), a.pendingIds(), "a merged the real queued message"),
        () -> assertEquals(List.of(), b.failedIds()),
        () -> assertEquals(List.of(b(1)), a.http.keys(), "and the holder sent it"));
  }

  @Test
  void aWriteStoredUnderTwoKeysKeepsTheLowestSeqInEveryTabAndIsSentOnce() {
    String entry = "{\"v\":\"2\",\"seq\":\"%d\",\"key\":\"likePost:x\",\"mutator\":\"likePost\","
        + "\"input\":{\"postId\":\"p1\"},\"createdAt\":\"" + clock.nowMillis() + "\"}";
    store.put("runnel.outbox.ada.9.likePost:x", entry.formatted(9));
    a.http.offline = true;
    a.signedIn("ada");
    origin.deliver();
    store.put("runnel.outbox.ada.5.likePost:x", entry.formatted(5));
    origin.open("c").post("{\"t\":\"queued\",\"q\":\"runnel.outbox.ada.\"}");
    origin.deliver();
    List<String> afterMerge = storedKeys();
    a.http.offline = false;
    clock.advance(1_000);
    a.http.open().ok(DIGEST);
    assertAll(
        () -> assertEquals(List.of("runnel.outbox.ada.5.likePost:x"), afterMerge,
            "the copy with the higher seq went, though it was the one a held"),
        () -> assertEquals(List.of("likePost:x", "likePost:x"), a.http.keys(), "one write, one key"),
        () -> assertEquals(Map.of(), store.map, "the kept copy is the one removed on the answer"));
  }

  @Test
  void aFirstReadFindingOneWriteUnderTwoKeysKeepsTheLowestSeqAndShowsItOnce() {
    String entry = "{\"v\":\"2\",\"seq\":\"%d\",\"key\":\"likePost:x\",\"mutator\":\"likePost\","
        + "\"input\":{\"postId\":\"p1\"},\"createdAt\":\"" + clock.nowMillis() + "\"}";
    store.put("runnel.outbox.ada.9.likePost:x", entry.formatted(9));
    store.put("runnel.outbox.ada.10.likePost:x", entry.formatted(10));
    store.put("runnel.outbox.ada.5.likePost:x", entry.formatted(5));
    a.signedIn("ada");
    assertAll(
        () -> assertEquals(List.of("runnel.outbox.ada.5.likePost:x"), storedKeys(), "the other copies went"),
        () -> assertEquals(List.of("likePost:x"), a.pendingIds(), "one entry"),
        () -> assertEquals(List.of("apply likePost:x {\"postId\":\"p1\"}"), a.writes.log, "one twin"));
  }

  @Test
  void aQueuedMessageHeardWhileTheQueueIsBeingReadIsReadAgainOnceLoaded() {
    b.signedIn("ada");
    origin.deliver();
    store.holdLists = true;
    a.signedIn("ada");
    store.holdLists = false;
    b.like("p1");
    store.holdLists = true;
    origin.deliver();
    store.releaseLists();
    List<String> afterFirstRead = a.pendingIds();
    store.releaseLists();
    assertAll(
        () -> assertEquals(List.of(), afterFirstRead, "a's first read began before b stored its call"),
        () -> assertEquals(List.of(b(1)), a.pendingIds(), "so a read the queue again once loaded"));
  }

  @Test
  void aSettledWriteIsNotBroughtBackByAReadThatBeganBeforeItSettled() {
    bothSignedIn();
    store.holdLists = true;
    a.like("p1");
    origin.deliver();
    a.http.open().ok(DIGEST);
    origin.deliver();
    store.releaseLists();
    assertAll(
        () -> assertEquals(List.of(), b.pendingIds(), "b's read saw a1 stored, but a1 had settled meanwhile"),
        () -> assertFalse(b.writes.log.contains("apply " + a(1) + " {\"postId\":\"p1\"}"), "no twin ran for it"),
        () -> assertEquals(Map.of(), store.map));
  }

  @Test
  void aTabTellsTheOthersOfACallOnlyOnceItsEntryIsCommittedSoTheHolderReadsItAndSendsIt() {
    FakeTabs tabs = new FakeTabs();
    Page holder = new Page(clock, store, store.connection(), tabs.open("holder"), new CountingIds("000a"));
    Page other = new Page(clock, store, store.connection(), tabs.open("other"), new CountingIds("000b"));
    holder.signedIn("ada");
    other.signedIn("ada");
    tabs.deliver();
    store.deferCommits = true;
    Mutation call = other.like("p1");
    tabs.deliver();
    List<String> sentBeforeCommit = holder.http.keys();
    store.commit();
    tabs.deliver();
    holder.http.open().ok(DIGEST);
    store.commit();
    tabs.deliver();
    assertAll(
        () -> assertEquals(List.of(), sentBeforeCommit, "nothing to send before the entry is stored"),
        () -> assertEquals(List.of(b(1)), holder.http.keys(),
            "the holder heard of the call once its entry was committed, read it and sent it"),
        () -> assertInstanceOf(MutationOutcome.Applied.class, call.outcome()),
        () -> assertEquals(Map.of(), store.map));
  }

  @Test
  void aTabThatIsNotSignedInAsTheQueuesPrincipalNeitherMergesNorSettlesItsCalls() {
    a.signedIn("ada");
    b.signedIn("bob");
    origin.deliver();
    a.like("p1");
    origin.deliver();
    a.http.open().ok(DIGEST);
    origin.deliver();
    List<String> bobsLog = new ArrayList<>(b.writes.log);
    assertAll(
        () -> assertEquals(List.of(), b.pendingIds(), "ada's queue is not bob's"),
        () -> assertTrue(bobsLog.stream().noneMatch(l -> l.startsWith("apply")), "no twin of ada's ran in b"),
        () -> assertSame(tabB, origin.holder("runnel.outbox.bob"), "each tab drains its own principal's queue"),
        () -> assertNull(origin.holder("runnel.outbox.nobody")));
  }
}
