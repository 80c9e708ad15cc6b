package io.runnel.sync.channel;

import java.time.Duration;

/**
 * A node's channel limits ({@code docs/protocol.md}, "Limits"); none can be raised from the wire.
 *
 * @param topicsPerSocket topics one socket may hold, joins in flight included (default 64)
 * @param topicsPerNode distinct topics the node may hold, joins in flight included (default 10,000)
 * @param eventPayloadBytes the largest event payload, in UTF-8 bytes of its JSON text (default 64 KiB)
 * @param eventsPerSecond events one actor may send per second, refilled continuously (default 20)
 * @param eventBurst events one actor may send at once after a quiet spell (default 40)
 * @param presenceTtlMs how long another node's presence seat stays without being announced again, milliseconds
 *     (default 30 s); each node announces its own seats again every third of it
 * @param presenceMetaBytes the largest presence meta, in UTF-8 bytes of its JSON text (default 2 KiB, so a whole
 *     roster of 256 members stays under 512 KiB; not a {@code docs/protocol.md} limit, Runnel's own)
 */
public record ChannelLimits(int topicsPerSocket, int topicsPerNode, int eventPayloadBytes, double eventsPerSecond,
    int eventBurst, long presenceTtlMs, int presenceMetaBytes) {

  /** The protocol's defaults. */
  public static final ChannelLimits DEFAULTS = new ChannelLimits(64, 10_000, 64 * 1024, 20, 40, 30_000, 2048);

  /** @throws IllegalArgumentException when a limit is not positive */
  public ChannelLimits {
    if (topicsPerSocket < 1 || topicsPerNode < 1 || eventPayloadBytes < 1 || !(eventsPerSecond > 0)
        || eventBurst < 1 || presenceTtlMs < 3 || presenceMetaBytes < 2) {
      throw new IllegalArgumentException("Channel limits must be positive: topicsPerSocket=" + topicsPerSocket
          + ", topicsPerNode=" + topicsPerNode + ", eventPayloadBytes=" + eventPayloadBytes + ", eventsPerSecond="
          + eventsPerSecond + ", eventBurst=" + eventBurst + ", presenceTtlMs=" + presenceTtlMs + " (at least 3)"
          + ", presenceMetaBytes=" + presenceMetaBytes + " (at least 2, the text {})");
    }
  }

  /** These limits with presence metas of at most {@code bytes} (UTF-8 bytes of their JSON text). */
  public ChannelLimits withPresenceMetaBytes(int bytes) {
    return new ChannelLimits(topicsPerSocket, topicsPerNode, eventPayloadBytes, eventsPerSecond, eventBurst,
        presenceTtlMs, bytes);
  }

  /** These limits with {@code perSocket} and {@code perNode} topic caps. */
  public ChannelLimits withTopics(int perSocket, int perNode) {
    return new ChannelLimits(perSocket, perNode, eventPayloadBytes, eventsPerSecond, eventBurst, presenceTtlMs,
        presenceMetaBytes);
  }

  /** These limits with an event rate of {@code perSecond}, bursts of {@code burst}. */
  public ChannelLimits withEventRate(double perSecond, int burst) {
    return new ChannelLimits(topicsPerSocket, topicsPerNode, eventPayloadBytes, perSecond, burst, presenceTtlMs,
        presenceMetaBytes);
  }

  /**
   * These limits with another node's seats kept {@code ttl} without being announced again.
   *
   * @throws IllegalArgumentException when it is under 3 ms
   */
  public ChannelLimits withPresenceTtl(Duration ttl) {
    return new ChannelLimits(topicsPerSocket, topicsPerNode, eventPayloadBytes, eventsPerSecond, eventBurst,
        ttl.toMillis(), presenceMetaBytes);
  }
}
