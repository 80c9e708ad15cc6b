package io.runnel.loadtest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One fan-out measurement, parsed from a client JVM's {@code result} line ({@link SocketClients}), with the CPU
 * each side used over it.
 *
 * @param changes changes offered (-1 when the client did not write them)
 * @param periodNanos the writer's (or listener's) period, nanos
 * @param frames frames received
 * @param expected frames the clients should have received (-1 when unknown to the client)
 * @param chars characters of the frames received (ASCII: bytes)
 * @param p50 latency, nanos
 * @param p99 latency, nanos
 * @param max latency, nanos
 * @param belowZero frames received before the writer's clock read the commit (counted as 0)
 * @param spanNanos first to last receipt, nanos
 * @param sentP50 latency from the moment the writer sent the statement (an upper bound), nanos
 * @param sentP99 the same, p99
 * @param sentMax the same, max
 */
record FanoutResult(long changes, long periodNanos, long frames, long expected, long chars, long p50, long p99,
    long max, long belowZero, long spanNanos, long sentP50, long sentP99, long sentMax) {

  /** Parses {@code result …}. @throws IllegalArgumentException when it is no result line */
  static FanoutResult parse(String line) {
    String[] w = line.split(" ");
    if (w.length != 16 || !w[0].equals("result")) {
      throw new IllegalArgumentException("not a result line: " + line);
    }
    long[] n = new long[15];
    for (int i = 1; i < 16; i++) {
      n[i - 1] = Long.parseLong(w[i]);
    }
    return new FanoutResult(n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8], n[10] == 0 ? 0 : n[11] - n[10],
        n[12], n[13], n[14]);
  }

  /** Mean frame size, bytes. */
  double frameBytes() {
    return frames == 0 ? 0 : (double) chars / frames;
  }

  /** Frames received per second over the period (the writer's, from its first change to its last). */
  double framesPerSecond() {
    return frames / (Math.max(periodNanos, spanNanos) / 1e9);
  }

  /** Changes committed per second over the writer's period. */
  double changesPerSecond() {
    return changes / (periodNanos / 1e9);
  }

  static String ms(long nanos) {
    return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
  }

  /**
   * The cells of a fan-out table's row after its leading ones: committed changes/s, frames received / expected,
   * {@code framesPerSecond}, mean frame bytes, p50, p99, max, and p50 / p99 from the statement sent (ms).
   */
  List<String> cells(double framesPerSecond) {
    List<String> out = new ArrayList<>(List.of(String.format(Locale.ROOT, "%,.0f", changesPerSecond()),
        String.format(Locale.ROOT, "%,d / %,d", frames, expected), String.format(Locale.ROOT, "%,.0f",
        framesPerSecond), String.format(Locale.ROOT, "%.0f", frameBytes())));
    out.addAll(latencies());
    out.add(ms(sentP50) + " / " + ms(sentP99));
    return out;
  }

  /** The latency cells: p50, p99, max in ms. */
  List<String> latencies() {
    return List.of(ms(p50), ms(p99), ms(max));
  }
}
