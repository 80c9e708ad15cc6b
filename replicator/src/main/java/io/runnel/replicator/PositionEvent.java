package io.runnel.replicator;

import io.runnel.protocol.Lsn;
import io.runnel.protocol.Position;
import java.util.Objects;

/**
 * The replicator's position heartbeat: every change whose commit LSN is below {@code through} was published on the
 * bus, by this producer, before this message ({@code docs/protocol.md}, "Bus envelope"). The replicator sends one
 * when its stream is idle and the server reported a position past the last one it sent, so a consumer learns how
 * far the WAL has been read even when the transactions there changed no published table.
 *
 * @param through the position; spelled as a protocol LSN it is the point {@link #point()}, which sorts before
 *     every row of a transaction that commits at {@code through}
 * @param producer the publishing process's id
 * @param seq this producer's message count (changes and positions alike), from 1
 * @param at PostgreSQL's time (epoch ms) through which every change is below {@code through}: every transaction
 *     that committed before it is on the bus; 0 when the replicator does not know it yet
 */
public record PositionEvent(Lsn through, String producer, long seq, long at) implements BusMessage {

  /**
   * Checks every part.
   *
   * @throws IllegalArgumentException for the position {@code 0/0} (no position), a {@code seq} below 1 or a
   *     negative {@code at}
   */
  public PositionEvent {
    Objects.requireNonNull(through, "through");
    Objects.requireNonNull(producer, "producer");
    if (through.equals(Lsn.ZERO)) {
      throw new IllegalArgumentException("A position heartbeat names a WAL position above 0/0");
    }
    if (producer.isEmpty()) {
      throw new IllegalArgumentException("A position heartbeat names its producer");
    }
    if (seq < 1) {
      throw new IllegalArgumentException("seq counts from 1, not " + seq);
    }
    if (at < 0) {
      throw new IllegalArgumentException("at is epoch milliseconds or 0 (unknown), not " + at);
    }
  }

  /** The position as a protocol point (row 0: {@code <16 hex>00000000} on the wire). */
  public Position point() {
    return through.point();
  }
}
