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
 * @param rowsDenied rows a row rule kept from a subscriber, counted per list built
 * @param gateFailures row rules that threw
 * @param resumesDelta subscribes with a cursor answered by replaying the ring
 * @param resumesSnapshot subscribes with a cursor answered by a snapshot
 * @param gaps bus gaps seen (a seq hole, a new producer, a reconnect), each re-reading every window
 * @param ringBytes the estimated bytes every window's patch ring holds
 */
public record LiveStats(int windows, long firstReads, long refills, long rereads, long deliveries,
    long leavingDeliveries, long partialEntries, long patches, long rowsDenied, long gateFailures,
    long resumesDelta, long resumesSnapshot, long gaps, long ringBytes) {

  /** The mutable counters behind a snapshot. */
  static final class Counters {
    final AtomicLong firstReads = new AtomicLong();
    final AtomicLong refills = new AtomicLong();
    final AtomicLong rereads = new AtomicLong();
    final AtomicLong deliveries = new AtomicLong();
    final AtomicLong leavingDeliveries = new AtomicLong();
    final AtomicLong partialEntries = new AtomicLong();
    final AtomicLong patches = new AtomicLong();
    final AtomicLong rowsDenied = new AtomicLong();
    final AtomicLong gateFailures = new AtomicLong();
    final AtomicLong resumesDelta = new AtomicLong();
    final AtomicLong resumesSnapshot = new AtomicLong();
    final AtomicLong gaps = new AtomicLong();

    LiveStats snapshot(int windows, long ringBytes) {
      return new LiveStats(windows, firstReads.get(), refills.get(), rereads.get(), deliveries.get(),
          leavingDeliveries.get(), partialEntries.get(), patches.get(), rowsDenied.get(), gateFailures.get(),
          resumesDelta.get(), resumesSnapshot.get(), gaps.get(), ringBytes);
    }
  }

  /** Every read: first reads, refills and re-reads. */
  public long reads() {
    return firstReads + refills + rereads;
  }
}
