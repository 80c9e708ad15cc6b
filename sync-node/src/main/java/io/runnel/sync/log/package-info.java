/**
 * Logs: {@link io.runnel.sync.log.JsonLogFormatter}, one JSON object per line for {@code java.util.logging} (which
 * every {@code System.Logger} of the node writes through), and {@link io.runnel.sync.log.LogContext}, the request id
 * and error id a log line made while handling a request carries.
 */
package io.runnel.sync.log;
