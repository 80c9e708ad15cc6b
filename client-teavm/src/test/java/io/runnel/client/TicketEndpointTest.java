package io.runnel.client;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.runnel.client.fake.JvmJson;
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
    new TicketEndpoint(origin, credentials, http, new JvmJson()).url(urls::add, failures::add);
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
}
