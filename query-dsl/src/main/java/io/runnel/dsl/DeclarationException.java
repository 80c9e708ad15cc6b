package io.runnel.dsl;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;

/**
 * A declaration Runnel refuses: a malformed entity, query, select, mutator or channel, a missing policy or a
 * duplicate name. Thrown while the app builds its declarations, so a bad app stops at boot, not at the first
 * request.
 */
public final class DeclarationException extends RunnelException {

  private static final long serialVersionUID = 1L;

  /**
   * @param code one of the {@code X_…_DECLARATION_INVALID} codes, {@code X_MUTATOR_NOT_IDEMPOTENT} or
   *     {@code X_DECLARATION_DUPLICATE}
   * @param cause what is wrong, naming the declaration and the field
   * @param fix what to change
   */
  public DeclarationException(ErrorCode code, String cause, String fix) {
    super(code, cause, fix);
  }
}
