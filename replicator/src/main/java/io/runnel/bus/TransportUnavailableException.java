package io.runnel.bus;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;

/** The bus is down or refused a publish ({@link ErrorCode#X_TRANSPORT_UNAVAILABLE}); nothing was accepted. */
public final class TransportUnavailableException extends RunnelException {

  private static final long serialVersionUID = 1L;

  /**
   * @param cause what happened, naming the subject or subscriber at fault
   * @param fix what to do
   */
  public TransportUnavailableException(String cause, String fix) {
    super(ErrorCode.X_TRANSPORT_UNAVAILABLE, cause, fix);
  }
}
