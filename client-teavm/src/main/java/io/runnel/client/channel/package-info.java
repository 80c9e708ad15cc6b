/**
 * Channels as the page holds them: each {@link io.runnel.client.channel.Channel} handle hears, through its
 * {@link io.runnel.client.channel.ChannelListener}, its {@link io.runnel.client.channel.ChannelState}, the broadcast
 * events and the presence {@link io.runnel.client.channel.Roster}. The topics are kept in
 * {@code io.runnel.client.channel.internal}.
 */
package io.runnel.client.channel;
