/**
 * Live windows: one shared read per query, input and tenant, kept up to date from the bus by matchers and a routing
 * index, turning each committed transaction into one patch for the window's subscribers
 * ({@link io.runnel.sync.live.internal.LiveQueryRegistry} is the entry).
 *
 * <p>Internal: only this module uses it (a test enforces it; see {@code docs/reading-the-code.md}).
 */
package io.runnel.sync.live.internal;
