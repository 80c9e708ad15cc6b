package io.runnel.replicator;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;

/**
 * The record publisher refused a batch before sending any of it ({@link ErrorCode#X_PUBLISH_REFUSED}): an entity it
 * does not publish, a row without its whole key, a column its entity lacks, or a value that does not fit its column.
 */
public final class PublishRefusedException extends RunnelException {

  private static final long serialVersionUID = 1L;

  /**
   * @param cause what was refused, naming the change's index in the batch, its entity and the column at fault
   * @param fix what to do
   */
  PublishRefusedException(String cause, String fix) {
    super(ErrorCode.X_PUBLISH_REFUSED, cause, fix);
  }
}
