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
   * Whether {@code other} shows the same as this state ({@link #equals}), compared field by field, so that a client
   * bundle does not link every record's {@code equals} ({@code docs/client.md}, "Sizes").
   */
  public boolean same(OutboxState other) {
    if (pending.size() != other.pending.size() || failed.size() != other.failed.size()) {
      return false;
    }
    for (int i = 0; i < pending.size(); i++) {
      PendingWrite a = pending.get(i);
      PendingWrite b = other.pending.get(i);
      if (!a.writeId().equals(b.writeId()) || !a.mutator().equals(b.mutator()) || a.createdAt() != b.createdAt()
          || a.sending() != b.sending()) {
        return false;
      }
    }
    for (int i = 0; i < failed.size(); i++) {
      FailedWrite a = failed.get(i);
      FailedWrite b = other.failed.get(i);
      MutationError x = a.error();
      MutationError y = b.error();
      if (!a.writeId().equals(b.writeId()) || !a.mutator().equals(b.mutator()) || !x.code().equals(y.code())
          || x.status() != y.status() || !x.cause().equals(y.cause()) || !x.fix().equals(y.fix())) {
        return false;
      }
    }
    return true;
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
