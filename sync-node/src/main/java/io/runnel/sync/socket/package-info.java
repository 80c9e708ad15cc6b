/**
 * The read-only WebSocket {@code /v1/sync}: {@link io.runnel.sync.socket.SocketEndpoint} makes one socket per
 * connection, admits upgrades (accept budget, caps, origin, identity), sweeps idle and stuck sockets, and drains them;
 * each socket reads its frames under a rate, decides them, and writes through its own bounded outbound queue. Also
 * the codec between the shared frames ({@link io.runnel.protocol}) and JSON text (Jackson's reader and writer), and
 * the socket limits an app configures ({@link io.runnel.sync.socket.SocketLimits},
 * {@link io.runnel.sync.socket.AdmissionLimits}).
 */
package io.runnel.sync.socket;
