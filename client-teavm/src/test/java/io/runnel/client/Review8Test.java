package io.runnel.client;

import static io.runnel.client.Page.answerLsn;
import static io.runnel.client.Page.recorder;
import static io.runnel.client.fake.Node.BY_LIKES;
import static io.runnel.client.fake.Node.BY_TITLE;
import static io.runnel.client.fake.Node.LIKE;
import static io.runnel.client.fake.Node.patch;
import static io.runnel.client.fake.Node.post;
import static io.runnel.client.fake.Node.snapshot;
import static io.runnel.client.fake.Node.update;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.fake.FakeSockets;
import io.runnel.client.live.LiveQuery;
import io.runnel.client.live.QueryView;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Review 8: regressions found by trying to break the composed client against issue 8 and PROTOCOL.md. */
class Review8Test {

  /**
   * Review 8, finding 3: QueueStore.move documents that a page closed mid-move leaves a second copy under the same
   * idempotency key, "never a lost write"; reading that store back threw "already pending" out of the client's
   * constructor, so the page could not even build its client.
   */
  @Test
  void aCopyLeftByAnInterruptedMoveFromTheProvisionalQueueDoesNotBreakTheNextPage() {
    Page first = new Page();
    first.client.connect();
    first.online("u1", 1);
    first.http.offline = true;
    first.client.mutate(LIKE, "p1");
    String stored = first.durable.map.get("runnel.outbox.u1.1");
    // As if the page closed between writing the new key and removing the provisional one.
    first.durable.map.put("runnel.outbox.!provisional.1", stored);
    Page[] next = new Page[1];
    assertDoesNotThrow(() -> next[0] = first.reload(), "the reload builds its client");
    List<List<String>> seen = new ArrayList<>();
    next[0].client.connect();
    LiveQuery list = next[0].client.query(BY_LIKES, "acme", recorder(seen));
    FakeSockets.Socket node = next[0].online("u1", 2);
    node.receive(snapshot(list.sid(), 2, post("p1", "acme", "A", 5)));
    assertTrue(seen.contains(List.of("p1:A:6")), "the like shows once, over the server's 5: " + seen);
  }

  /**
   * Review 8, finding 4: a subscription refused for one actor (X_FORBIDDEN) stayed failed after the page's actor
   * changed: the principal change subscribes every list afresh, but skipped the refused one for good.
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
}
