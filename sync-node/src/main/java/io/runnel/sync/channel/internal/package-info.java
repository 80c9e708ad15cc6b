/**
 * Channels on a sync node: {@link io.runnel.sync.channel.internal.ChannelHub} joins sockets to topics (deny by
 * default, the channel's policy, caps taken as reservations), broadcasts events at most once, keeps each topic's
 * presence roster, and sends records channels' rows read from the change stream (numbered per topic, repaired by
 * {@code gap}).
 *
 * <p>Internal: only this module uses it (a test enforces it; see {@code docs/reading-the-code.md}).
 */
package io.runnel.sync.channel.internal;
