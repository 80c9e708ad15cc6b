package io.runnel.client;

import static io.runnel.client.Page.answerLsn;
import static io.runnel.client.Page.recorder;
import static io.runnel.client.fake.Node.BY_LIKES;
import static io.runnel.client.fake.Node.LIKE;
import static io.runnel.client.fake.Node.patch;
import static io.runnel.client.fake.Node.post;
import static io.runnel.client.fake.Node.snapshot;
import static io.runnel.client.fake.Node.update;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.runnel.client.fake.CountingIds;
import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.FakeSockets;
import io.runnel.client.fake.FakeTabs;
import io.runnel.client.fake.MapStore;
import io.runnel.client.outbox.Credentials;
import io.runnel.client.outbox.Mutation;
import io.runnel.client.outbox.MutationOutcome;
import io.runnel.wire.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two tabs of one browser, each with its composed client, over one durable store and one origin's tabs. */
class RunnelClientTabsTest {

  private final FakeScheduler scheduler = new FakeScheduler();
  private final MapStore durable = new MapStore();
  private final FakeTabs origin = new FakeTabs();
  private final Page a = new Page(scheduler, durable, Credentials.cookie(), origin.open("a"), new CountingIds("000a"));
  private final Page b = new Page(scheduler, durable, Credentials.cookie(), origin.open("b"), new CountingIds("000b"));

  @Test
  void aCallInTheTabThatDoesNotDrainIsSentByTheOtherAndSettlesItsPromiseAndOverlayWithoutFlicker() {
    a.client.connect();
    a.online("u1", 1);
    List<List<String>> seen = new ArrayList<>();
    b.client.connect();
    var list = b.client.query(BY_LIKES, "acme", recorder(seen));
    FakeSockets.Socket node = b.online("u1", 1);
    node.receive(snapshot(list.sid(), 2, post("p1", "acme", "A", 5)));
    origin.deliver();
    Mutation call = b.client.mutate(LIKE, "p1");
    origin.deliver();
    a.http.open().ok("d1", answerLsn(3));
    origin.deliver();
    scheduler.runDue();
    List<String> framesAfterAnswer = node.kinds();
    node.receive(patch(list.sid(), 3, List.of("d1"), update(post("p1", "acme", "A", 6))));
    MutationOutcome.Applied applied = assertInstanceOf(MutationOutcome.Applied.class, call.outcome(),
        "b's promise settled from a's message");
    assertAll(
        () -> assertEquals(List.of(call.writeId()), a.http.keys(), "a, holding u1's lock, sent b's call once"),
        () -> assertEquals(List.of(), b.http.calls, "b sent nothing"),
        () -> assertEquals(JsonObject.builder().put("ok", true).build(), applied.result(), "with the node's result"),
        () -> assertEquals("hello", framesAfterAnswer.get(framesAfterAnswer.size() - 1),
            "b beat at once, so its overlay settles by the answer's LSN even without an echo"),
        () -> assertEquals(List.of(List.of(), List.of("p1:A:5"), List.of("p1:A:6")), seen,
            "the twin's like at once in b's list, then no flicker as the echo settled it"),
        () -> assertEquals(List.of(), a.outbox().pending(), "a's outbox drained"),
        () -> assertEquals(List.of(), b.outbox().pending(), "and b's, which showed the call pending until then"));
  }
}
