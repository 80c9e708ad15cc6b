/**
 * The read-only WebSocket: the frames a client and a node exchange, the codec between them and JSON text, the
 * outbound queue, and the token bucket its rate limits use.
 */
package io.runnel.sync.socket;
