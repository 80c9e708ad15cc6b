/**
 * The replicator: decodes PostgreSQL's logical replication stream ({@code pgoutput} over pgjdbc's replication API)
 * into ordered {@link io.runnel.replicator.ChangeEvent}s and publishes them on the bus, confirming the slot only
 * after the bus took them.
 *
 * <p>Public: {@link io.runnel.replicator.Replicator} (builder, start, stop, stats), its configuration
 * ({@link io.runnel.replicator.ReplicatorConfig}, {@link io.runnel.replicator.DatabaseUrl}), the event and its
 * envelope ({@link io.runnel.replicator.ChangeEvent}, {@link io.runnel.replicator.ChangeEnvelope}) and
 * {@link io.runnel.replicator.Lsn}. Package-private: the decoder, the transaction assembler, preflight and the
 * streaming session. The lifecycle is described in {@code docs/replicator.md}.
 */
package io.runnel.replicator;
