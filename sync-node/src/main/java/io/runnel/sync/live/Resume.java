package io.runnel.sync.live;

/**
 * How a subscribe with a cursor is answered ({@code PROTOCOL.md}, "Windows, policy and resume"): a delta out of
 * the window's ring, or one snapshot, and why.
 */
sealed interface Resume permits Resume.Delta, Resume.Snapshot {

  /** Replay the ring after the cursor, re-filtered for the subscriber: patches only, no read. */
  record Delta(PatchRing.Replay replay) implements Resume {}

  /** Answer with one snapshot, for {@code reason}. */
  record Snapshot(Reason reason) implements Resume {}

  /** Why a resume falls back to a snapshot. */
  enum Reason {
    /** The cursor is of another query, input or tenant. */
    OTHER_WINDOW,
    /** The window is new (no ring yet), or was re-read since the cursor. */
    WINDOW_NEW,
    /**
     * The cursor's position is below the ring's floor, not a position the ring knows, or a floor that two list
     * states shared.
     */
    BELOW_FLOOR,
    /** The cursor is older than {@code maxLagMs}. */
    TOO_OLD,
    /** Replaying would cost more than a snapshot. */
    TOO_COSTLY
  }
}
