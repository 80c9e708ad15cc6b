package io.runnel.sync.channel.internal;

import io.runnel.sync.socket.internal.TokenBucket;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Event rates per sender: a token bucket each ({@code rate} tokens a second, at most {@code burst}), created full on
 * a sender's first event and dropped by {@link #sweep} once full again, so the map holds only recent senders.
 */
final class EventRates {

  private final double perSecond;
  private final int burst;
  private final ConcurrentHashMap<String, TokenBucket> buckets = new ConcurrentHashMap<>();

  EventRates(double perSecond, int burst) {
    this.perSecond = perSecond;
    this.burst = burst;
  }

  /**
   * Takes one token of {@code sender}'s bucket at {@code now} (epoch ms).
   *
   * @return 0 when taken, else the milliseconds until a token is there (nothing was taken)
   */
  long take(String sender, long now) {
    return buckets.computeIfAbsent(sender, k -> new TokenBucket(perSecond, burst, TimeUnit.MILLISECONDS, now))
        .take(now);
  }

  /** Forgets the senders whose buckets are full at {@code now}. */
  void sweep(long now) {
    buckets.values().removeIf(b -> b.full(now));
  }
}
