/**
 * Channels as an app configures them: their limits ({@link io.runnel.sync.channel.ChannelLimits}), the clock of
 * presence ({@link io.runnel.sync.channel.Ticker}), their counters ({@link io.runnel.sync.channel.ChannelStats}), and
 * {@link io.runnel.sync.channel.ChannelBus}, the seam that carries events and presence to other nodes, with the
 * messages it carries and its implementation over a bus transport. The hub is in
 * {@code io.runnel.sync.channel.internal}.
 */
package io.runnel.sync.channel;
