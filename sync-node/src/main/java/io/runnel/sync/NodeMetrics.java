package io.runnel.sync;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.runnel.sync.channel.ChannelHub;
import io.runnel.sync.live.LiveQueryRegistry;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;

/** A sync node's Micrometer meters, scraped as Prometheus text at {@code /metrics}. */
final class NodeMetrics {

  final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  final AtomicLong sockets = new AtomicLong();
  final AtomicLong subscriptions = new AtomicLong();
  final Counter framesSent;
  final Counter bytesSent;
  final Counter framesDropped;
  /** Failures that escaped a socket handler ({@link HandlerGuard}): each one a bug; 0 on a healthy node. */
  final Counter handlerFailures;

  NodeMetrics(LiveQueryRegistry live, ChannelHub channels) {
    Gauge.builder("runnel_sockets", sockets, AtomicLong::get).description("Open sockets").register(registry);
    Gauge.builder("runnel_subscriptions", subscriptions, AtomicLong::get).description("Live subscriptions")
        .register(registry);
    Gauge.builder("runnel_windows", live, l -> l.stats().windows()).description("Open windows").register(registry);
    framesSent = Counter.builder("runnel_frames_sent").description("Frames queued to sockets").register(registry);
    bytesSent = Counter.builder("runnel_bytes_sent").description("Bytes of frames queued").register(registry);
    framesDropped = Counter.builder("runnel_frames_dropped").description("Frames dropped over a socket's bound")
        .register(registry);
    handlerFailures = Counter.builder("runnel_handler_failures")
        .description("Failures that escaped a socket handler (logged under an errorId, answered X_INTERNAL)")
        .register(registry);
    counter(live, "runnel_window_reads", "Window reads", l -> l.stats().reads());
    counter(live, "runnel_rows_denied", "Rows a row rule kept from a subscriber", l -> l.stats().rowsDenied());
    counter(live, "runnel_gate_failures", "Row rules that threw", l -> l.stats().gateFailures());
    FunctionCounter.builder("runnel_resumes", live, l -> l.stats().resumesDelta()).tag("path", "delta")
        .description("Resumes by path").register(registry);
    FunctionCounter.builder("runnel_resumes", live, l -> l.stats().resumesSnapshot()).tag("path", "snapshot")
        .description("Resumes by path").register(registry);
    Gauge.builder("runnel_channel_topics", channels, c -> c.stats().topics())
        .description("Distinct channel topics the node holds").register(registry);
    FunctionCounter.builder("runnel_channel_events", channels, c -> c.stats().events())
        .description("Channel events accepted for broadcast").register(registry);
    // One series, no topic label: a topic is client-chosen, so a label per topic would be series a client can mint.
    FunctionCounter.builder("runnel_channel_frames_dropped", channels, c -> c.stats().framesDropped())
        .description("Channel frames (events, rosters, diffs, records, gaps) dropped because a member's queue was full")
        .register(registry);
    FunctionCounter.builder("runnel_channel_records_frames", channels, c -> c.stats().records())
        .description("Records frames queued to channel members").register(registry);
    FunctionCounter.builder("runnel_channel_gaps", channels, c -> c.stats().gaps())
        .description("Gap frames queued to channel members (re-run the catch-up query)").register(registry);
  }

  private void counter(LiveQueryRegistry live, String name, String description, ToDoubleFunction<LiveQueryRegistry> f) {
    FunctionCounter.builder(name, live, f).description(description).register(registry);
  }

  /** Counts a refusal by its code. */
  void refused(String code) {
    Counter.builder("runnel_refusals").tag("code", code).description("Refusals by code").register(registry)
        .increment();
  }

  /** The Prometheus text. */
  String scrape() {
    return registry.scrape();
  }
}
