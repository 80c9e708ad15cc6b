/**
 * Logs: {@link io.runnel.sync.log.JsonLogFormatter}, one JSON object per line for {@code java.util.logging} (which
 * every {@code System.Logger} of the node writes through). The request and error ids a line carries are in
 * {@code io.runnel.sync.log.internal}.
 */
package io.runnel.sync.log;
