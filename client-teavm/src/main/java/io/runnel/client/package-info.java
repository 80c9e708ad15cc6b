/**
 * The browser client, plain Java compiled to JavaScript by TeaVM: {@link io.runnel.client.RunnelClient}, the page's
 * one entry, composes the record store (synced truth plus the optimistic overlay), the live client (connect,
 * heartbeat, reconnect, resume from cursors) and the offline outbox over the app's {@link io.runnel.client.Refs}.
 *
 * <p>The logic sits behind small ports (socket, HTTP, durable store, JSON, clock); only a {@code browser} package
 * imports TeaVM's JSO. The {@code smoke} package compiles the DSL's client-safe classes so that a change breaking
 * the browser build fails the build at once.
 */
package io.runnel.client;
