package io.runnel.client.outbox;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.runnel.client.bundle.WireJsonPort;
import io.runnel.client.port.HttpPort;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonObject;
import org.junit.jupiter.api.Test;

/** Every status class of {@code docs/protocol.md} "Retry or refusal", as the outbox reads it. */
class VerdictTest {

  private static final WireJsonPort JSON = new WireJsonPort();

  private static Verdict answer(int status, String body) {
    return Verdict.of(new HttpPort.Answered(status, body, -1), JSON);
  }

  private static String error(String code) {
    return "{\"code\":\"" + code + "\",\"cause\":\"c\",\"fix\":\"f\"}";
  }

  @Test
  void aTwoHundredCarriesTheResultDigestAndLsn() {
    Verdict.Applied a = assertInstanceOf(Verdict.Applied.class,
        answer(200, "{\"result\":{\"liked\":true},\"write\":\"ab\",\"lsn\":\"00\"}"));
    assertAll(
        () -> assertEquals(JsonObject.builder().put("liked", true).build(), a.result(), "result"),
        () -> assertEquals("ab", a.write(), "write digest"),
        () -> assertEquals("00", a.lsn(), "lsn"));
  }

  @Test
  void aTwoHundredWithoutABodyIsStillApplied() {
    Verdict.Applied a = assertInstanceOf(Verdict.Applied.class, answer(200, "not json"));
    assertAll(
        () -> assertEquals(JsonNull.NULL, a.result(), "result"),
        () -> assertNull(a.write(), "no digest to settle by"));
  }

  @Test
  void networkFailure401408InFlight429AndEvery5xxAreRetriesUnderTheSameKey() {
    assertAll(
        () -> assertEquals(new Verdict.RetryLater(0, false),
            Verdict.of(new HttpPort.NetworkFailed("offline"), JSON), "network failure"),
        () -> assertEquals(new Verdict.RetryLater(0, true), answer(401, error("X_SOCKET_UNAUTHENTICATED")),
            "401 asks for fresh credentials"),
        () -> assertEquals(new Verdict.RetryLater(0, false), answer(408, ""), "408"),
        () -> assertEquals(new Verdict.RetryLater(1_000, false),
            Verdict.of(new HttpPort.Answered(409, error("X_IDEMPOTENCY_IN_FLIGHT"), 1), JSON),
            "409 in flight, with Retry-After in ms"),
        () -> assertEquals(new Verdict.RetryLater(0, false), answer(429, error("X_SOCKET_LIMIT")), "429"),
        () -> assertEquals(new Verdict.RetryLater(0, false), answer(500, error("X_INTERNAL")), "500"),
        () -> assertEquals(new Verdict.RetryLater(5_000, false),
            Verdict.of(new HttpPort.Answered(503, "", 5), JSON), "503 with Retry-After"),
        () -> assertEquals(new Verdict.RetryLater(0, false), answer(504, error("X_TIMEOUT")), "504"));
  }

  @Test
  void everyOther4xxIsARefusalWithTheNodesCodeCauseAndFix() {
    assertAll(
        () -> assertEquals(new Verdict.Refused(new MutationError("X_POST_NOT_FOUND", 409, "c", "f")),
            answer(409, error("X_POST_NOT_FOUND")), "the mutator's own 409"),
        () -> assertEquals(new Verdict.Refused(new MutationError("X_TITLE_EMPTY", 422, "c", "f")),
            answer(422, error("X_TITLE_EMPTY")), "the mutator's own 422"),
        () -> assertEquals(new Verdict.Refused(new MutationError("X_IDEMPOTENCY_KEY_REUSED", 422, "c", "f")),
            answer(422, error("X_IDEMPOTENCY_KEY_REUSED")), "a reused key"),
        () -> assertEquals(new Verdict.Refused(new MutationError("X_FORBIDDEN", 403, "c", "f")),
            answer(403, error("X_FORBIDDEN")), "403"),
        () -> assertEquals(new Verdict.Refused(new MutationError("X_MUTATOR_UNKNOWN", 404, "c", "f")),
            answer(404, error("X_MUTATOR_UNKNOWN")), "404"),
        () -> assertEquals("X_HTTP_404", assertInstanceOf(Verdict.Refused.class, answer(404, "<html>")).error()
            .code(), "a bare status is named by its number"));
  }
}
