package io.runnel.sync;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Named counts many threads add to: what hostile clients sent, and what the node answered them. */
final class Tally {

  private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

  /** Adds {@code n} to {@code key}. */
  void add(String key, long n) {
    counts.computeIfAbsent(key, k -> new LongAdder()).add(n);
  }

  /** Adds 1 to {@code key}. */
  void add(String key) {
    add(key, 1);
  }

  /** The count of {@code key} (0 when never added). */
  long get(String key) {
    LongAdder a = counts.get(key);
    return a == null ? 0 : a.sum();
  }

  /** Every count whose key starts with {@code prefix}, by the rest of the key, sorted. */
  Map<String, Long> under(String prefix) {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((k, v) -> {
      if (k.startsWith(prefix)) {
        out.put(k.substring(prefix.length()), v.sum());
      }
    });
    return out;
  }

  @Override
  public String toString() {
    return under("").toString();
  }
}
