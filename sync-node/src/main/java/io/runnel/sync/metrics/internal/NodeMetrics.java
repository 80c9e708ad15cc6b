package io.runnel.sync.metrics.internal;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.runnel.bus.BusHealth;
import io.runnel.sync.auth.internal.GrantKeeper;
import io.runnel.sync.channel.internal.ChannelHub;
import io.runnel.sync.live.internal.LiveQueryRegistry;
import io.runnel.sync.metrics.JvmMeters;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * A sync node's Micrometer meters, scraped as Prometheus text at {@code /metrics}: on a registry of its own, or on
 * the one the app gave ({@code SyncNode.Builder.meters}), shared with a replicator in the same process. The sockets
 * add theirs ({@code io.runnel.sync.socket}); the rest read the windows, the channels, the grants and the bus.
 *
 * <p>The meters that read this node's parts (gauges and function counters) are removed at {@link #close}, so a node
 * started again on a shared registry reports its own parts, not a stopped node's. Plain counters (frames, bytes,
 * refusals, mutations) stay and keep counting across restarts. The JVM's meters are bound once per registry.
 */
public final class NodeMetrics implements AutoCloseable {

  private final PrometheusMeterRegistry registry;
  private final boolean owned;
  private final List<Meter> tied = new ArrayList<>();
  private final JvmMeters jvm;

  /**
   * The meters of a node whose parts are {@code live}, {@code channels} and {@code bus}, on {@code given} (or, when
   * null, on a registry of their own).
   */
  public NodeMetrics(@Nullable PrometheusMeterRegistry given, LiveQueryRegistry live, ChannelHub channels,
      BusHealth bus) {
    this.owned = given == null;
    this.registry = given != null ? given : new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    tie(Gauge.builder("runnel_windows", live, l -> l.stats().windows()).description("Open windows")
        .register(registry));
    counter(live, "runnel_window_reads", "Window reads", l -> l.stats().reads());
    counter(live, "runnel_rows_denied", "Rows a row rule kept from a subscriber", l -> l.stats().rowsDenied());
    counter(live, "runnel_gate_failures", "Row rules that threw", l -> l.stats().gateFailures());
    tie(FunctionCounter.builder("runnel_resumes", live, l -> l.stats().resumesDelta()).tag("path", "delta")
        .description("Resumes by path").register(registry));
    tie(FunctionCounter.builder("runnel_resumes", live, l -> l.stats().resumesSnapshot()).tag("path", "snapshot")
        .description("Resumes by path").register(registry));
    counter(live, "runnel_bus_gaps", "Bus gaps seen (a seq hole, a new producer, a reconnect), each re-reading "
        + "every window", l -> l.stats().gaps());
    tie(Gauge.builder("runnel_delivery_lag_seconds", live, l -> l.lagMillis().isPresent()
            ? l.lagMillis().getAsLong() / 1000.0 : Double.NaN)
        .description("How late the last transaction reached the windows: its arrival minus its commit time (NaN "
            + "before the first)").register(registry));
    tie(Gauge.builder("runnel_channel_topics", channels, c -> c.stats().topics())
        .description("Distinct channel topics the node holds").register(registry));
    tie(FunctionCounter.builder("runnel_channel_events", channels, c -> c.stats().events())
        .description("Channel events accepted for broadcast").register(registry));
    // One series, no topic label: a topic is client-chosen, so a label per topic would be series a client can mint.
    tie(FunctionCounter.builder("runnel_channel_frames_dropped", channels, c -> c.stats().framesDropped())
        .description("Channel frames (events, rosters, diffs, records, gaps) dropped because a member's queue was full")
        .register(registry));
    tie(FunctionCounter.builder("runnel_channel_records_frames", channels, c -> c.stats().records())
        .description("Records frames queued to channel members").register(registry));
    tie(FunctionCounter.builder("runnel_channel_gaps", channels, c -> c.stats().gaps())
        .description("Gap frames queued to channel members (re-run the catch-up query)").register(registry));
    tied.addAll(bus.register(registry));
    jvm = JvmMeters.bind(registry);
  }

  private void counter(LiveQueryRegistry live, String name, String description, ToDoubleFunction<LiveQueryRegistry> f) {
    tie(FunctionCounter.builder(name, live, f).description(description).register(registry));
  }

  /** The registry the meters are on, which {@code /metrics} scrapes. */
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** Registers {@code meter} as one that reads this node's parts: it is removed when the node stops. */
  public void tie(Meter meter) {
    tied.add(meter);
  }

  /** Counts the grant checks of {@code grants} by outcome, and the refreshes that threw. */
  public void grants(GrantKeeper grants) {
    tie(FunctionCounter.builder("runnel_grant_refresh_failures", grants, g -> g.stats().failures())
        .description("Grant refreshes that threw (the socket kept its grant and is asked again)").register(registry));
    tie(FunctionCounter.builder("runnel_grant_checks", grants, g -> g.stats().kept()).tag("outcome", "kept")
        .description("Grant checks by outcome").register(registry));
    tie(FunctionCounter.builder("runnel_grant_checks", grants, g -> g.stats().changed()).tag("outcome", "changed")
        .description("Grant checks by outcome").register(registry));
    tie(FunctionCounter.builder("runnel_grant_checks", grants, g -> g.stats().closed()).tag("outcome", "closed")
        .description("Grant checks by outcome").register(registry));
  }

  /** Counts a refusal by its code ({@code runnel_refusals{code}}). */
  public void refused(String code) {
    Counter.builder("runnel_refusals").tag("code", code).description("Refusals by code").register(registry)
        .increment();
  }

  /** The Prometheus text of every meter on the registry. */
  public String scrape() {
    return registry.scrape();
  }

  /**
   * Removes the meters that read this node's parts; on a registry of its own, also stops the JVM's GC listener. On
   * a shared registry the JVM's meters stay (the process goes on).
   */
  @Override
  public synchronized void close() {
    for (Meter m : tied) {
      registry.remove(m);
    }
    tied.clear();
    if (owned) {
      jvm.close();
    }
  }
}
