package io.runnel.client;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.runnel.client.bundle.WireJsonPort;
import io.runnel.client.fake.RecordingHttp;
import io.runnel.client.outbox.Credentials;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The socket's URL from the node's origin: plain in cookie mode, with a checked ticket for a bearer token. */
class TicketEndpointTest {

  private final RecordingHttp http = new RecordingHttp();
  private final List<String> urls = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();

  private void ask(String origin, Credentials credentials) {
    new TicketEndpoint(origin, credentials, http, new WireJsonPort()).url(urls::add, failures::add);
  }

  @Test
  void theSocketOriginFollowsTheSchemeAndAnythingElseIsRefused() {
    ask("http://localhost:8080/", Credentials.cookie());
    assertAll(
        () -> assertEquals(List.of("ws://localhost:8080/v1/sync"), urls, "a trailing slash is dropped"),
        () -> assertEquals("wss://app.example", TicketEndpoint.socketOrigin("https://app.example")),
        () -> assertThrows(IllegalArgumentException.class, () -> TicketEndpoint.socketOrigin("ftp://app.example")));
  }

  @Test
  void aTicketAnswerThatIsNotJsonHasNoTicketOrATicketThatNeedsEscapingIsAFailureNotAUrl() {
    for (String body : List.of("not json", "{\"expiresAt\":1}", "{\"ticket\":\"a b&c\"}", "{\"ticket\":\"\"}")) {
      ask("https://app.example", Credentials.bearer("tok"));
      http.last().answer(200, body);
    }
    ask("https://app.example", Credentials.bearer("tok"));
    http.last().networkFails();
    assertAll(
        () -> assertEquals(List.of(), urls, "no socket without a usable ticket"),
        () -> assertEquals(5, failures.size()),
        () -> assertEquals("No ticket: offline", failures.get(4)));
  }

  @Test
  void aTicketRefusedWith401AsksTheCredentialsForAFreshTokenAndTriesOnceMore() {
    List<Boolean> refreshes = new ArrayList<>();
    ask("https://app.example", (refresh, done) -> {
      refreshes.add(refresh);
      done.accept(refresh ? "fresh" : "stale");
    });
    RecordingHttp.Call first = http.last();
    first.answer(401, "{\"code\":\"X_UNAUTHENTICATED\",\"cause\":\"expired\",\"fix\":\"sign in\"}");
    RecordingHttp.Call second = http.last();
    second.answer(200, "{\"ticket\":\"t.1\",\"expiresAt\":1}");
    assertAll(
        () -> assertEquals(List.of(false, true), refreshes, "the cached token first, then a refreshed one"),
        () -> assertEquals("Bearer stale", first.request.headers().get("Authorization")),
        () -> assertEquals("Bearer fresh", second.request.headers().get("Authorization"), "the retry carries it"),
        () -> assertEquals(List.of("wss://app.example/v1/sync?ticket=t.1"), urls, "the retry's ticket is used"),
        () -> assertEquals(List.of(), failures, "no failure, so no backoff"));
  }

  @Test
  void aSecond401AfterTheRefreshIsAFailureAndNoThirdTicketIsAskedFor() {
    ask("https://app.example", Credentials.bearer("tok"));
    http.last().answer(401, "{}");
    http.last().answer(401, "{}");
    assertAll(
        () -> assertEquals(2, http.calls.size(), "one retry only"),
        () -> assertEquals(List.of("No ticket: the node answered 401"), failures, "then the client backs off"),
        () -> assertEquals(List.of(), urls));
  }

  @Test
  void aTicketRefusedForAnotherReasonIsNotRetried() {
    ask("https://app.example", Credentials.bearer("tok"));
    http.last().answer(403, "{}");
    assertAll(
        () -> assertEquals(1, http.calls.size(), "only a 401 asks for a fresh token"),
        () -> assertEquals(List.of("No ticket: the node answered 403"), failures));
  }
}
