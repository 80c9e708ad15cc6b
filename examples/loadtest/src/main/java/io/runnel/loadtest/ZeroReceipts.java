package io.runnel.loadtest;

import java.util.Arrays;
import java.util.List;

/**
 * What scenario 7's Node clients ({@code clients.js}) hand back: their receipts file, one {@code <seq> <nanos>} line
 * for each row a client saw the first time, and the clock check of their {@code process.hrtime.bigint()} against
 * this JVM's {@link System#nanoTime()}.
 */
final class ZeroReceipts {

  private ZeroReceipts() {}

  /**
   * The receipts as flattened pairs (seq, receipt nanos), as {@link Receipts#result(List, long, long, long, long,
   * Receipts.Latency, Receipts.Latency)} takes them; blank lines are skipped.
   *
   * @throws IllegalArgumentException naming the line when one is not two integers
   */
  static long[] parse(List<String> lines) {
    long[] out = new long[lines.size() * 2];
    int n = 0;
    for (String line : lines) {
      String t = line.strip();
      if (t.isEmpty()) {
        continue;
      }
      String[] w = t.split(" ");
      if (w.length != 2) {
        throw new IllegalArgumentException("not a '<seq> <nanos>' receipt: " + line);
      }
      try {
        out[n++] = Long.parseLong(w[0]);
        out[n++] = Long.parseLong(w[1]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not a '<seq> <nanos>' receipt: " + line, e);
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** Whether another process's clock reading {@code other} lies within this JVM's readings around it. */
  static boolean within(long other, long before, long after) {
    return other - before >= 0 && after - other >= 0;
  }
}
