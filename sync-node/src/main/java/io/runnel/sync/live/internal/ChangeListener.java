package io.runnel.sync.live.internal;

import io.runnel.protocol.Position;
import io.runnel.replicator.ChangeEvent;
import java.util.List;
import java.util.Set;

/**
 * A second reader of the change stream the live windows read: the dispatcher hands it every committed transaction
 * once, in commit order, after its sequence and redelivery checks, and tells it of every bus gap the windows are
 * told of, so both see the same stream and the same gaps. Records channels read the stream this way
 * ({@code docs/channels.md}).
 *
 * <p>Every call runs on the dispatcher's single thread (a gap may also come from the transport's reconnect thread)
 * before the node's delivered position passes the transaction, so a {@code hello} answer's LSN covers the frames
 * the listener queued. A listener must not block; one that throws is logged and then told of a gap.
 */
public interface ChangeListener {

  /** Hears nothing. */
  ChangeListener NONE = new ChangeListener() {
    @Override
    public void transaction(List<ChangeEvent> changes, Position lsn) {}

    @Override
    public void oversized(Set<String> tables, Position lsn) {}

    @Override
    public void gap() {}
  };

  /**
   * One committed transaction, whole: its WAL changes in order (the record publisher's are not here).
   *
   * @param changes the changes, at most {@code 10,000}
   * @param lsn the transaction's position as frames spell it: its last change's
   */
  void transaction(List<ChangeEvent> changes, Position lsn);

  /**
   * One committed transaction too large to hold (more than 10,000 changes): only the tables it touched.
   *
   * @param tables the tables, {@code schema.table}
   * @param lsn its last change's LSN
   */
  void oversized(Set<String> tables, Position lsn);

  /** Changes were lost on the bus (a hole in a producer's sequence, a new producer, a reconnect). */
  void gap();
}
