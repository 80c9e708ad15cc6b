package io.runnel.sync.live.internal;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;

/**
 * A live subscription refused or ended: an unknown or non-live query ({@code X_LIVE_QUERY_UNKNOWN}), a policy
 * ({@code X_FORBIDDEN}), tenancy ({@code X_TENANCY_ACTOR_MISMATCH}, {@code X_TENANCY_ACTOR_ORG_REQUIRED}), or a
 * shared read past its deadline ({@code X_TIMEOUT}).
 */
public final class LiveQueryException extends RunnelException {

  private static final long serialVersionUID = 1L;

  /**
   * @param code the refusal's code
   * @param cause what happened, naming the query, input field or tenant
   * @param fix what to do
   */
  public LiveQueryException(ErrorCode code, String cause, String fix) {
    super(code, cause, fix);
  }
}
