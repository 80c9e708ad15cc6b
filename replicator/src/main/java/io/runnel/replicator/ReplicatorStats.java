package io.runnel.replicator;

import io.runnel.protocol.Lsn;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A snapshot of a replicator's state.
 *
 * @param state what it is doing
 * @param restarts how many times a stream ended and was redialled
 * @param confirmedLsn the last LSN confirmed to the slot (every change before it was accepted by the bus), or null
 * @param lagBytes bytes of WAL between the server's current position and {@code confirmedLsn}
 * @param lagSeconds seconds from the commit of the oldest transaction received and not yet confirmed, across
 *     restarts of the stream, until now (the commit time is the server's clock, now the replicator's: a skew between
 *     the two hosts counts in it); 0 when every transaction received is confirmed, and on a replicator that does not
 *     stream
 * @param published change events published since start
 * @param lastFailure the last failure, as {@code CODE: cause}, or null
 * @param warnings preflight warnings (for example {@code X_LIVE_REPLICA_IDENTITY}), each with its fix
 * @param slotLost how many times the slot was found lost ({@code X_REPLICATION_SLOT_LOST}: missing, invalidated, or
 *     moved by someone else), each a new producer
 * @param retention the slot's WAL retention as last read while streaming (every 10 s), or null before the first
 *     reading and on a replicator that does not stream
 * @param retentionLow whether {@code retention} is under the configured minimum of safe WAL
 *     ({@code RUNNEL_WAL_SAFE_MIN_BYTES}) or the slot is lost
 */
public record ReplicatorStats(State state, long restarts, @Nullable Lsn confirmedLsn, long lagBytes, double lagSeconds,
    long published, @Nullable String lastFailure, List<String> warnings, long slotLost,
    @Nullable WalRetention retention, boolean retentionLow) {

  /** What a replicator is doing. */
  public enum State {
    /** Not started, or stopped. */
    STOPPED,
    /** Another replicator holds the slot's lock; this one retries. */
    STANDBY,
    /** Holding the lock, running preflight and opening the stream. */
    STARTING,
    /** Streaming changes onto the bus. */
    STREAMING,
    /** The last stream ended; waiting to redial. */
    BACKING_OFF
  }

  /** Copies the warnings. */
  public ReplicatorStats {
    warnings = List.copyOf(warnings);
  }

  /** Whether the replicator is started (streaming, waiting as a standby, starting or backing off). */
  public boolean running() {
    return state != State.STOPPED;
  }
}
