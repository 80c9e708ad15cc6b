package io.runnel.replicator;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;

/** Logical replication cannot run or stopped ({@link ErrorCode#X_REPLICATION_FAILED}); the fix names what to do. */
public final class ReplicationException extends RunnelException {

  private static final long serialVersionUID = 1L;

  /**
   * @param cause what happened
   * @param fix what to do, with the SQL or setting to change where there is one
   */
  public ReplicationException(String cause, String fix) {
    super(ErrorCode.X_REPLICATION_FAILED, cause, fix);
  }

  /** The same, keeping the underlying exception. */
  public ReplicationException(String cause, String fix, Throwable underlying) {
    super(ErrorCode.X_REPLICATION_FAILED, cause, fix, underlying);
  }
}
