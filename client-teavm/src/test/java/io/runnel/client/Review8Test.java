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
