package io.runnel.sync;

import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code degraded} member of a {@code /readyz} body ({@code docs/operating.md}, "/readyz"), the same for a sync
 * node and for a process that runs only a replicator: what is wrong without making the process unready.
 */
public final class Degraded {

  /** Listed while the lag is past the threshold ({@code RUNNEL_LAG_DEGRADED_MS}), until it is below half of it. */
  public static final String REPLICATION_LAG = "replication_lag";
  /** Listed while the replicator's slot can take less WAL than {@code RUNNEL_WAL_SAFE_MIN_BYTES}. */
  public static final String WAL_RETENTION = "wal_retention";

  private Degraded() {}

  /**
   * Whether a lag of {@code lagMs} is degraded, given whether it was: it turns degraded past {@code thresholdMs}
   * (milliseconds) and back below half of it, so a lag near the threshold does not flap.
   */
  public static boolean lagging(boolean was, long lagMs, long thresholdMs) {
    return was ? lagMs >= thresholdMs / 2 : lagMs > thresholdMs;
  }

  /** The {@code degraded} array: {@link #REPLICATION_LAG} when lagging, {@link #WAL_RETENTION} when low, in order. */
  public static JsonArray reasons(boolean lagging, boolean retentionLow) {
    List<JsonValue> out = new ArrayList<>();
    if (lagging) {
      out.add(new JsonString(REPLICATION_LAG));
    }
    if (retentionLow) {
      out.add(new JsonString(WAL_RETENTION));
    }
    return new JsonArray(out);
  }
}
