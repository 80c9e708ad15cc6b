package io.runnel.loadtest;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** What a client JVM's sockets received, turned into latency figures ({@link SocketClients}). */
final class Receipts {

  private Receipts() {}

  /** Logs p50/p99/max of each second of the writer's period (by commit time), for the log only. */
  static void bySecond(List<ClientSocket> sockets, long[] committed, long t0, long base, Latency latency) {
    int secondsLong = (int) ((committed[committed.length - 1] - t0) / 1_000_000_000L) + 1;
    List<List<Long>> buckets = new ArrayList<>();
    for (int i = 0; i < secondsLong; i++) {
      buckets.add(new ArrayList<>());
    }
    for (ClientSocket s : sockets) {
      long[] p = s.peek();
      for (int i = 0; i < p.length; i += 2) {
        long l = latency.of(p[i], p[i + 1]);
        long index = p[i] - base;
        if (l != Long.MIN_VALUE) {
          buckets.get((int) ((committed[(int) index] - t0) / 1_000_000_000L)).add(Math.max(0, l));
        }
      }
    }
    for (int i = 0; i < secondsLong; i++) {
      long[] b = buckets.get(i).stream().mapToLong(Long::longValue).toArray();
      if (b.length > 0) {
        System.out.printf(Locale.ROOT, "log second %d: %d frames, p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", i,
            b.length, Latencies.percentile(b, 50) / 1e6, Latencies.percentile(b, 99) / 1e6, b[b.length - 1] / 1e6);
      }
    }
  }

  /** How a frame's number and receipt become a latency, nanos; {@link Long#MIN_VALUE} for a stray frame. */
  interface Latency {
    long of(long number, long receipt);
  }

  /**
   * {@code result <changes> <period nanos> <frames> <expected frames> <frame chars> <p50> <p99> <max> <below zero>
   * <strays> <first receipt> <last receipt> <p50> <p99> <max>}, latencies in nanos, the last three by
   * {@code bound} (for the writer: from the moment the statement was sent, an upper bound).
   */
  static String result(List<ClientSocket> sockets, long changes, long periodNanos, long expected, Latency latency,
      Latency bound) {
    List<long[]> all = new ArrayList<>();
    long chars = 0;
    for (ClientSocket s : sockets) {
      all.add(s.drain());
      chars += s.drainChars();
    }
    return result(all, chars, changes, periodNanos, expected, latency, bound);
  }

  /**
   * The same line from receipts recorded elsewhere (scenario 7's Node clients): {@code all} holds flattened pairs
   * (number, receipt nanos), {@code chars} the characters received (0 when unknown).
   */
  static String result(List<long[]> all, long chars, long changes, long periodNanos, long expected, Latency latency,
      Latency bound) {
    long frames = 0;
    for (long[] p : all) {
      frames += p.length / 2;
    }
    long[] lat = new long[(int) frames];
    long[] upper = new long[(int) frames];
    int n = 0;
    long negative = 0;
    long strays = 0;
    long firstReceipt = Long.MAX_VALUE;
    long lastReceipt = Long.MIN_VALUE;
    for (long[] p : all) {
      for (int i = 0; i < p.length; i += 2) {
        long l = latency.of(p[i], p[i + 1]);
        if (l == Long.MIN_VALUE || p[i] < 0) {
          strays++;
          continue;
        }
        firstReceipt = Math.min(firstReceipt, p[i + 1]);
        lastReceipt = Math.max(lastReceipt, p[i + 1]);
        if (l < 0) {
          negative++;
          l = 0;
        }
        upper[n] = Math.max(0, bound.of(p[i], p[i + 1]));
        lat[n++] = l;
      }
    }
    long[] samples = Arrays.copyOf(lat, n);
    long p50 = n == 0 ? -1 : Latencies.percentile(samples, 50);
    long p99 = n == 0 ? -1 : Latencies.percentile(samples, 99);
    long max = n == 0 ? -1 : samples[n - 1];
    long[] ub = Arrays.copyOf(upper, n);
    long u50 = n == 0 ? -1 : Latencies.percentile(ub, 50);
    long u99 = n == 0 ? -1 : Latencies.percentile(ub, 99);
    long umax = n == 0 ? -1 : ub[n - 1];
    return String.format(Locale.ROOT, "result %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d", changes, periodNanos,
        frames, expected, chars, p50, p99, max, negative, strays, n == 0 ? 0 : firstReceipt, n == 0 ? 0 : lastReceipt,
        u50, u99, umax);
  }
}
