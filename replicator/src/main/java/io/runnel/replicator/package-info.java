/**
 * The replicator: decodes PostgreSQL's logical replication stream ({@code pgoutput} over pgjdbc's replication API)
 * into ordered {@link io.runnel.replicator.ChangeEvent}s and publishes them on the bus, confirming the slot only
 * after the bus took them.
 *
 * <p>Public: {@link io.runnel.replicator.Replicator} (builder, start, stop, stats), its configuration
 * ({@link io.runnel.replicator.ReplicatorConfig}, {@link io.runnel.replicator.DatabaseUrl}), the bus messages and
 * their envelopes ({@link io.runnel.replicator.BusMessage}: a {@link io.runnel.replicator.ChangeEvent} or a
 * {@link io.runnel.replicator.PositionEvent}; {@link io.runnel.replicator.BusEnvelope},
 * {@link io.runnel.replicator.ChangeEnvelope}). Package-private: the decoder,
 * the transaction assembler, preflight, the WAL page layout and the streaming session. The lifecycle is described
 * in {@code docs/replicator.md}.
 */
package io.runnel.replicator;
