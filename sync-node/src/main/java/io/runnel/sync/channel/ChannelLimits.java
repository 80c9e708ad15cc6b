package io.runnel.sync.channel;

/**
 * A node's channel limits ({@code PROTOCOL.md}, "Limits"); none can be raised from the wire.
 *
 * @param topicsPerSocket topics one socket may hold, joins in flight included (default 64)
 * @param topicsPerNode distinct topics the node may hold, joins in flight included (default 10,000)
 * @param eventPayloadBytes the largest event payload, in UTF-8 bytes of its JSON text (default 64 KiB)
 * @param eventsPerSecond events one actor may send per second, refilled continuously (default 20)
 * @param eventBurst events one actor may send at once after a quiet spell (default 40)
 * @param presenceTtlMs how long another node's presence seat stays without being announced again, milliseconds
 *     (default 30 s); each node announces its own seats again every third of it
 */
public record ChannelLimits(int topicsPerSocket, int topicsPerNode, int eventPayloadBytes, double eventsPerSecond,
    int eventBurst, long presenceTtlMs) {

  /** The protocol's defaults. */
  public static final ChannelLimits DEFAULTS = new ChannelLimits(64, 10_000, 64 * 1024, 20, 40, 30_000);

  /** @throws IllegalArgumentException when a limit is not positive */
  public ChannelLimits {
    if (topicsPerSocket < 1 || topicsPerNode < 1 || eventPayloadBytes < 1 || !(eventsPerSecond > 0)
        || eventBurst < 1 || presenceTtlMs < 3) {
      throw new IllegalArgumentException("Channel limits must be positive: topicsPerSocket=" + topicsPerSocket
          + ", topicsPerNode=" + topicsPerNode + ", eventPayloadBytes=" + eventPayloadBytes + ", eventsPerSecond="
          + eventsPerSecond + ", eventBurst=" + eventBurst + ", presenceTtlMs=" + presenceTtlMs + " (at least 3)");
    }
  }

  /** These limits with {@code perSocket} and {@code perNode} topic caps. */
  public ChannelLimits withTopics(int perSocket, int perNode) {
    return new ChannelLimits(perSocket, perNode, eventPayloadBytes, eventsPerSecond, eventBurst, presenceTtlMs);
  }

  /** These limits with an event rate of {@code perSecond}, bursts of {@code burst}. */
  public ChannelLimits withEventRate(double perSecond, int burst) {
    return new ChannelLimits(topicsPerSocket, topicsPerNode, eventPayloadBytes, perSecond, burst, presenceTtlMs);
  }

  /**
   * These limits with another node's seats kept {@code ttl} without being announced again.
   *
   * @throws IllegalArgumentException when it is under 3 ms
   */
  public ChannelLimits withPresenceTtl(java.time.Duration ttl) {
    return new ChannelLimits(topicsPerSocket, topicsPerNode, eventPayloadBytes, eventsPerSecond, eventBurst,
        ttl.toMillis());
  }
}
