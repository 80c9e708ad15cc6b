/**
 * The bus that carries change events from the replicator to the sync nodes: the {@link io.runnel.bus.Transport}
 * port, {@link io.runnel.bus.InProcessTransport} (the embedded default), {@link io.runnel.bus.NatsTransport}
 * (across machines), the choice between them from the environment ({@link io.runnel.bus.TransportConfig}) and
 * subject naming ({@link io.runnel.bus.Subjects}).
 */
package io.runnel.bus;
