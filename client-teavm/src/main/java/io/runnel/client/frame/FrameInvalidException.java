package io.runnel.client.frame;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;

/** A node frame the client cannot read ({@code X_FRAME_INVALID}): reported, never fatal to the client. */
public final class FrameInvalidException extends RunnelException {

  private static final long serialVersionUID = 1L;

  /**
   * A frame refused for {@code cause}.
   *
   * @param cause what is wrong with the frame, naming the member
   */
  public FrameInvalidException(String cause) {
    super(ErrorCode.X_FRAME_INVALID, cause,
        "Check that the node and the client speak the same protocol version (docs/protocol.md, \"Socket frames\").");
  }
}
