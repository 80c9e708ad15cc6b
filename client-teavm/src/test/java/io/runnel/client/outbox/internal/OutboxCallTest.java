package io.runnel.client.outbox.internal;

import static io.runnel.client.outbox.internal.Page.DIGEST;
import static io.runnel.client.outbox.internal.Page.LSN;
import static io.runnel.client.outbox.internal.Page.key;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.client.bundle.WireJsonPort;
import io.runnel.client.fake.CountingIds;
import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.MapStore;
import io.runnel.client.fake.RecordingHttp;
import io.runnel.client.outbox.Mutation;
import io.runnel.client.outbox.MutationError;
import io.runnel.client.outbox.MutationOutcome;
import io.runnel.client.outbox.OutboxState;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One call to a mutator: the request, the overlay, and what each kind of answer does to the call. */
class OutboxCallTest {

  @Test
  void aCallRunsItsTwinThenPostsTheInputUnderItsKeyWithCredentials() {
    Page page = new Page().signedIn("ada");
    Mutation call = page.like("p1");
    RecordingHttp.Call sent = page.http.open();
    assertAll(
        () -> assertEquals(key(1), call.writeId(), "the write id is the key <mutator>:<uuid>"),
        () -> assertEquals(List.of("apply " + key(1) + " {\"postId\":\"p1\"}"), page.writes.log,
            "the twin ran into the overlay"),
        () -> assertEquals(List.of(key(1)), page.writes.sent, "the overlay was told it is sent"),
        () -> assertEquals("POST", sent.request.method(), "method"),
        () -> assertEquals("https://app.example/v1/mutate/likePost", sent.request.url(), "url"),
        () -> assertEquals(Map.of("Idempotency-Key", key(1), "Content-Type", "application/json",
            "Authorization", "Bearer t1"), sent.request.headers(), "headers"),
        () -> assertEquals("{\"input\":{\"postId\":\"p1\"}}", sent.request.body(), "body"),
        () -> assertEquals(List.of("put " + Page.stored("ada", 0, 1)), page.store.log,
            "the entry is stored before the request leaves"),
        () -> assertNull(call.outcome(), "pending until answered"),
        () -> assertTrue(page.state().pending().get(0).sending(), "the state shows it sending"));
  }

  @Test
  void aTwoHundredSettlesTheOverlayByDigestBeatsEarlyAndGivesTheResult() {
    Page page = new Page().signedIn("ada");
    Mutation call = page.like("p1");
    List<MutationOutcome> seen = new ArrayList<>();
    call.onSettled(seen::add);
    page.http.open().ok(DIGEST);
    assertAll(
        () -> assertEquals(List.of("apply " + key(1) + " {\"postId\":\"p1\"}",
            "answered " + key(1) + " " + DIGEST + " " + LSN), page.writes.log, "overlay told the answer"),
        () -> assertEquals(1, page.beats, "the live client was asked to beat early"),
        () -> assertEquals(List.of(new MutationOutcome.Applied(JsonObject.builder().put("ok", true).build())),
            seen, "the caller got the result once"),
        () -> assertEquals(Map.of(), page.store.map, "the entry left the durable store"),
        () -> assertEquals(OutboxState.EMPTY, page.state(), "nothing pending or failed"));
  }

  @Test
  void aCallByNameDecodesWithTheRegisteredCodecAndAnUnknownNameGoesOutWithoutOverlay() {
    Page page = new Page().signedIn("ada");
    page.outbox.mutate("likePost", JsonObject.builder().put("postId", "p1").build());
    page.http.open().ok(DIGEST);
    page.outbox.mutate("archive", JsonObject.builder().put("id", 7).build());
    assertAll(
        () -> assertThrows(InputInvalidException.class,
            () -> page.outbox.mutate("likePost", JsonObject.builder().put("post", "p1").build()),
            "the registered codec validates"),
        () -> assertEquals("apply archive:00000000-0000-0000-0000-000000000002 {\"id\":7} plain",
            page.writes.log.get(page.writes.log.size() - 1), "a name with no ref is tracked with no twin"),
        () -> assertEquals("https://app.example/v1/mutate/archive", page.http.open().request.url(), "sent"));
  }

  @Test
  void cookieModeSendsNoAuthorizationHeader() {
    FakeScheduler clock = new FakeScheduler(1_700_000_000_000L);
    RecordingHttp http = new RecordingHttp();
    Outbox outbox = Outbox.builder().baseUrl("https://app.example").http(http).store(new MapStore())
        .json(new WireJsonPort()).ids(new CountingIds()).scheduler(clock)
        .writes(new Fakes.RecordingWrites()).build();
    outbox.principal("ada");
    outbox.mutate(Page.LIKE, new Page.LikeInput("p1"));
    assertAll(
        () -> assertFalse(http.open().request.headers().containsKey("Authorization"), "the cookie identifies"),
        () -> assertEquals("https://app.example/v1/mutate/likePost", http.open().request.url(), "url"));
  }

  @Test
  void aMutatorsRefusalDropsTheOverlayAndSurfacesCodeCauseAndFix() {
    Page page = new Page().signedIn("ada");
    Mutation call = page.like("p1");
    page.http.open().refuse(409, "X_POST_NOT_FOUND");
    MutationError error = new MutationError("X_POST_NOT_FOUND", 409, "Post p1 does not exist.", "Reload.");
    assertAll(
        () -> assertEquals("dropped " + key(1), page.writes.log.get(1), "the overlay went at once"),
        () -> assertEquals(new MutationOutcome.Failed(error), call.outcome(), "the caller sees the refusal"),
        () -> assertEquals(List.of(new OutboxState.FailedWrite(key(1), "likePost", error)), page.state().failed(),
            "the state lists it as failed"),
        () -> assertEquals(Map.of(), page.store.map, "a failed entry is not kept"),
        () -> assertEquals(List.of(), page.clock.armed(), "no retry"));
    page.outbox.dismiss(key(1));
    assertEquals(OutboxState.EMPTY, page.state(), "dismissed");
  }

  @Test
  void aReusedKeyIsARefusal() {
    Page page = new Page().signedIn("ada");
    Mutation call = page.like("p1");
    page.http.open().refuse(422, "X_IDEMPOTENCY_KEY_REUSED");
    MutationOutcome.Failed failed = assertInstanceOf(MutationOutcome.Failed.class, call.outcome());
    assertEquals("X_IDEMPOTENCY_KEY_REUSED", failed.error().code(), "code surfaced");
  }

  @Test
  void eachRetryClassKeepsTheOverlayAndResendsTheSameKeyAfterBackoff() {
    Page page = new Page().signedIn("ada");
    Mutation call = page.like("p1");
    page.http.open().networkFails();
    page.clock.advance(999);
    assertEquals(1, page.http.calls.size(), "nothing before the first backoff of 1 s");
    page.clock.advance(1);
    page.http.open().answer(408, "");
    page.clock.advance(2_000);
    page.http.open().refuse(409, "X_IDEMPOTENCY_IN_FLIGHT");
    page.clock.advance(4_000);
    page.http.open().refuse(429, "X_SOCKET_LIMIT");
    page.clock.advance(8_000);
    page.http.open().answer(500, "{\"code\":\"X_INTERNAL\",\"cause\":\"c\",\"fix\":\"f\",\"errorId\":\"e1\"}");
    page.clock.advance(16_000);
    page.http.open().answer(503, "");
    page.clock.advance(30_000);
    page.http.open().ok(DIGEST);
    assertAll(
        () -> assertEquals(List.of(key(1), key(1), key(1), key(1), key(1), key(1), key(1)), page.http.keys(),
            "every retry under the original key, the backoff doubling to its 30 s cap"),
        () -> assertFalse(page.writes.log.contains("dropped " + key(1)), "the overlay stayed throughout"),
        () -> assertInstanceOf(MutationOutcome.Applied.class, call.outcome(), "settled in the end"));
  }

  @Test
  void retryAfterIsRespectedEvenWhenTheConnectionReturns() {
    Page page = new Page().signedIn("ada");
    page.online(1);
    page.like("p1");
    page.http.open().answer(503, "{\"code\":\"X_SOCKET_AUTH_UNAVAILABLE\",\"cause\":\"c\",\"fix\":\"f\"}", 10);
    page.offline(1);
    page.online(2);
    page.clock.advance(9_999);
    assertEquals(1, page.http.calls.size(), "no request before Retry-After");
    page.clock.advance(1);
    assertEquals(List.of(key(1), key(1)), page.http.keys(), "sent again at Retry-After, same key");
  }

  @Test
  void a401RefreshesTheCredentialsAndResendsAtOnceUnderTheSameKey() {
    Page page = new Page().signedIn("ada");
    Mutation call = page.like("p1");
    page.http.open().refuse(401, "X_SOCKET_UNAUTHENTICATED");
    RecordingHttp.Call again = page.http.open();
    assertAll(
        () -> assertEquals(1, page.credentials.refreshes, "the token was refreshed"),
        () -> assertEquals("Bearer t2", again.request.headers().get("Authorization"), "with the new token"),
        () -> assertEquals(key(1), again.key(), "the same key"));
    again.ok(DIGEST);
    assertInstanceOf(MutationOutcome.Applied.class, call.outcome(), "settled");
  }

  @Test
  void aSecond401InARowWaitsForTheBackoffInsteadOfLooping() {
    Page page = new Page().signedIn("ada");
    Mutation call = page.like("p1");
    page.http.open().refuse(401, "X_SOCKET_UNAUTHENTICATED");
    page.http.open().refuse(401, "X_SOCKET_UNAUTHENTICATED");
    assertAll(
        () -> assertEquals(2, page.http.calls.size(), "one refresh per attempt"),
        () -> assertEquals(List.of(1_000L), page.clock.armed(), "a retry timer"),
        () -> assertNull(call.outcome(), "still pending"),
        () -> assertEquals(List.of(key(1)), page.pendingIds(), "pending, not failed"));
  }

  @Test
  void retryNowCutsTheBackoffAfterANetworkFailureShort() {
    Page page = new Page().signedIn("ada");
    page.like("p1");
    page.http.open().networkFails();
    List<Long> armed = page.clock.armed();
    page.outbox.retryNow();
    assertAll(
        () -> assertEquals(List.of(1_000L), armed, "the backoff was armed"),
        () -> assertEquals(List.of(key(1), key(1)), page.http.keys(), "sent again at once, under its key"),
        () -> assertEquals(List.of(), page.clock.armed(), "the backoff's timer was called off"));
  }

  @Test
  void retryNowNeverGoesBeforeANodesRetryAfterNorCutsTheBackoffAfterAServerError() {
    Page page = new Page().signedIn("ada");
    page.like("p1");
    page.http.open().answer(429, "", 30);
    page.outbox.retryNow();
    int afterRetryAfter = page.http.calls.size();
    page.clock.advance(30_000);
    page.http.open().answer(503, "");
    page.outbox.retryNow();
    int afterServerError = page.http.calls.size();
    page.clock.advance(2_000);
    assertAll(
        () -> assertEquals(1, afterRetryAfter, "the node asked for 30 s"),
        () -> assertEquals(2, afterServerError, "a 503 backs off: the network being back does not change that"),
        () -> assertEquals(3, page.http.calls.size(), "the backoff's own timer still sends it"));
  }

  @Test
  void retryNowWithNothingWaitingSendsNothing() {
    Page page = new Page().signedIn("ada");
    page.like("p1");
    page.outbox.retryNow();
    assertEquals(1, page.http.calls.size(), "the request in flight is not doubled");
  }
}
