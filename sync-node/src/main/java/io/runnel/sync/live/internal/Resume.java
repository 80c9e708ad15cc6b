package io.runnel.sync.live.internal;

/**
 * How a subscribe with a cursor is answered ({@code docs/protocol.md}, "Windows, policy and resume"): a delta out of
 * the window's ring, or one snapshot.
 */
sealed interface Resume permits Resume.Delta, Resume.Snapshot {

  /** Replay the ring after the cursor, re-filtered for the subscriber: patches only, no read. */
  record Delta(PatchRing.Replay replay) implements Resume {}

  /**
   * Answer with one snapshot: the window is new (no ring yet) or was re-read since the cursor, the cursor is older
   * than {@code maxLagMs}, its position is below the ring's floor, not one the ring knows or a floor two list states
   * shared, or replaying would cost more than a snapshot.
   */
  record Snapshot() implements Resume {}
}
