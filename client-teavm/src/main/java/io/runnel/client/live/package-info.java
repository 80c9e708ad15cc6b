/**
 * Live queries over one socket: {@link io.runnel.client.live.LiveClient} (connect, heartbeat, reconnect with backoff,
 * resume from cursors) and the lists it keeps, each a {@link io.runnel.client.live.LiveQuery} handle showing the
 * records in query order, optimistic records placed by the query's own select.
 */
package io.runnel.client.live;
