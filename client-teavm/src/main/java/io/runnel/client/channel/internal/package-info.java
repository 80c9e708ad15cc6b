/**
 * Channel topics on the page's socket: {@link io.runnel.client.channel.internal.Channels} joins, leaves and re-joins
 * them, repairs records channels (sequence holes, new epochs and {@code gap} frames re-run the catch-up read), and
 * hands each handle its state, its broadcast events and the presence roster.
 *
 * <p>Internal: only this module uses it (a test enforces it; see {@code docs/reading-the-code.md}).
 */
package io.runnel.client.channel.internal;
