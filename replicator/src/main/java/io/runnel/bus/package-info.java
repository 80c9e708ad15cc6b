/**
 * The bus that carries change events from the replicator to the sync nodes: the {@code Transport} port, the
 * in-process transport used when embedded, and (in a later issue) the NATS transport.
 *
 * <p>Empty until the replicator issue lands.
 */
package io.runnel.bus;
