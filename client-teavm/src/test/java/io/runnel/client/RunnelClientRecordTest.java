package io.runnel.client;

import static io.runnel.client.Page.answerLsn;
import static io.runnel.client.fake.Node.BY_LIKES;
import static io.runnel.client.fake.Node.CREATE;
import static io.runnel.client.fake.Node.LIKE;
import static io.runnel.client.fake.Node.del;
import static io.runnel.client.fake.Node.patch;
import static io.runnel.client.fake.Node.post;
import static io.runnel.client.fake.Node.snapshot;
import static io.runnel.client.fake.Node.update;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.fake.FakeSockets;
import io.runnel.client.live.LiveQuery;
import io.runnel.client.outbox.Subscription;
import io.runnel.dsl.Row;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** One record as the page shows it ({@link RunnelClient#record}): truth with the overlay, heard when it changes. */
class RunnelClientRecordTest {

  private final Page page = new Page();
  private final List<String> heard = new ArrayList<>();
  private FakeSockets.Socket node;
  private LiveQuery list;

  /** Records each row heard as {@code title:likes}, or {@code null}. */
  private Consumer<Row> recorder() {
    return row -> heard.add(row == null ? "null" : row.text("title") + ":" + row.int4("likes"));
  }

  /** Online as u1 with the acme list at commit 2: p2 (9 likes) and p1 (5 likes). */
  private void liveAcme() {
    page.client.connect();
    list = page.client.query(BY_LIKES, "acme", v -> { });
    node = page.online("u1", 1);
    node.receive(snapshot(list.sid(), 2, post("p2", "acme", "B", 9), post("p1", "acme", "A", 5)));
  }

  @Test
  void aRecordIsHeardNowAndAfterEachChangeToItButNotAfterAnotherRecordsChange() {
    page.client.record("posts", "p1", recorder());
    liveAcme();
    node.receive(patch(list.sid(), 3, List.of(), update(post("p2", "acme", "B", 10))));
    page.client.mutate(LIKE, "p1");
    page.http.open().ok("d1", answerLsn(4));
    node.receive(patch(list.sid(), 4, List.of("d1"), update(post("p1", "acme", "A", 6))));
    node.receive(patch(list.sid(), 5, List.of(), update(post("p1", "acme", "A2", 6))));
    assertEquals(List.of("null", "A:5", "A:6", "A2:6"), heard,
        "null before any list held it; the list's row; the like in the overlay at once; not again when its echo "
            + "settled it with the same row; a rename; never p2's change");
  }

  @Test
  void aRecordThatLeavesThePageIsHeardAsNullAndACancelledListenerHearsNothingMore() {
    liveAcme();
    Subscription s = page.client.record("posts", "p1", recorder());
    page.client.record("posts", "p2", row -> heard.add(row == null ? "p2 null" : "p2"));
    node.receive(patch(list.sid(), 3, List.of(), del("p1")));
    s.cancel();
    node.receive(patch(list.sid(), 4, List.of(), update(post("p1", "acme", "A", 7))));
    list.release();
    assertEquals(List.of("A:5", "p2", "null", "p2 null"), heard,
        "deleted by the node: null; cancelled: nothing more; released with the list that held it: null");
  }

  @Test
  void aRecordOnlyAPendingWriteMadeIsHeardUntilTheNodeRefusesTheWrite() {
    page.client.connect();
    node = page.online("u1", 1);
    page.client.record("posts", "p9", recorder());
    page.client.mutate(CREATE, "p9|acme|Z|0");
    page.http.open().refuse(409, "X_POST_EXISTS");
    assertEquals(List.of("null", "Z:0", "null"), heard, "the twin's insert showed, and went with the refusal");
  }

  @Test
  void aTypeNoRegisteredEntityNamesIsRefusedWithACodedError() {
    InputInvalidException e = assertThrows(InputInvalidException.class,
        () -> page.client.record("comments", "c1", recorder()));
    assertAll(
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, e.code()),
        () -> assertEquals("type", e.path()),
        () -> assertTrue(e.cause().contains("'comments'"), e.cause()),
        () -> assertEquals(List.of(), heard, "nothing heard"));
  }
}
