package io.runnel.replicator;

import io.runnel.bus.Subjects;
import io.runnel.bus.Transport;
import io.runnel.bus.TransportUnavailableException;
import io.runnel.dsl.server.Entity;
import io.runnel.protocol.Lsn;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;

/**
 * One streaming attempt: opens the replication connection, reads {@code pgoutput} from the slot's confirmed
 * position, publishes each change on the bus as it is decoded, and confirms the slot.
 *
 * <p>Invariant: the slot is confirmed up to a commit only after {@link Transport#flush} returned for every change
 * of it, so a change the bus did not take is sent again after a redial (with the identical LSN). Confirmations
 * are batched: after 100 ms or 1,000 commits, and at once when the stream goes idle. pgjdbc answers the server's
 * keepalives only inside {@code readPending}, which this loop keeps calling, idle or not.
 *
 * <p>Position heartbeat: the walsender reads the whole WAL, and sends a keepalive carrying how far it has read each
 * time it waits for more while this client has not acknowledged that far; pgjdbc raises
 * {@code getLastReceiveLSN()} to it (and, after a commit, that is the commit's end). When the stream is idle (no
 * transaction open, so everything received is published) and that position passed the last one sent, a
 * {@link PositionEvent} goes out on {@link Subjects#POSITION}, at most one every 10 ms: every change with a commit
 * LSN below it is on the bus before it. While the position stands still, one goes out every second all the same
 * when the time it holds moved, so an idle database is told apart from a stuck replicator. Each carries the
 * PostgreSQL time through which it holds every change ({@link ServerClock}). It takes the producer's next
 * {@code seq} like a change, so consumers count it in their gap check, and it is flushed at once, so a consumer hears
 * it even when no change follows.
 *
 * <p>A change whose envelope is longer than the bus takes ({@link Transport#maxPayload}, NATS's {@code max_payload})
 * goes out cut to its key ({@link ChangeEvent#keyOnly}, {@code oversized}): it keeps its LSN and {@code seq}, and
 * consumers re-read the row, so one large row never stalls the slot.
 */
final class ReplicationSession implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(ReplicationSession.class.getName());

  /** Between transactions the stream is idle: poll every millisecond (about 1,000 wake-ups a second, no more). */
  private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  /** Inside a transaction the rest is on its way: poll again soon. */
  private static final long IN_TRANSACTION_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
  private static final long CONFIRM_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final int CONFIRM_EVERY_COMMITS = 1_000;
  /** At most one position heartbeat this often: the most a client waits, past the WAL itself, to settle a write. */
  private static final long POSITION_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  /** While the position stands still, a heartbeat this often when its time moved: how fresh an idle node's asOf is. */
  private static final long POSITION_IDLE_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** Where the session reports progress. */
  interface Progress {
    /**
     * Every change up to {@code lsn} is on the bus and is being confirmed to the slot; {@code commit} tells a
     * commit's end (changes were published) from a keepalive's position (nothing Runnel publishes was there).
     */
    void confirmed(Lsn lsn, boolean commit);

    /** A change was published. */
    void published();

    /** A transaction began arriving (pgoutput's Begin carries its commit time); it is confirmed later, or never. */
    void began(long commitTimeMillis);
  }

  private final Connection connection;
  private final PGReplicationStream stream;
  private final Transport transport;
  private final Duration flushDeadline;
  private final TransactionAssembler assembler;
  private final Progress progress;
  private final Producer producer;
  private final ServerClock serverClock;
  private final WalLayout layout;
  /** Encodes envelopes on the session's thread, the only one that publishes. */
  private final EnvelopeWriter writer = new EnvelopeWriter();
  private @Nullable Lsn unconfirmed;
  private int commitsSinceConfirm;
  private long lastConfirmNanos = System.nanoTime();
  private Lsn confirmedLsn;
  /** The position of the last heartbeat this session sent; the stream's start before the first. */
  private Lsn positionSent;
  /** The time of the last heartbeat this session sent (epoch ms, PostgreSQL's clock), 0 before it knew one. */
  private long atSent;
  private long lastPositionNanos = System.nanoTime() - POSITION_EVERY_NANOS;

  private ReplicationSession(Connection connection, PGReplicationStream stream, Transport transport,
      Duration flushDeadline, Function<String, @Nullable Entity> entities, Progress progress, WalLayout layout,
      Lsn start, Producer producer, ServerClock serverClock) {
    this.connection = connection;
    this.producer = producer;
    this.serverClock = serverClock;
    this.stream = stream;
    this.transport = transport;
    this.flushDeadline = flushDeadline;
    this.progress = progress;
    this.layout = layout;
    this.confirmedLsn = start;
    this.positionSent = start;
    this.assembler = new TransactionAssembler(entities, producer, change -> {
      transport.publish(change.schema().subject(), envelope(change));
      progress.published();
    });
  }

  /**
   * The envelope of {@code change}, written from its text ({@link EnvelopeWriter}); when it is longer than the bus
   * takes, the envelope of the typed change cut to its key ({@link ChangeEvent#keyOnly}), so consumers re-read the
   * row instead of the slot stalling on it.
   *
   * @throws TransportUnavailableException when even the key alone is over the bus's limit
   */
  private byte[] envelope(WalChange change) {
    byte[] whole = writer.encode(change);
    long max = transport.maxPayload();
    if (whole.length <= max) {
      return whole;
    }
    TableSchema schema = change.schema();
    ChangeEvent event = change.event();
    byte[] cut = ChangeEnvelope.encode(event.keyOnly(schema.keyColumns(), schema.columnTypes().keySet()),
        schema.columnTypes());
    if (cut.length > max) {
      throw new TransportUnavailableException("The change at " + event.lsn() + " of " + event.table() + " is "
          + cut.length + " bytes even with its key alone, over the bus's limit of " + max + " bytes.",
          "Raise the NATS server's max_payload (default 1 MB).");
    }
    LOG.log(Level.WARNING, "The change at " + event.lsn() + " of " + event.table() + " (" + whole.length
        + " bytes) is over the bus's limit of " + max + " bytes: sent with its key only, consumers re-read it");
    return cut;
  }

  /**
   * Opens the stream on {@code slot} from {@code start}; {@code layout} is the server's WAL page geometry; changes
   * and heartbeats go out under {@code producer}, heartbeats timed by {@code serverClock}.
   *
   * @throws SQLException when the connection or the stream cannot be opened
   */
  static ReplicationSession open(String jdbcUrl, Properties replicationProperties, String slot, String publication,
      Lsn start, Transport transport, Duration flushDeadline, Function<String, @Nullable Entity> entities,
      Progress progress, WalLayout layout, Producer producer, ServerClock serverClock) throws SQLException {
    Connection c = DriverManager.getConnection(jdbcUrl, replicationProperties);
    try {
      PGReplicationStream s = c.unwrap(PGConnection.class).getReplicationAPI().replicationStream().logical()
          .withSlotName(slot)
          .withStartPosition(LogSequenceNumber.valueOf(start.value()))
          .withSlotOption("proto_version", "1")
          .withSlotOption("publication_names", publication)
          .withSlotOption("messages", "true")
          .withStatusInterval(10, TimeUnit.SECONDS)
          .withAutomaticFlush(false)
          .start();
      return new ReplicationSession(c, s, transport, flushDeadline, entities, progress, layout, start, producer,
          serverClock);
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /**
   * Streams until {@code keepGoing} turns false (then returns normally) or the stream fails (then throws).
   *
   * @throws SQLException when the replication connection fails
   * @throws io.runnel.bus.TransportUnavailableException when the bus refuses a change (nothing past the last
   *     confirmed commit is confirmed)
   */
  void run(BooleanSupplier keepGoing) throws SQLException {
    while (keepGoing.getAsBoolean()) {
      ByteBuffer buffer = stream.readPending();
      if (buffer == null) {
        if (assembler.inTransaction()) {
          LockSupport.parkNanos(IN_TRANSACTION_PARK_NANOS);
        } else {
          idle();
          LockSupport.parkNanos(IDLE_PARK_NANOS);
        }
        continue;
      }
      WalMessage message = PgOutputDecoder.decode(buffer);
      if (message instanceof WalMessage.Begin begin) {
        progress.began(begin.commitTimeMicros() / 1000 + TransactionAssembler.POSTGRES_EPOCH_MILLIS);
      }
      WalMessage.Commit commit = assembler.accept(message);
      if (commit != null) {
        unconfirmed = commit.endLsn();
        commitsSinceConfirm++;
        if (commitsSinceConfirm >= CONFIRM_EVERY_COMMITS
            || System.nanoTime() - lastConfirmNanos >= CONFIRM_EVERY_NANOS) {
          confirm();
        }
      }
    }
  }

  /**
   * Between transactions, with everything received published: sends a position heartbeat when due, confirms what
   * is unconfirmed (flushing the bus, the heartbeat with it), and confirms a keepalive's position when due.
   */
  private void idle() throws SQLException {
    boolean heartbeat = publishPosition();
    if (unconfirmed != null) {
      confirm();
    } else if (heartbeat) {
      transport.flush(flushDeadline);
    }
    confirmKeepalive();
  }

  /**
   * Publishes a position heartbeat when the server's reported position passed the last one sent (at most one every
   * {@link #POSITION_EVERY_NANOS}), or when only its time moved (at most one every
   * {@link #POSITION_IDLE_EVERY_NANOS}); returns whether it did. A position on a page boundary is moved past the
   * page's header ({@link WalLayout#recordStart}), where no record can start, so it compares with
   * {@code pg_current_wal_insert_lsn()}.
   */
  private boolean publishPosition() {
    long now = System.nanoTime();
    if (now - lastPositionNanos < POSITION_EVERY_NANOS) {
      return false;
    }
    Lsn through = layout.recordStart(new Lsn(stream.getLastReceiveLSN().asLong()));
    boolean moved = through.compareTo(positionSent) > 0;
    Lsn point = moved ? through : positionSent;
    long at = serverClock.asOf(point);
    boolean timeMoved = at > atSent && now - lastPositionNanos >= POSITION_IDLE_EVERY_NANOS;
    if (point.equals(Lsn.ZERO) || (!moved && !timeMoved)) {
      return false;
    }
    transport.publish(Subjects.POSITION,
        BusEnvelope.encode(new PositionEvent(point, producer.id(), producer.nextSeq(), at)));
    positionSent = point;
    atSent = at;
    lastPositionNanos = now;
    return true;
  }

  private void confirm() throws SQLException {
    Lsn lsn = unconfirmed;
    if (lsn == null) {
      return;
    }
    transport.flush(flushDeadline);
    // Told before the server hears it, so the replicator's memory is never behind the slot (SlotGuard reads a slot
    // ahead of it as moved by someone else).
    progress.confirmed(lsn, true);
    report(lsn);
    unconfirmed = null;
    commitsSinceConfirm = 0;
  }

  /**
   * Between transactions, with everything received handled and confirmed, confirms the position the server's
   * keepalives report (at most once a second). pgoutput sends nothing for transactions that touch no published
   * table, so without this the slot would hold the WAL of every other table's writes while Runnel's tables are
   * quiet. Safe: the server sends changes in order, so every change before that position has been handled.
   */
  private void confirmKeepalive() throws SQLException {
    if (System.nanoTime() - lastConfirmNanos < TimeUnit.SECONDS.toNanos(1)) {
      return;
    }
    Lsn received = new Lsn(stream.getLastReceiveLSN().asLong());
    if (received.compareTo(confirmedLsn) > 0) {
      progress.confirmed(received, false);
      report(received);
    }
  }

  private void report(Lsn lsn) throws SQLException {
    LogSequenceNumber l = LogSequenceNumber.valueOf(lsn.value());
    stream.setAppliedLSN(l);
    stream.setFlushedLSN(l);
    stream.forceUpdateStatus();
    confirmedLsn = lsn;
    lastConfirmNanos = System.nanoTime();
  }

  /** Closes the stream and its connection, from any thread; a running {@link #run} then fails or returns. */
  @Override
  public void close() {
    try {
      if (!stream.isClosed()) {
        stream.close();
      }
    } catch (SQLException | RuntimeException e) {
      // The connection is going away anyway; closing it below is what matters.
    }
    try {
      connection.close();
    } catch (SQLException e) {
      // Already broken: nothing more to release.
    }
  }
}
