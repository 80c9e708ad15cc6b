package io.runnel.sync.socket.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.runnel.sync.metrics.internal.NodeMetrics;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The sockets' meters, on the node's registry: {@code runnel_sockets} and {@code runnel_subscriptions} (gauges, removed
 * with the node's other gauges when it stops), {@code runnel_frames_sent}, {@code runnel_bytes_sent},
 * {@code runnel_frames_dropped}, {@code runnel_handler_failures} and {@code runnel_refusals{code}} (counters, which
 * keep counting across a restart on a shared registry).
 */
final class SocketMeters {

  private final NodeMetrics metrics;
  final AtomicLong sockets = new AtomicLong();
  final AtomicLong subscriptions = new AtomicLong();
  final Counter framesSent;
  final Counter bytesSent;
  final Counter framesDropped;
  /** Failures that escaped a socket handler ({@link HandlerGuard}): each one a bug; 0 on a healthy node. */
  final Counter handlerFailures;

  SocketMeters(NodeMetrics metrics) {
    this.metrics = metrics;
    metrics.tie(Gauge.builder("runnel_sockets", sockets, AtomicLong::get).description("Open sockets")
        .register(metrics.registry()));
    metrics.tie(Gauge.builder("runnel_subscriptions", subscriptions, AtomicLong::get).description("Live subscriptions")
        .register(metrics.registry()));
    framesSent = Counter.builder("runnel_frames_sent").description("Frames queued to sockets")
        .register(metrics.registry());
    bytesSent = Counter.builder("runnel_bytes_sent").description("Bytes of frames queued (UTF-8)")
        .register(metrics.registry());
    framesDropped = Counter.builder("runnel_frames_dropped").description("Frames dropped over a socket's bound")
        .register(metrics.registry());
    handlerFailures = Counter.builder("runnel_handler_failures")
        .description("Failures that escaped a socket handler (logged under an errorId, answered X_INTERNAL)")
        .register(metrics.registry());
  }

  /** Counts a refusal by its code. */
  void refused(String code) {
    metrics.refused(code);
  }

  /** The node's meters, for the gauges of other socket parts ({@link Drain}'s). */
  NodeMetrics node() {
    return metrics;
  }
}
