/**
 * The client's ports: the few things it needs of its host (timers, a clock, a socket, HTTP, a durable key-value
 * store, JSON text, random ids). The browser implements them with TeaVM's JSO in the {@code browser} package; the
 * JVM tests implement them with fakes they drive by hand.
 */
package io.runnel.client.port;
