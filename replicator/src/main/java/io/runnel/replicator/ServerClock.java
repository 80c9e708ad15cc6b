package io.runnel.replicator;

import io.runnel.protocol.Lsn;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * PostgreSQL's clock as the WAL position tells it: probes of {@code (pg_current_wal_insert_lsn(), clock_timestamp())}
 * taken on the replicator's lock connection, from which a position heartbeat learns the time through which it
 * holds every change.
 *
 * <p>Invariant: a probe says that at server time {@code T} every commit record was inserted below {@code I}; so once
 * the stream has read through {@code I}, every transaction that committed before {@code T} has been read, and
 * {@link #asOf} of that position is at least {@code T}. Never the other way: a position below a probe's {@code I}
 * does not take its time. Kept: the last {@link #KEPT} probes (a probe every 500 ms keeps the last 30 s).
 */
final class ServerClock {

  /** How many probes are kept. */
  static final int KEPT = 64;

  private record Probe(Lsn insert, long serverMillis) {}

  private final Deque<Probe> probes = new ArrayDeque<>();
  private long asOf;

  /** Records a probe: at {@code serverMillis} (epoch ms, the server's clock) the insert position was {@code insert}. */
  synchronized void probed(Lsn insert, long serverMillis) {
    probes.addLast(new Probe(insert, serverMillis));
    while (probes.size() > KEPT) {
      probes.removeFirst();
    }
  }

  /**
   * The latest server time (epoch ms) through which every commit is below {@code read}, the position the stream
   * has read through; 0 when no probe says. Never goes back.
   */
  synchronized long asOf(Lsn read) {
    while (!probes.isEmpty() && probes.peekFirst().insert().compareTo(read) <= 0) {
      asOf = Math.max(asOf, probes.removeFirst().serverMillis());
    }
    return asOf;
  }
}
