package io.runnel.client.store;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import org.jspecify.annotations.Nullable;

/**
 * A structurally bad record ({@code X_RECORD_REJECTED}): an unknown type, a row that does not fit its entity, or a
 * key that is not the row's key. The record is dropped whole and reported; the store keeps what it had.
 */
public final class RecordRejectedException extends RunnelException {

  private static final long serialVersionUID = 1L;

  /**
   * A record refused for {@code cause}.
   *
   * @param cause what is wrong with it, naming the record
   * @param underlying the decoding error, or null
   */
  public RecordRejectedException(String cause, @Nullable Throwable underlying) {
    super(ErrorCode.X_RECORD_REJECTED, cause,
        "Deploy the same entity declarations to the node and to the client bundle.", underlying);
  }
}
