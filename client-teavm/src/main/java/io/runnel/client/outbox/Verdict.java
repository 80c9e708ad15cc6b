package io.runnel.client.outbox;

import io.runnel.client.port.HttpPort;
import io.runnel.client.port.JsonPort;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import org.jspecify.annotations.Nullable;

/**
 * What one call's outcome means, per {@code docs/protocol.md} ("Retry or refusal"): for a mutator call's outbox entry,
 * and for a channel's catch-up read. A 2xx applied it; a network failure, 401, 408, 409
 * {@code X_IDEMPOTENCY_IN_FLIGHT}, 429 and every 5xx mean "try again later (with the same key)"; every other answer
 * is a refusal.
 */
public sealed interface Verdict permits Verdict.Applied, Verdict.RetryLater, Verdict.Refused {

  /**
   * The node ran (or had run) the call.
   *
   * @param result the answer's {@code result}
   * @param write the write digest, or null when the body lacked it
   * @param lsn the answer's LSN, or null when the body lacked it
   * @param body the whole body, or null when it was not a JSON object (a read's answer is read from it)
   */
  record Applied(JsonValue result, @Nullable String write, @Nullable String lsn, @Nullable JsonObject body)
      implements Verdict {}

  /**
   * Try again later under the same key.
   *
   * @param retryAfterMillis the node's {@code Retry-After} in milliseconds, 0 when absent
   * @param unauthorized whether the node answered 401, so fresh credentials may help at once
   */
  record RetryLater(long retryAfterMillis, boolean unauthorized) implements Verdict {}

  /**
   * The node's answer is a refusal: the entry fails.
   *
   * @param error the answer's code, cause and fix
   */
  record Refused(MutationError error) implements Verdict {}

  /** Classifies {@code outcome}, reading bodies through {@code json}. */
  public static Verdict of(HttpPort.Outcome outcome, JsonPort json) {
    return switch (outcome) {
      case HttpPort.NetworkFailed failed -> new RetryLater(0, false);
      case HttpPort.Answered a -> of(a.status(), object(a.body(), json), a.retryAfterSeconds());
    };
  }

  /**
   * Classifies an answer of HTTP {@code status} with {@code body}.
   *
   * @param body the body, or null when it had none or was not a JSON object
   * @param retryAfterSeconds the {@code Retry-After} header in seconds, -1 when absent
   */
  static Verdict of(int status, @Nullable JsonObject body, long retryAfterSeconds) {
    long retryAfter = retryAfterSeconds > 0 ? retryAfterSeconds * 1000 : 0;
    if (status >= 200 && status < 300) {
      JsonValue result = body == null ? null : body.get("result");
      return new Applied(result == null ? JsonNull.NULL : result, text(body, "write"), text(body, "lsn"), body);
    }
    if (status == 401) {
      return new RetryLater(retryAfter, true);
    }
    if (status == 408 || status == 429 || status >= 500) {
      return new RetryLater(retryAfter, false);
    }
    MutationError error = error(status, body);
    if (status == 409 && error.is(ErrorCode.X_IDEMPOTENCY_IN_FLIGHT)) {
      return new RetryLater(retryAfter, false);
    }
    return new Refused(error);
  }

  /** The body's {@code { "code", "cause", "fix" }}, or a description of the bare status when it has none. */
  private static MutationError error(int answered, @Nullable JsonObject body) {
    String code = text(body, "code");
    String cause = text(body, "cause");
    String fix = text(body, "fix");
    int status = answered >= 100 && answered <= 599 ? answered : 500;
    if (code == null || code.isEmpty() || cause == null || fix == null) {
      return new MutationError("X_HTTP_" + status, status,
          "The node answered HTTP " + answered + " without an error body.",
          "Check the node's URL and any proxy in front of it.");
    }
    return new MutationError(code, status, cause, fix);
  }

  private static @Nullable JsonObject object(@Nullable String text, JsonPort json) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    try {
      return json.parse(text) instanceof JsonObject o ? o : null;
    } catch (RuntimeException notJson) {
      return null;
    }
  }

  private static @Nullable String text(@Nullable JsonObject body, String name) {
    return body != null && body.get(name) instanceof JsonString s ? s.value() : null;
  }
}
