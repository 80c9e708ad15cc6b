package io.runnel.client.outbox;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;

/**
 * The durable store refused a write (its quota is full): the call is still kept and sent by this page, but a
 * reload before it is answered would lose it.
 */
public final class StoreRefusedException extends RunnelException {

  private static final long serialVersionUID = 1L;

  /**
   * The store refused to keep {@code key}.
   *
   * @param key the durable-store key that was not written
   */
  public StoreRefusedException(String key) {
    super(ErrorCode.X_INTERNAL, "The durable store refused to keep '" + key + "' (its quota is probably full), so "
        + "a reload now would lose it.", "Free space in the page's storage, or keep the page open until the outbox "
        + "is empty.");
  }
}
