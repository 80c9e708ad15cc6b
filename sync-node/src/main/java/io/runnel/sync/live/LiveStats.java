package io.runnel.sync.live;

/**
 * The counters of a node's live windows at one moment, as its metrics read them.
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

  /** Every read: first reads, refills and re-reads. */
  public long reads() {
    return firstReads + refills + rereads;
  }
}
