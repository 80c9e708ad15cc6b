package io.runnel.bus;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a process's operators see of one transport: whether it is connected now ({@link Transport#connected}) and how
 * many times its connection came back since this watch began ({@link Transport#onReconnect}, once per recovery).
 * {@code /readyz} and the gauges {@code runnel_bus_connected} and {@code runnel_bus_reconnects_total} read it.
 *
 * <pre>{@code
 * BusHealth health = BusHealth.watch(transport);
 * health.connected();   // false while NATS is down
 * health.reconnects();  // 1 after it came back once
 * }</pre>
 */
public final class BusHealth {

  private final Transport transport;
  private final AtomicLong reconnects = new AtomicLong();

  private BusHealth(Transport transport) {
    this.transport = transport;
  }

  /** Starts counting {@code transport}'s reconnects (a listener stays registered for the transport's life). */
  public static BusHealth watch(Transport transport) {
    BusHealth h = new BusHealth(Objects.requireNonNull(transport, "transport"));
    transport.onReconnect(h.reconnects::incrementAndGet);
    return h;
  }

  /** Whether the transport is connected now. */
  public boolean connected() {
    return transport.connected();
  }

  /** How many times the connection came back since {@link #watch}. */
  public long reconnects() {
    return reconnects.get();
  }

  /**
   * Registers {@code runnel_bus_connected} (1 while connected, else 0) and {@code runnel_bus_reconnects_total} on
   * {@code registry}, unless another watch of the process registered them first (a replicator and a sync node on
   * one bus in one process): the meters already there are kept, and this watch's are not made.
   *
   * @return the meters this call made (none when they were there), for the caller to remove when it stops
   */
  public List<Meter> register(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    List<Meter> made = new ArrayList<>(2);
    if (registry.find("runnel_bus_connected").meter() == null) {
      made.add(Gauge.builder("runnel_bus_connected", this, h -> h.connected() ? 1 : 0)
          .description("1 while the bus connection is up, else 0").register(registry));
    }
    if (registry.find("runnel_bus_reconnects").meter() == null) {
      made.add(FunctionCounter.builder("runnel_bus_reconnects", this, BusHealth::reconnects)
          .description("Times the bus connection came back (each one a gap its consumers re-read over)")
          .register(registry));
    }
    return made;
  }
}
