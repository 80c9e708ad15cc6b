package io.runnel.sync.live;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of a live query registry, for metrics and tests.
 *
 * @param windows windows open now
 * @param firstReads reads that created a window
 * @param refills bounded reads after rows left a window whose held rows fell below its limit, or after a row
 *     entered without all its columns
 * @param rereads reads after a failure, a transaction a window joined in the middle, or one too large to hold
 * @param deliveries transactions handed to windows (one per window and transaction)
 * @param leavingDeliveries deliveries in which a held row left the window
 * @param partialEntries deliveries in which a row would have entered without all its columns
 * @param patches patch frames sent
 */
public record LiveStats(int windows, long firstReads, long refills, long rereads, long deliveries,
    long leavingDeliveries, long partialEntries, long patches) {

  /** The mutable counters behind a snapshot. */
  static final class Counters {
    final AtomicLong firstReads = new AtomicLong();
    final AtomicLong refills = new AtomicLong();
    final AtomicLong rereads = new AtomicLong();
    final AtomicLong deliveries = new AtomicLong();
    final AtomicLong leavingDeliveries = new AtomicLong();
    final AtomicLong partialEntries = new AtomicLong();
    final AtomicLong patches = new AtomicLong();

    LiveStats snapshot(int windows) {
      return new LiveStats(windows, firstReads.get(), refills.get(), rereads.get(), deliveries.get(),
          leavingDeliveries.get(), partialEntries.get(), patches.get());
    }
  }

  /** Every read: first reads, refills and re-reads. */
  public long reads() {
    return firstReads + refills + rereads;
  }
}
