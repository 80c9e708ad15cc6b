/**
 * Live queries over one socket: {@link io.runnel.client.live.internal.LiveClient} (connect, heartbeat, reconnect with
 * backoff, resume from cursors) and the subscriptions it keeps, each a
 * {@link io.runnel.client.live.internal.QuerySubscription} holding the node's order and cursor of one list.
 *
 * <p>Internal: only this module uses it (a test enforces it; see {@code docs/reading-the-code.md}).
 */
package io.runnel.client.live.internal;
