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

  /** An outbox entry older than the idempotency retention of {@code retentionMillis}: failed, never replayed. */
  static MutationError abandoned(String mutator, long ageMillis, long retentionMillis) {
    return new MutationError(ErrorCode.X_OFFLINE_QUEUE_ABANDONED.name(),
        ErrorCode.X_OFFLINE_QUEUE_ABANDONED.httpStatus(),
        "The call to '" + mutator + "' waited offline " + ageMillis / 1000 + " s, longer than the node keeps "
            + "idempotency keys (" + retentionMillis / 1000 + " s), so replaying it could run it twice.",
        "Check whether the change reached the server and make it again if not.");
  }

  /** A stored entry that cannot be read back (written by another version, or damaged). */
  static MutationError unreadable(String storeKey) {
    return new MutationError(ErrorCode.X_OFFLINE_QUEUE_ABANDONED.name(),
        ErrorCode.X_OFFLINE_QUEUE_ABANDONED.httpStatus(),
        "The queued write stored under '" + storeKey + "' could not be read back, so it was not replayed.",
        "Make the change again.");
  }
}
