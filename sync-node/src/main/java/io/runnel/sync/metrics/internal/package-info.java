/**
 * The sync node's Micrometer meters, scraped as Prometheus text at {@code /metrics}: the windows', channels', grants'
 * and bus's ({@link io.runnel.sync.metrics.internal.NodeMetrics}).
 *
 * <p>Internal: only this module uses it (a test enforces it; see {@code docs/reading-the-code.md}).
 */
package io.runnel.sync.metrics.internal;
