/**
 * The sync node: {@link io.runnel.sync.SyncNode}, the Helidon SE server in front of the live-window engine, with the
 * read-only WebSocket {@code /v1/sync}, health, readiness and metrics routes; packages {@code live} (windows,
 * routing, rings, resume), {@code socket} (frames, outbound queues) and {@code auth} (who a socket is).
 */
package io.runnel.sync;
