package io.runnel.sync.live.internal;

import io.runnel.protocol.Cursor;
import io.runnel.protocol.Op;
import io.runnel.protocol.WireRecord;
import io.runnel.wire.RunnelException;
import java.util.List;

/**
 * Where a live subscription's frames go: the socket server implements it (one per socket, frames tagged with the
 * subscription's {@code sid}); tests record them. Calls for one subscription come in order, from the window's
 * lane; an implementation must not block (queue the frame and return).
 */
public interface LiveSubscriber {

  /** A {@code snapshot}: the subscription's whole list, in query order. */
  void snapshot(String sid, List<WireRecord> records, Cursor cursor);

  /**
   * A {@code patch}: one committed transaction's visible effect on the list.
   *
   * @param writes the write digests whose visible changes the ops carry
   */
  void patch(String sid, List<Op> ops, List<String> writes, Cursor cursor);

  /** A {@code refuse}: the subscription failed after it was accepted (for example {@code X_TIMEOUT}) and ended. */
  void refuse(String sid, RunnelException error);
}
