/**
 * The replicator: decodes PostgreSQL's logical replication stream ({@code pgoutput}, over pgjdbc's replication
 * API) into ordered change events and publishes them on the bus, confirming the slot only after the bus took them.
 *
 * <p>Will hold the {@code pgoutput} decoder, preflight (publication, replica identity, {@code wal_level}), the
 * advisory lock that keeps one replicator active per slot, and restart and confirm logic. Empty until the
 * replicator issue lands.
 */
package io.runnel.replicator;
