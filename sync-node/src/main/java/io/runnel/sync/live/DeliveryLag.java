package io.runnel.sync.live;

import java.time.Clock;
import java.util.OptionalLong;

/**
 * How late the last transaction reached this node's windows: the node's clock when the dispatcher handed it out,
 * minus its commit time (the replicator's {@code commitTime}, PostgreSQL's clock), in milliseconds, never below 0
 * (the two clocks may disagree a little). It is measured when a transaction arrives and kept until the next one, so
 * an idle database does not look like a node falling behind; a bus that stops delivering shows as the bus being down
 * ({@code /readyz}) or as the replicator's lag, not here.
 */
final class DeliveryLag {

  private final Clock clock;
  private volatile long lagMillis = -1;

  DeliveryLag(Clock clock) {
    this.clock = clock;
  }

  /** A transaction committed at {@code commitTimeMillis} (epoch ms; 0 when unknown, which is not counted) arrived. */
  void arrived(long commitTimeMillis) {
    if (commitTimeMillis <= 0) {
      return;
    }
    lagMillis = Math.max(0, clock.millis() - commitTimeMillis);
  }

  /** The lag of the last transaction, in ms; empty before the first. */
  OptionalLong lagMillis() {
    long l = lagMillis;
    return l < 0 ? OptionalLong.empty() : OptionalLong.of(l);
  }
}
