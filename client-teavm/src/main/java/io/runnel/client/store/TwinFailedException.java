package io.runnel.client.store;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;

/**
 * A mutator's local twin threw while the overlay was replayed: that write shows nothing until it settles (the
 * server's answer is what counts), and the error is reported.
 */
public final class TwinFailedException extends RunnelException {

  private static final long serialVersionUID = 1L;

  /**
   * The twin of {@code mutator} failed for write {@code writeId}.
   *
   * @param mutator the mutator's name
   * @param writeId the write
   * @param underlying what the twin threw
   */
  public TwinFailedException(String mutator, String writeId, RuntimeException underlying) {
    super(ErrorCode.X_INTERNAL, "The local twin of '" + mutator + "' threw on write '" + writeId + "': "
        + underlying.getMessage(), "Make the twin pure and total: read through LocalTx and check for missing records.",
        underlying);
  }
}
