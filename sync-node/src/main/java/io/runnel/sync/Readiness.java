package io.runnel.sync;

import io.runnel.bus.BusHealth;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.sync.live.LiveQueryRegistry;
import io.runnel.wire.JsonObject;
import io.runnel.wire.Nullable;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The body of {@code GET /readyz} and whether it is 200 or 503. Ready means: the node listens, is not draining, and
 * its bus is connected. The replicator, when the process runs one ({@link SyncNode.Builder#replicator}), is reported
 * and not required: a standby, or a stream redialling after a database blip, does not make this node refuse clients.
 *
 * <pre>{@code
 * {"ready": true, "draining": false, "sockets": 3, "windows": 2, "bus": "connected",
 *  "position": "<24 hex>", "lagMs": 4, "replicator": "streaming", "replicatorLagBytes": 0, "replicatorLagMs": 0}
 * }</pre>
 * {@code position} (the delivered position) and {@code lagMs} are absent before the first transaction arrives; the
 * {@code replicator…} members are absent when the node knows of no replicator.
 */
final class Readiness {

  private final LiveQueryRegistry live;
  private final BusHealth bus;
  private final @Nullable Supplier<ReplicatorStats> replicator;

  Readiness(LiveQueryRegistry live, BusHealth bus, @Nullable Supplier<ReplicatorStats> replicator) {
    this.live = live;
    this.bus = bus;
    this.replicator = replicator;
  }

  /** A reading: whether the node is ready, and the body that says why. */
  record Answer(boolean ready, JsonObject body) {}

  /** Reads every part once, so the status and the body agree. */
  Answer read(boolean listening, boolean draining, int sockets) {
    boolean connected = bus.connected();
    boolean ready = listening && !draining && connected;
    JsonObject.Builder b = JsonObject.builder().put("ready", ready).put("draining", draining).put("sockets", sockets)
        .put("windows", live.stats().windows()).put("bus", connected ? "connected" : "down");
    String position = live.deliveredPosition();
    if (!position.isEmpty()) {
      b.put("position", position);
    }
    OptionalLong lag = live.lagMillis();
    if (lag.isPresent()) {
      b.put("lagMs", lag.getAsLong());
    }
    if (replicator != null) {
      ReplicatorStats stats = replicator.get();
      b.put("replicator", state(stats.state())).put("replicatorLagBytes", stats.lagBytes())
          .put("replicatorLagMs", Math.round(stats.lagSeconds() * 1000));
    }
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
