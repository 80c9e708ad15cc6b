package io.runnel.client.outbox;

import io.runnel.wire.ErrorCode;
import java.util.Objects;

/**
 * Why a write failed, as the node's error body spells it ({@code { "code", "cause", "fix" }}) or as the client
 * decided ({@code X_OFFLINE_QUEUE_ABANDONED}). The code may be a mutator's own ({@code X_POST_NOT_FOUND}), so it is
 * text, not an {@link ErrorCode}.
 *
 * @param code the error code, {@code X_…}
 * @param status the HTTP status it came with ({@code 410} for an abandoned entry)
 * @param cause what happened, for a person
 * @param fix what to do about it
 */
public record MutationError(String code, int status, String cause, String fix) {

  /** Checks the parts: a non-empty code and a status from 100 to 599. */
  public MutationError {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(cause, "cause");
    Objects.requireNonNull(fix, "fix");
    if (code.isEmpty()) {
      throw new IllegalArgumentException("An error code is never empty");
    }
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("Not an HTTP status: " + status);
    }
  }

  /** Whether this error carries {@code code}. */
  public boolean is(ErrorCode code) {
    return this.code.equals(code.name());
  }
}
