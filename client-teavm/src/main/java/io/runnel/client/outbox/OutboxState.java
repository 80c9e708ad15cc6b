package io.runnel.client.outbox;

import java.util.List;
import java.util.Objects;

/**
 * The outbox as a page shows it, for the current principal: the writes still waiting for an answer, in the order
 * they will be sent, and the writes that failed for good and have not been dismissed.
 *
 * @param pending waiting or being sent, oldest first
 * @param failed failed, oldest failure first
 */
public record OutboxState(List<PendingWrite> pending, List<FailedWrite> failed) {

  /** The empty outbox. */
  public static final OutboxState EMPTY = new OutboxState(List.of(), List.of());

  /** Copies the lists. */
  public OutboxState {
    pending = List.copyOf(pending);
    failed = List.copyOf(failed);
  }

  /**
   * A write waiting for its answer.
   *
   * @param writeId the write's id and idempotency key
   * @param mutator the mutator's name
   * @param createdAt epoch milliseconds of the call
   * @param sending whether a request for it is out now
   */
  public record PendingWrite(String writeId, String mutator, long createdAt, boolean sending) {
    /** Checks the parts. */
    public PendingWrite {
      Objects.requireNonNull(writeId, "writeId");
      Objects.requireNonNull(mutator, "mutator");
    }
  }

  /**
   * A write that failed for good; its overlay is gone.
   *
   * @param writeId the write's id and idempotency key
   * @param mutator the mutator's name
   * @param error why
   */
  public record FailedWrite(String writeId, String mutator, MutationError error) {
    /** Checks the parts. */
    public FailedWrite {
      Objects.requireNonNull(writeId, "writeId");
      Objects.requireNonNull(mutator, "mutator");
      Objects.requireNonNull(error, "error");
    }
  }
}
