/**
 * The browser client, plain Java compiled to JavaScript by TeaVM: the page's record store (synced truth plus the
 * optimistic overlay), the live client (connect, heartbeat, reconnect, resume from cursors) and the offline outbox.
 *
 * <p>Will hold that logic behind small ports (socket, HTTP, durable store, JSON, clock); only a {@code browser}
 * package will import TeaVM's JSO. Until the client issues land, the {@code smoke} package compiles the DSL's
 * client-safe classes so that a change breaking the browser build fails the build at once.
 */
package io.runnel.client;
