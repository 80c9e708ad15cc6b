/**
 * Channels on a sync node: {@link io.runnel.sync.channel.ChannelHub} joins sockets to topics (deny by default, the
 * channel's policy, caps taken as reservations), broadcasts events at most once, and keeps each topic's presence
 * roster; {@link io.runnel.sync.channel.ChannelBus} is the seam that carries events and presence to other nodes.
 */
package io.runnel.sync.channel;
