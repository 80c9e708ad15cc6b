/**
 * The sync node's Micrometer meters, scraped as Prometheus text at {@code /metrics}: the windows', channels', grants'
 * and bus's ({@link io.runnel.sync.metrics.NodeMetrics}) and the JVM's ({@link io.runnel.sync.metrics.JvmMeters}).
 */
package io.runnel.sync.metrics;
