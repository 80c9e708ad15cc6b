package io.runnel.client.live;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;

/** The node refused a frame of this client that names no subscription or topic ({@code refuse} with neither). */
public final class NodeRefusedException extends RunnelException {

  private static final long serialVersionUID = 1L;

  /**
   * The refusal as the node sent it.
   *
   * @param code the node's code; a code this client does not know is reported as {@code X_FRAME_INVALID}
   * @param cause the node's cause
   * @param fix the node's fix
   */
  public NodeRefusedException(String code, String cause, String fix) {
    super(known(code), cause, fix);
  }

  private static ErrorCode known(String code) {
    for (ErrorCode c : ErrorCode.values()) {
      if (c.name().equals(code)) {
        return c;
      }
    }
    return ErrorCode.X_FRAME_INVALID;
  }
}
