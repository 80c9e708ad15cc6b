package io.runnel.sync.live.internal;

import java.util.Arrays;

/**
 * A PostgreSQL MVCC snapshot as {@code pg_current_snapshot()} prints it ({@code xmin:xmax:xip,…}, 64-bit
 * {@code xid8} values), answering whether a transaction is visible in it.
 *
 * <p>pgoutput's Begin carries the 32-bit xid of the top-level transaction; it is widened against {@code xmax}'s
 * epoch, taking the nearest value within 2^31 (wraparound-aware). A transaction is
 * visible when its xid is below {@code xmin}, or below {@code xmax} and not in the in-progress list ("Snapshot
 * Information Functions" in the PostgreSQL manual).
 */
final class XidSnapshot {

  private final long xmin;
  private final long xmax;
  private final long[] inProgress;

  private XidSnapshot(long xmin, long xmax, long[] inProgress) {
    this.xmin = xmin;
    this.xmax = xmax;
    this.inProgress = inProgress;
  }

  /**
   * Parses {@code xmin:xmax:xip1,xip2,…}.
   *
   * @throws IllegalArgumentException when {@code text} is not in that form
   */
  static XidSnapshot parse(String text) {
    String[] parts = text.split(":", -1);
    if (parts.length != 3) {
      throw new IllegalArgumentException("Not a snapshot: '" + text + "'");
    }
    long[] xip = parts[2].isEmpty() ? new long[0]
        : Arrays.stream(parts[2].split(",")).mapToLong(Long::parseLong).sorted().toArray();
    return new XidSnapshot(Long.parseLong(parts[0]), Long.parseLong(parts[1]), xip);
  }

  /** Whether the transaction with 32-bit id {@code xid32} had committed, visibly, when this snapshot was taken. */
  boolean isVisible(long xid32) {
    long xid = widen(xid32 & 0xffffffffL);
    if (xid < xmin) {
      return true;
    }
    if (xid >= xmax) {
      return false;
    }
    return Arrays.binarySearch(inProgress, xid) < 0;
  }

  /** The 64-bit xid nearest {@code xmax} whose low 32 bits are {@code low}. */
  private long widen(long low) {
    long epoch = xmax >>> 32;
    long candidate = (epoch << 32) | low;
    long diff = candidate - xmax;
    if (diff > (1L << 31)) {
      candidate -= 1L << 32;
    } else if (diff < -(1L << 31)) {
      candidate += 1L << 32;
    }
    return candidate;
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder().append(xmin).append(':').append(xmax).append(':');
    for (int i = 0; i < inProgress.length; i++) {
      s.append(i == 0 ? "" : ",").append(inProgress[i]);
    }
    return s.toString();
  }
}
