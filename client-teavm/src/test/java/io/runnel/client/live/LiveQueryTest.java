package io.runnel.client.live;

import static io.runnel.client.fake.Node.BY_LIKES;
import static io.runnel.client.fake.Node.BY_TITLE;
import static io.runnel.client.fake.Node.CREATE;
import static io.runnel.client.fake.Node.LIKE;
import static io.runnel.client.fake.Node.hello;
import static io.runnel.client.fake.Node.patch;
import static io.runnel.client.fake.Node.post;
import static io.runnel.client.fake.Node.put;
import static io.runnel.client.fake.Node.snapshot;
import static io.runnel.client.fake.Node.update;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.FakeSockets;
import io.runnel.client.fake.Node;
import io.runnel.client.live.internal.LiveClient;
import io.runnel.client.store.ClientRecord;
import io.runnel.client.store.internal.RecordStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Live lists as a page sees them: every view each list handed its listener is recorded, so a record that
 * disappears for a moment, shows twice or shows a stale value fails the test.
 */
class LiveQueryTest {

  private final FakeScheduler scheduler = new FakeScheduler();
  private final FakeSockets sockets = new FakeSockets();
  private RecordStore store;
  private LiveClient client;
  private FakeSockets.Socket node;

  @BeforeEach
  void setUp() {
    store = RecordStore.create();
    client = LiveClient.builder().sockets(sockets).scheduler(scheduler).json(Node.JSON).store(store)
        .endpoint((ready, failed) -> ready.accept("ws://node/v1/sync")).random(() -> 0.5).create();
  }

  private void online() {
    client.start();
    node = sockets.last();
    node.open();
    node.receive(hello("u1", 1));
  }

  /** Each view a list showed, as {@code key:title:likes} lines. */
  private static List<List<String>> record(LiveQuery q) {
    List<List<String>> seen = new ArrayList<>();
    q.listen(v -> seen.add(v.records().stream()
        .map(r -> r.key() + ":" + r.row().text("title") + ":" + r.row().int4("likes")).toList()));
    return seen;
  }

  @Test
  void anOptimisticInsertTakesItsPlaceInEveryMatchingListAndItsEchoReplacesItWithoutASecondCopy() {
    LiveQuery likes = client.query(BY_LIKES, "acme");
    LiveQuery titles = client.query(BY_TITLE, "acme");
    LiveQuery other = client.query(BY_LIKES, "other");
    online();
    node.receive(snapshot(likes.sid(), 2, post("p2", "acme", "B", 9), post("p1", "acme", "A", 5)));
    node.receive(snapshot(titles.sid(), 2, post("p1", "acme", "A", 5), post("p2", "acme", "B", 9)));
    node.receive(snapshot(other.sid(), 2));
    List<List<String>> byLikes = record(likes);
    List<List<String>> byTitle = record(titles);
    List<List<String>> others = record(other);

    store.apply("w1", CREATE, "p3|acme|AB|7");
    store.answered("w1", "d1", "000000000000000500000000");
    node.receive(patch(likes.sid(), 5, List.of("d1"), put(post("p3", "acme", "AB", 7), "p2")));
    int pendingAfterFirstEcho = store.pendingWrites();
    node.receive(patch(titles.sid(), 5, List.of("d1"), put(post("p3", "acme", "AB", 7), "p1")));
    node.receive(hello("u1", 5));

    assertAll(
        () -> assertEquals(List.of(
            List.of("p2:B:9", "p1:A:5"),
            List.of("p2:B:9", "p3:AB:7", "p1:A:5")), byLikes, "placed by likes, then its echo changes nothing"),
        () -> assertEquals(List.of(
            List.of("p1:A:5", "p2:B:9"),
            List.of("p1:A:5", "p3:AB:7", "p2:B:9")), byTitle,
            "placed by title, and kept while this list's own echo was on its way"),
        () -> assertEquals(List.of(List.of()), others, "another org's list never saw it"),
        () -> assertEquals(0, pendingAfterFirstEcho, "settled by the first echo of its digest"),
        () -> assertEquals(List.of("p1", "p3", "p2"),
            titles.view().records().stream().map(ClientRecord::key).toList(), "one copy"));
  }

  @Test
  void twoPendingLikesOverSomeoneElsesChangeShowInOrderAndSettleWithoutFlicker() {
    LiveQuery likes = client.query(BY_LIKES, "acme");
    online();
    node.receive(snapshot(likes.sid(), 2, post("p1", "acme", "A", 5)));
    List<List<String>> seen = record(likes);
    store.apply("w1", LIKE, "p1");
    store.apply("w2", LIKE, "p1");
    node.receive(patch(likes.sid(), 3, List.of(), update(post("p1", "acme", "A", 10))));
    store.answered("w1", "d1", "000000000000000400000000");
    store.answered("w2", "d2", "000000000000000500000000");
    node.receive(patch(likes.sid(), 4, List.of("d1"), update(post("p1", "acme", "A", 11))));
    node.receive(patch(likes.sid(), 5, List.of("d2"), update(post("p1", "acme", "A", 12))));
    assertEquals(List.of(
        List.of("p1:A:5"),
        List.of("p1:A:6"),
        List.of("p1:A:7"),
        List.of("p1:A:12")), seen, "5, each like, both over their 10, then the echoes' 12: never 13 or 14");
  }

  @Test
  void anEchoLostToAReSnapshotSettlesByTheHelloLsnWithoutFlicker() {
    LiveQuery likes = client.query(BY_LIKES, "acme");
    online();
    node.receive(snapshot(likes.sid(), 2, post("p1", "acme", "A", 5)));
    List<List<String>> seen = record(likes);
    store.apply("w1", LIKE, "p1");
    store.answered("w1", "d1", "000000000000000300000000");
    node.receive(snapshot(likes.sid(), 3, post("p1", "acme", "A", 6)));
    int pendingAfterSnapshot = store.pendingWrites();
    node.receive(hello("u1", 3));
    assertAll(
        () -> assertEquals(1, pendingAfterSnapshot, "no digest in a snapshot"),
        () -> assertEquals(0, store.pendingWrites(), "the hello lsn settled it"),
        () -> assertEquals(List.of(List.of("p1:A:5"), List.of("p1:A:6"), List.of("p1:A:7"), List.of("p1:A:6")), seen,
            "the non-convergent like shows 7 over the re-snapshot until the hello: the recorded cost of a lost echo"));
  }

  @Test
  void aWriteTheServerRefusesLeavesExactlyTheServersList() {
    LiveQuery likes = client.query(BY_LIKES, "acme");
    online();
    node.receive(snapshot(likes.sid(), 2, post("p1", "acme", "A", 5)));
    List<List<String>> seen = record(likes);
    store.apply("w1", CREATE, "p3|acme|C|9");
    store.dropped("w1");
    assertEquals(List.of(List.of("p1:A:5"), List.of("p3:C:9", "p1:A:5"), List.of("p1:A:5")), seen);
  }

  @Test
  void aHelloAnswerDuringAResumeSettlesNothingUntilTheListIsLiveAgain() {
    LiveQuery likes = client.query(BY_LIKES, "acme");
    online();
    node.receive(snapshot(likes.sid(), 2, post("p1", "acme", "A", 5)));
    store.apply("w1", LIKE, "p1");
    store.answered("w1", "d1", "000000000000000300000000");
    node.listener.closed(1006, "gone");
    scheduler.advance(375);
    FakeSockets.Socket next = sockets.last();
    next.open();
    next.receive(hello("u1", 3));
    int pendingDuringResume = store.pendingWrites();
    next.receive(patch(likes.sid(), 3, List.of(), update(post("p1", "acme", "A", 6))));
    scheduler.runDue();
    List<String> beats = next.kinds();
    next.receive(hello("u1", 3));
    assertAll(
        () -> assertEquals(1, pendingDuringResume, "the resume was still in flight"),
        () -> assertEquals(List.of("hello", "sub", "hello"), beats, "a fresh beat once the list was live"),
        () -> assertEquals(0, store.pendingWrites()),
        () -> assertEquals(List.of("p1:A:6"), likes.view().records().stream()
            .map(r -> r.key() + ":" + r.row().text("title") + ":" + r.row().int4("likes")).toList()));
  }
}
