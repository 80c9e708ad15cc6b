package io.runnel.loadtest;

import java.util.Arrays;

/**
 * Latency figures of one run: percentiles by nearest rank over every sample, and the parsing of the few fields a
 * benchmark client reads from a frame (without a JSON parser, so the client's own cost stays small).
 */
final class Latencies {

  private Latencies() {}

  /**
   * The {@code p}-th percentile of {@code samples} by nearest rank (the smallest sample with at least {@code p} %
   * of the samples at or below it); sorts {@code samples} in place.
   *
   * @param p in (0, 100]
   * @throws IllegalArgumentException when {@code samples} is empty or {@code p} is out of range
   */
  static long percentile(long[] samples, double p) {
    if (samples.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    if (!(p > 0 && p <= 100)) {
      throw new IllegalArgumentException("percentile " + p + " is not in (0, 100]");
    }
    Arrays.sort(samples);
    int rank = (int) Math.ceil(p / 100.0 * samples.length);
    return samples[Math.max(0, rank - 1)];
  }

  /**
   * The digits of the first {@code "<field>":"<digits>"} or {@code "<field>":<digits>} in {@code frame}, or -1 when
   * there is none.
   */
  static long number(CharSequence frame, String field) {
    String key = "\"" + field + "\":";
    int at = indexOf(frame, key);
    if (at < 0) {
      return -1;
    }
    int i = at + key.length();
    if (i < frame.length() && frame.charAt(i) == '"') {
      i++;
    }
    long n = 0;
    int start = i;
    while (i < frame.length() && Character.isDigit(frame.charAt(i))) {
      n = n * 10 + (frame.charAt(i) - '0');
      i++;
    }
    return i == start ? -1 : n;
  }

  private static int indexOf(CharSequence s, String key) {
    if (s instanceof String str) {
      return str.indexOf(key);
    }
    return s.toString().indexOf(key);
  }
}
