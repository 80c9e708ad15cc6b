package io.runnel.sync;

import io.runnel.bus.BusHealth;
import io.runnel.protocol.Position;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.sync.live.internal.LiveQueryRegistry;
import io.runnel.wire.JsonObject;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The body of {@code GET /readyz} and whether it is 200 or 503. Ready means: the node listens, is not draining, and
 * its bus is connected. The replicator, when the process runs one ({@link SyncNode.Builder#replicator}), is reported
 * and not required: a standby, or a stream redialling after a database blip, does not make this node refuse clients.
 *
 * <pre>{@code
 * {"ready": true, "draining": false, "sockets": 3, "windows": 2, "bus": "connected",
 *  "position": "<24 hex>", "lagMs": 4, "asOf": 1764566400123, "degraded": [],
 *  "replicator": "streaming", "replicatorLagBytes": 0, "replicatorLagMs": 0}
 * }</pre>
 * {@code position} (the delivered position), {@code lagMs} and {@code asOf} are absent before the node's first
 * position; the {@code replicator…} members are absent when the node knows of no replicator.
 *
 * <p>Degraded is not unready: {@code degraded} lists {@code "replication_lag"} while the lag (the node's — before its
 * first position, how long it has waited for one — or the replicator's when it runs here and is further behind) is
 * past the threshold ({@code RUNNEL_LAG_DEGRADED_MS}),
 * until it falls below half of it, and {@code "wal_retention"} while the replicator here says its slot's retention
 * is low. The status stays 200, so a fleet that falls behind together never leaves its balancer at once.
 */
final class Readiness {

  private final LiveQueryRegistry live;
  private final BusHealth bus;
  private final @Nullable Supplier<ReplicatorStats> replicator;
  private final long lagDegradedMs;
  private boolean lagging;

  Readiness(LiveQueryRegistry live, BusHealth bus, @Nullable Supplier<ReplicatorStats> replicator,
      long lagDegradedMs) {
    this.live = live;
    this.bus = bus;
    this.replicator = replicator;
    this.lagDegradedMs = lagDegradedMs;
  }

  /** A reading: whether the node is ready, and the body that says why. */
  record Answer(boolean ready, JsonObject body) {}

  /** Reads every part once, so the status and the body agree. */
  synchronized Answer read(boolean listening, boolean draining, int sockets) {
    boolean connected = bus.connected();
    boolean ready = listening && !draining && connected;
    JsonObject.Builder b = JsonObject.builder().put("ready", ready).put("draining", draining).put("sockets", sockets)
        .put("windows", live.stats().windows()).put("bus", connected ? "connected" : "down");
    Position position = live.deliveredPosition();
    if (!position.equals(Position.ZERO)) {
      b.put("position", position.toString());
    }
    OptionalLong asOf = live.asOf();
    OptionalLong lag = live.lagMillis();
    long worst = lag.orElse(live.millisWithoutPosition());
    if (lag.isPresent() && asOf.isPresent()) {
      b.put("lagMs", lag.getAsLong()).put("asOf", asOf.getAsLong());
    }
    ReplicatorStats stats = replicator == null ? null : replicator.get();
    if (stats != null) {
      long replicatorLag = Math.round(stats.lagSeconds() * 1000);
      worst = Math.max(worst, replicatorLag);
      b.put("replicator", state(stats.state())).put("replicatorLagBytes", stats.lagBytes())
          .put("replicatorLagMs", replicatorLag);
    }
    lagging = Degraded.lagging(lagging, worst, lagDegradedMs);
    b.put("degraded", Degraded.reasons(lagging, stats != null && stats.retentionLow()));
    return new Answer(ready, b.build());
  }

  /** {@code streaming}, {@code standby}, or {@code down} (stopped, starting, or waiting to redial). */
  static String state(ReplicatorStats.State state) {
    return switch (state) {
      case STREAMING -> "streaming";
      case STANDBY -> "standby";
      case STARTING, BACKING_OFF, STOPPED -> "down";
    };
  }
}
