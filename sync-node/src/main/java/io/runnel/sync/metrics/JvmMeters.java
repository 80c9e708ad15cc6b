package io.runnel.sync.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The JVM's meters on a registry — Micrometer's memory, GC, thread and processor meters ({@code jvm_memory_*},
 * {@code jvm_gc_*}, {@code jvm_threads_*}, {@code system_cpu_count}, {@code process_cpu_usage}, …) — bound at most
 * once per registry, so a sync node and a replicator role sharing one each ask for them and they appear once.
 */
public final class JvmMeters implements AutoCloseable {

  private @Nullable JvmGcMetrics gc;

  private JvmMeters(@Nullable JvmGcMetrics gc) {
    this.gc = gc;
  }

  /**
   * Binds the JVM's meters on {@code registry} unless it has them already.
   *
   * @return what this call bound: {@link #close} stops its GC listener (it does nothing when nothing was bound)
   */
  public static JvmMeters bind(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    if (registry.find("jvm.memory.used").meter() != null) {
      return new JvmMeters(null);
    }
    new JvmMemoryMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    JvmGcMetrics gc = new JvmGcMetrics();
    gc.bindTo(registry);
    return new JvmMeters(gc);
  }

  /** Stops the GC listener this bound, if any (its registry goes away with its owner); a second call does nothing. */
  @Override
  public synchronized void close() {
    JvmGcMetrics g = gc;
    gc = null;
    if (g != null) {
      g.close();
    }
  }
}
