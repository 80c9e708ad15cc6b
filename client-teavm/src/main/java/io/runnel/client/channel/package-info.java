/**
 * Channel topics on the page's socket: {@link io.runnel.client.channel.Channels} joins, leaves and re-joins them,
 * repairs records channels (sequence holes, new epochs and {@code gap} frames re-run the catch-up read), and hands
 * each {@link io.runnel.client.channel.Channel} handle its state, its broadcast events and the presence roster.
 */
package io.runnel.client.channel;
