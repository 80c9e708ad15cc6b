package io.runnel.sync.live.internal;

import io.runnel.sync.live.LiveStats;
import java.util.concurrent.atomic.AtomicLong;

/** The mutable counters of a live query registry, behind each {@link LiveStats} snapshot. */
final class LiveCounters {

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
