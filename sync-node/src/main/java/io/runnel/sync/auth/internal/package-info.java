/**
 * The {@link io.runnel.sync.auth.internal.GrantKeeper}, which decides open sockets' grants again over time, and what
 * it watches and counts.
 *
 * <p>Internal: only this module uses it (a test enforces it; see {@code docs/reading-the-code.md}).
 */
package io.runnel.sync.auth.internal;
