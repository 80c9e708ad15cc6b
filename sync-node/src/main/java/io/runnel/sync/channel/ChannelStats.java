package io.runnel.sync.channel;

/**
 * A hub's counts, for {@code /metrics} and tests.
 *
 * @param topics distinct topics the node holds, joins in flight included
 * @param events events accepted for broadcast since start (from this node's HTTP route)
 * @param framesDropped channel frames (events, rosters, diffs) dropped since start because a member's outbound
 *     queue was full or its socket closed
 */
public record ChannelStats(int topics, long events, long framesDropped) {}
