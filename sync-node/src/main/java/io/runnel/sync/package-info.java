/**
 * The sync node: {@link io.runnel.sync.SyncNode}, the Helidon SE server in front of the live-window engine, its
 * health, readiness ({@code /readyz}) and metrics routes, and the node's counters ({@link io.runnel.sync.NodeStats}).
 * Each concept has its package: {@code socket} (the read-only WebSocket {@code /v1/sync}: upgrades, admission, frames,
 * outbound queues, drain), {@code live} (windows, routing, rings, resume), {@code channel} (topics, events,
 * presence, records channels), {@code http} (the HTTP routes and their error bodies), {@code auth} (who a socket or
 * a call is, over time), {@code metrics} (the node's Prometheus meters) and {@code log} (JSON-line logs).
 */
package io.runnel.sync;
