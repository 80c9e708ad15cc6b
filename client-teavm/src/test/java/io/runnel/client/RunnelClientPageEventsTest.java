package io.runnel.client;

import static io.runnel.client.fake.Node.LIKE;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.runnel.client.fake.FakeSockets;
import io.runnel.client.fake.Node;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The page's events ({@code online}, {@code offline}, a tab shown again) wired into the composed client: they cut
 * the waiting short, never a node's {@code Retry-After}, and never drop a working socket.
 */
class RunnelClientPageEventsTest {

  private final Page page = new Page();
  private FakeSockets.Socket node;

  /** Online as u1; a like finds no network; then the socket drops: both wait out their backoff. */
  private void bothWaiting() {
    page.client.connect();
    node = page.online("u1", 1);
    page.http.offline = true;
    page.client.mutate(LIKE, "p1");
    page.drop(node);
    page.http.offline = false;
  }

  @Test
  void onlineReconnectsAndRetriesTheWriteAtOnceInsteadOfWaitingOutTheBackoff() {
    bothWaiting();
    long before = page.scheduler.nowMillis();
    page.events.online();
    assertAll(
        () -> assertEquals(2, page.sockets.opened.size(), "a new socket at once"),
        () -> assertInstanceOf(ConnectionState.Connecting.class, page.states.get(page.states.size() - 1)),
        () -> assertEquals(2, page.http.calls.size(), "the write was sent again at once"),
        () -> assertEquals(List.of(Page.key("likePost", 1), Page.key("likePost", 1)), page.http.keys(),
            "under its original key"),
        () -> assertEquals(before, page.scheduler.nowMillis(), "no time passed"));
  }

  @Test
  void aTabShownAgainReconnectsAndRetriesAtOnceToo() {
    bothWaiting();
    page.events.visible();
    assertAll(
        () -> assertEquals(2, page.sockets.opened.size(), "a new socket at once"),
        () -> assertEquals(2, page.http.calls.size(), "the write was sent again at once"));
  }

  @Test
  void aNodesRetryAfterIsWaitedOutWhateverThePageSays() {
    page.client.connect();
    node = page.online("u1", 1);
    page.client.mutate(LIKE, "p1");
    page.http.open().answer(429, "", 30);
    page.events.online();
    page.events.visible();
    page.scheduler.advance(29_999);
    int beforeRetryAfter = page.http.calls.size();
    page.scheduler.advance(1);
    assertAll(
        () -> assertEquals(1, beforeRetryAfter, "nothing sent before the 30 s the node asked for"),
        () -> assertEquals(2, page.http.calls.size(), "sent at Retry-After"));
  }

  @Test
  void offlineBeatsAtOnceAndKeepsAWorkingSocketASilentOneIsClosedAfterTwoBeats() {
    page.client.connect();
    node = page.online("u1", 1);
    int sent = node.sent.size();
    page.events.offline();
    page.scheduler.runDue();
    List<String> beat = node.kinds().subList(sent, node.sent.size());
    node.receive(Node.hello("u1", 1));
    page.scheduler.advance(1_999);
    int closedBeforeSilence = node.closedWith;
    page.scheduler.advance(1);
    assertAll(
        () -> assertEquals(List.of("hello"), beat, "the event checks the socket at once"),
        () -> assertEquals(-1, closedBeforeSilence, "a socket that answered is kept, whatever the event said"),
        () -> assertEquals(4000, node.closedWith, "one that stays silent goes two beats after the last frame"));
  }

  @Test
  void onlineWhileOnlineBeatsOnTheSameSocket() {
    page.client.connect();
    node = page.online("u1", 1);
    int sent = node.sent.size();
    page.events.online();
    page.scheduler.runDue();
    assertAll(
        () -> assertEquals(1, page.sockets.opened.size(), "no second socket"),
        () -> assertEquals(List.of("hello"), node.kinds().subList(sent, node.sent.size())));
  }

  @Test
  void eventsAfterCloseDoNothing() {
    bothWaiting();
    page.client.close();
    page.events.online();
    page.events.visible();
    page.events.offline();
    page.scheduler.advance(60_000);
    assertAll(
        () -> assertEquals(1, page.sockets.opened.size(), "no socket opened"),
        () -> assertEquals(1, page.http.calls.size(), "no write sent"));
  }
}
