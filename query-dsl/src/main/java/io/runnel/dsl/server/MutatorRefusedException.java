package io.runnel.dsl.server;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonObject;
import java.util.Objects;

/**
 * A mutator's own refusal (for example {@code X_POST_NOT_FOUND}), answered as 409 or 422 with the mutator's code,
 * and stored under the idempotency key like any answer ({@code docs/protocol.md}, "Idempotency").
 */
public final class MutatorRefusedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String code;
  private final int status;
  private final String cause;
  private final String fix;

  /**
   * @param code the app's code, {@code X_} then upper-case letters, digits and underscores, and none of Runnel's
   *     own ({@link ErrorCode}), so that a client never mistakes the app's refusal for Runnel's
   * @param status 409 (conflicts with the current state) or 422 (the input cannot be applied)
   * @param cause what happened
   * @param fix what the caller can do
   * @throws IllegalArgumentException for a malformed code, one of Runnel's codes, or another status
   */
  public MutatorRefusedException(String code, int status, String cause, String fix) {
    super(code + ": " + cause);
    this.code = Objects.requireNonNull(code, "code");
    this.cause = Objects.requireNonNull(cause, "cause");
    this.fix = Objects.requireNonNull(fix, "fix");
    if (!code.matches("X_[A-Z0-9_]+")) {
      throw new IllegalArgumentException("A mutator's code is X_ then upper-case letters, digits, underscores: "
          + code);
    }
    for (ErrorCode own : ErrorCode.values()) {
      if (own.name().equals(code)) {
        throw new IllegalArgumentException("A mutator's code must be its own, not Runnel's " + code
            + ": name the refusal, for example X_POST_NOT_FOUND");
      }
    }
    if (status != 409 && status != 422) {
      throw new IllegalArgumentException("A mutator refuses with 409 or 422, not " + status);
    }
    this.status = status;
  }

  /** The app's code. */
  public String code() {
    return code;
  }

  /** 409 or 422. */
  public int status() {
    return status;
  }

  /** What happened. */
  public String cause() {
    return cause;
  }

  /** What the caller can do. */
  public String fix() {
    return fix;
  }

  /** The refusal as the protocol's error body: {@code { "code", "cause", "fix" }}, sent with {@link #status()}. */
  public JsonObject toJson() {
    return JsonObject.builder()
        .put("code", code)
        .put("cause", cause)
        .put("fix", fix)
        .build();
  }
}
