package io.runnel.client.outbox;

import io.runnel.wire.JsonValue;
import java.util.Objects;

/** How a call to a mutator ended: the server applied it, or it failed for good. */
public sealed interface MutationOutcome permits MutationOutcome.Applied, MutationOutcome.Failed {

  /**
   * The node answered 200.
   *
   * @param result the answer's {@code result}, JSON null when it had none
   */
  record Applied(JsonValue result) implements MutationOutcome {
    /** Checks the result is present. */
    public Applied {
      Objects.requireNonNull(result, "result");
    }
  }

  /**
   * The node refused the call, or the outbox gave it up; its overlay is gone.
   *
   * @param error the code, cause and fix
   */
  record Failed(MutationError error) implements MutationOutcome {
    /** Checks the error is present. */
    public Failed {
      Objects.requireNonNull(error, "error");
    }
  }
}
