/**
 * {@link io.runnel.sync.log.internal.LogContext}: the request id and error id a log line made while handling a
 * request carries.
 *
 * <p>Internal: only this module uses it (a test enforces it; see {@code docs/reading-the-code.md}).
 */
package io.runnel.sync.log.internal;
