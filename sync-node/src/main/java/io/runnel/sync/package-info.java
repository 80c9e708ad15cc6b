/**
 * The sync node: {@link io.runnel.sync.SyncNode}, the Helidon SE server in front of the live-window engine, with the
 * read-only WebSocket {@code /v1/sync}, health, readiness and metrics routes; packages {@code live} (windows,
 * routing, rings, resume), {@code channel} (topics, events, presence), {@code socket} (frames, outbound queues),
 * {@code http} (the HTTP routes), {@code auth} (who a socket is) and {@code log} (JSON-line logs, request ids).
 */
package io.runnel.sync;
