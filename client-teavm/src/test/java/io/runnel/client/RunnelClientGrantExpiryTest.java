package io.runnel.client;

import static io.runnel.client.Page.recorder;
import static io.runnel.client.fake.Node.BY_LIKES;
import static io.runnel.client.fake.Node.post;
import static io.runnel.client.fake.Node.snapshot;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.fake.CountingIds;
import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.FakeSockets;
import io.runnel.client.fake.MapStore;
import io.runnel.client.fake.RecordingHttp;
import io.runnel.client.live.LiveQuery;
import io.runnel.client.outbox.Credentials;
import io.runnel.client.port.Tabs;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A socket the node closes with 1008 because its grant expired ({@code docs/auth.md}, "Identity over time"): the
 * client reconnects after its backoff with a fresh ticket, asking the app for a fresh token when the node refuses the
 * expired one, and resumes its subscriptions on the new socket.
 */
class RunnelClientGrantExpiryTest {

  /** Tokens {@code t1}, {@code t2}, …: a refresh moves to the next. */
  private final List<Boolean> asked = new ArrayList<>();
  private final Credentials tokens = (refresh, done) -> {
    asked.add(refresh);
    done.accept("t" + (asked.stream().filter(r -> r).count() + 1));
  };
  private final Page page = new Page(new FakeScheduler(), new MapStore(), tokens, Tabs.alone(), new CountingIds());

  @Test
  void aSocketClosed1008ForAnExpiredGrantReconnectsWithAFreshTicketAndAFreshTokenAndResubscribes() {
    page.client.connect();
    LiveQuery list = page.client.query(BY_LIKES, "acme", recorder(new ArrayList<>()));
    page.http.last().answer(200, "{\"ticket\":\"k1\",\"expiresAt\":1}");
    FakeSockets.Socket first = page.online("u1", 1);
    first.receive(snapshot(list.sid(), 2, post("p1", "acme", "A", 5)));
    int callsBefore = page.http.calls.size();

    first.listener.closed(1008, "The grant expired and the authenticator cannot refresh it; reconnect.");
    page.scheduler.advance(375);
    RecordingHttp.Call stale = page.http.last();
    stale.answer(401, "{\"code\":\"X_SOCKET_UNAUTHENTICATED\",\"cause\":\"expired\",\"fix\":\"sign in\"}");
    RecordingHttp.Call fresh = page.http.last();
    fresh.answer(200, "{\"ticket\":\"k2\",\"expiresAt\":2}");
    FakeSockets.Socket second = page.online("u1", 3);
    List<String> resumed = new ArrayList<>();
    for (JsonObject f : second.frames()) {
      if (f.get("t") instanceof JsonString t && t.value().equals("sub")) {
        resumed.add(((JsonString) f.get("sid")).value());
      }
    }
    assertAll(
        () -> assertEquals(callsBefore + 2, page.http.calls.size(), "two ticket requests after the close"),
        () -> assertEquals("Bearer t1", stale.request.headers().get("Authorization"), "the cached token first"),
        () -> assertEquals("Bearer t2", fresh.request.headers().get("Authorization"), "then a refreshed one"),
        () -> assertTrue(second.url.endsWith("/v1/sync?ticket=k2"), second.url),
        () -> assertEquals(List.of(list.sid()), resumed, "the subscription is asked for again"));
  }
}
