/**
 * The browser's side of the client's ports that the page never names: the socket, fetch, timers, ids and JSON.
 *
 * <p>Internal: only this module uses it (a test enforces it; see {@code docs/reading-the-code.md}).
 */
package io.runnel.client.browser.internal;
