/**
 * The read-only WebSocket's node side: the codec between the shared frames ({@link io.runnel.protocol}) and JSON
 * text (Jackson's reader and writer), the outbound queue, and the token bucket its rate limits use.
 */
package io.runnel.sync.socket;
