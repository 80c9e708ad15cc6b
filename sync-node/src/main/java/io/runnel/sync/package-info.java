/**
 * The sync node: the Helidon SE server that keeps per-tenant live windows over the bus, pushes record patches
 * down a read-only WebSocket ({@code /v1/sync}) and runs writes over HTTP ({@code /v1/mutate/{name}}).
 *
 * <p>Will hold {@code SyncNode} (builder, start, drain, stop) and the packages {@code live} (windows, routing
 * index, patch rings, resume), {@code socket}, {@code channel}, {@code http} and {@code auth}. Empty until the
 * live-window and server issues land.
 */
package io.runnel.sync;
