/**
 * The read-only WebSocket {@code /v1/sync} as an app configures it: the socket limits
 * ({@link io.runnel.sync.socket.SocketLimits}), the admission caps ({@link io.runnel.sync.socket.AdmissionLimits}) and
 * what a drain did ({@link io.runnel.sync.socket.Drained}). The socket itself is in
 * {@code io.runnel.sync.socket.internal}.
 */
package io.runnel.sync.socket;
