package io.runnel.sync.socket.internal;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;

/** A refusal of the sync node's own: a socket's identity, a frame it cannot take, a topic, a version. */
final class NodeException extends RunnelException {

  private static final long serialVersionUID = 1L;

  NodeException(ErrorCode code, String cause, String fix) {
    super(code, cause, fix);
  }
}
