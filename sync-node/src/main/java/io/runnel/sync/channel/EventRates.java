package io.runnel.sync.channel;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Event rates per sender: a token bucket each ({@code rate} tokens a second, at most {@code burst}), created full on
 * a sender's first event and dropped by {@link #sweep} once full again, so the map holds only recent senders.
 */
final class EventRates {

  private static final class Bucket {
    double tokens;
    long at;

    Bucket(double tokens, long at) {
      this.tokens = tokens;
      this.at = at;
    }
  }

  private final double perMilli;
  private final int burst;
  private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

  EventRates(double perSecond, int burst) {
    this.perMilli = perSecond / 1000;
    this.burst = burst;
  }

  /**
   * Takes one token of {@code sender}'s bucket at {@code now} (epoch ms).
   *
   * @return 0 when taken, else the milliseconds until a token is there (nothing was taken)
   */
  long take(String sender, long now) {
    Bucket b = buckets.computeIfAbsent(sender, k -> new Bucket(burst, now));
    synchronized (b) {
      refill(b, now);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      return Math.max(1, (long) Math.ceil((1 - b.tokens) / perMilli));
    }
  }

  /** Forgets the senders whose buckets are full at {@code now}. */
  void sweep(long now) {
    buckets.values().removeIf(b -> {
      synchronized (b) {
        refill(b, now);
        return b.tokens >= burst;
      }
    });
  }

  private void refill(Bucket b, long now) {
    if (now > b.at) {
      b.tokens = Math.min(burst, b.tokens + (now - b.at) * perMilli);
      b.at = now;
    }
  }
}
