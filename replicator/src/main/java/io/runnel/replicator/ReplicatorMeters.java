package io.runnel.replicator;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.runnel.bus.BusHealth;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A replicator's meters, read from its {@link ReplicatorStats} at each scrape: {@code runnel_replicator_lag_bytes},
 * {@code runnel_replicator_lag_seconds}, {@code runnel_replicator_state{state}} (1 for the state it is in, 0 for the
 * others: five series), {@code runnel_replicator_published_total}, {@code runnel_replicator_restarts_total},
 * {@code runnel_replicator_slot_lost_total}, the slot's retention ({@code runnel_replicator_slot_retained_bytes},
 * {@code runnel_replicator_slot_safe_wal_bytes}, NaN while unknown or unlimited, and
 * {@code runnel_replicator_slot_wal_status{status}}, 1 for the status the slot is in: four series, all 0 while
 * unknown), and its bus's {@code runnel_bus_connected} and {@code runnel_bus_reconnects_total}
 * ({@link BusHealth#register}).
 */
final class ReplicatorMeters {

  private ReplicatorMeters() {}

  private static @Nullable WalRetention retention(Replicator r) {
    return r.stats().retention();
  }

  /** Registers {@code replicator}'s meters on {@code registry}; they hold the replicator weakly. */
  static void register(Replicator replicator, BusHealth bus, MeterRegistry registry) {
    Gauge.builder("runnel_replicator_lag_bytes", replicator, r -> r.stats().lagBytes())
        .description("Bytes of WAL between the server's current position and the slot's confirmed position")
        .register(registry);
    Gauge.builder("runnel_replicator_lag_seconds", replicator, r -> r.stats().lagSeconds())
        .description("While behind, seconds since the commit of the last change the bus accepted; else 0")
        .register(registry);
    for (ReplicatorStats.State state : ReplicatorStats.State.values()) {
      Gauge.builder("runnel_replicator_state", replicator, r -> r.stats().state() == state ? 1 : 0)
          .tag("state", state.name().toLowerCase(Locale.ROOT))
          .description("1 for the state the replicator is in (streaming, standby, starting, backing_off, stopped)")
          .register(registry);
    }
    FunctionCounter.builder("runnel_replicator_published", replicator, r -> r.stats().published())
        .description("Change events published on the bus").register(registry);
    FunctionCounter.builder("runnel_replicator_restarts", replicator, r -> r.stats().restarts())
        .description("Streams that ended and were redialled").register(registry);
    FunctionCounter.builder("runnel_replicator_slot_lost", replicator, r -> r.stats().slotLost())
        .description("Times the replication slot was found dropped, invalidated or moved by someone else: each a gap")
        .register(registry);
    Gauge.builder("runnel_replicator_slot_retained_bytes", replicator, r -> {
      WalRetention w = retention(r);
      return w == null ? Double.NaN : w.retainedBytes();
    }).description("Bytes of WAL the slot holds back (from its restart_lsn to the current position)")
        .register(registry);
    Gauge.builder("runnel_replicator_slot_safe_wal_bytes", replicator, r -> {
      WalRetention w = retention(r);
      return w == null || w.safeWalBytes() == null ? Double.NaN : w.safeWalBytes();
    }).description("Bytes that can still be written before PostgreSQL may invalidate the slot; NaN when unlimited")
        .register(registry);
    for (String status : WalRetention.STATUSES) {
      Gauge.builder("runnel_replicator_slot_wal_status", replicator, r -> {
        WalRetention w = retention(r);
        return w != null && w.walStatus().equals(status) ? 1 : 0;
      }).tag("status", status)
          .description("1 for the slot's wal_status (reserved, extended, unreserved, lost); all 0 while unknown")
          .register(registry);
    }
    bus.register(registry);
  }
}
