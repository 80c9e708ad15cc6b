/**
 * The JVM's Micrometer meters ({@link io.runnel.sync.metrics.JvmMeters}), scraped with the node's as Prometheus
 * text at {@code /metrics}. The node's own meters are in {@code io.runnel.sync.metrics.internal}.
 */
package io.runnel.sync.metrics;
