/**
 * The WebSocket {@code /v1/sync}, inside the node: {@link io.runnel.sync.socket.internal.SocketEndpoint} makes one
 * socket per connection, admits upgrades (accept budget, caps, origin, identity), sweeps idle and stuck sockets, and
 * drains them; each {@link io.runnel.sync.socket.internal.SyncSocket} reads its frames under a rate, decides them,
 * and writes through its own bounded {@link io.runnel.sync.socket.internal.OutboundQueue}. Also the codec between
 * the shared frames ({@link io.runnel.protocol}) and JSON text (Jackson's reader and writer).
 *
 * <p>Internal: only this module uses it (a test enforces it; see {@code docs/reading-the-code.md}).
 */
package io.runnel.sync.socket.internal;
