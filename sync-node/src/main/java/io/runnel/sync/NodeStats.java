package io.runnel.sync;

import io.runnel.protocol.Position;
import io.runnel.sync.channel.ChannelStats;
import io.runnel.sync.live.LiveStats;
import java.util.OptionalLong;

/**
 * A sync node's counters at one moment ({@link SyncNode#stats()}).
 *
 * @param live the windows' counters: windows open, reads, patches, resumes, gaps, ring bytes
 * @param channels the channels' counters: topics, events, frames dropped, records frames, gaps
 * @param delivered the position through which the windows hold every change ({@link Position#ZERO} before the first),
 *     as {@code hello}'s {@code lsn} says it
 * @param asOf the commit time of what the windows hold, epoch ms, or empty before the first transaction
 * @param lagMillis how far the windows are behind the database's clock, ms, or empty before the first transaction
 */
public record NodeStats(LiveStats live, ChannelStats channels, Position delivered, OptionalLong asOf,
    OptionalLong lagMillis) {}
