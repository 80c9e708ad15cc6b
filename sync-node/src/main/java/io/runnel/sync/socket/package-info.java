/**
 * The read-only WebSocket: the frames a client and a node exchange, and the codec between them and JSON text.
 */
package io.runnel.sync.socket;
