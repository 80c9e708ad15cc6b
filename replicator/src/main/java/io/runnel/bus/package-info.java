/**
 * The bus that carries change events from the replicator to the sync nodes: the {@link io.runnel.bus.Transport}
 * port, {@link io.runnel.bus.InProcessTransport} (the embedded default) and subject naming
 * ({@link io.runnel.bus.Subjects}). A NATS transport joins them in a later issue.
 */
package io.runnel.bus;
