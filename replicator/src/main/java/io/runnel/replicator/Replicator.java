package io.runnel.replicator;

import io.micrometer.core.instrument.MeterRegistry;
import io.runnel.bus.BusHealth;
import io.runnel.bus.Transport;
import io.runnel.dsl.server.Channel;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.protocol.Lsn;
import io.runnel.time.Sleeper;
import io.runnel.time.Threads;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Streams a PostgreSQL database's WAL onto the bus: one {@link ChangeEvent} per row change, in commit order,
 * losing nothing.
 *
 * <p>Lifecycle ({@code docs/replicator.md}): take the slot's session advisory lock ({@link LeaderLock}) on a
 * connection of its own, or wait as a standby and retry; run {@link Preflight}; find the slot ({@link SlotGuard}: a
 * slot that was dropped, invalidated or moved by someone else is made again and announced as lost,
 * {@code X_REPLICATION_SLOT_LOST}, under a new producer, so every consumer sees a gap); stream from the slot's
 * confirmed position; confirm the slot only after the bus accepted every change up to a commit. A stream that ends is
 * redialled with jittered exponential backoff, capped ({@link Backoff}); a lost lock session stops the stream at
 * once. Delivery is at least once: a redelivered change carries the identical LSN. While streaming, the lock's
 * session is probed every 500 ms for the lag ({@link LagMeter}) and the slot's WAL retention is read every 10 s
 * ({@link WalRetention}).
 *
 * <pre>{@code
 * Replicator r = Replicator.builder().database(url).entities(entities).transport(bus).build();
 * r.start();   // returns at once; r.stats() tells what it is doing
 * r.stop();
 * }</pre>
 */
public final class Replicator implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(Replicator.class.getName());

  /** The default minimum of WAL a slot can still take before PostgreSQL may invalidate it: 1 GiB. */
  public static final long DEFAULT_WAL_SAFE_MIN_BYTES = 1L << 30;

  private final DatabaseUrl database;
  private final DatabaseUrl replication;
  private final String slot;
  private final String publication;
  private final List<Entity> entities;
  private final List<Channel> channels;
  private final Map<String, Entity> entityByTable;
  private final Transport transport;
  private final Clock clock;
  private final Duration standbyRetry;
  private final Backoff backoff;
  private final Duration flushDeadline;
  private final long walSafeMinBytes;
  private final Sleeper sleeper;
  private final ServerClock serverClock = new ServerClock();
  private final LagMeter lag = new LagMeter(serverClock);
  /** Held here because the meters hold it weakly; null without meters. */
  // Never read: holding it is its use.
  @SuppressWarnings("UnusedVariable")
  private final @Nullable BusHealth busHealth;

  private final Object lock = new Object();
  private volatile boolean running;
  private volatile @Nullable Thread thread;
  private volatile ReplicatorStats.State state = ReplicatorStats.State.STOPPED;
  private volatile @Nullable Lsn confirmed;
  /** The last commit confirmed (a keepalive's position is not one): what the state row's published position holds. */
  private volatile @Nullable Lsn publishedThrough;
  /** The producer changes go out under: a new one when the slot was lost. */
  private volatile Producer producer = Producer.create();
  /** The identity of the slot streamed last (its creation position), or null. */
  private volatile @Nullable Lsn slotCreatedAt;
  private volatile @Nullable WalRetention retention;
  private volatile @Nullable String lastFailure;
  private volatile List<String> warnings = List.of();
  private final AtomicLong restarts = new AtomicLong();
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong slotLost = new AtomicLong();

  private Replicator(Builder b) {
    this.database = Objects.requireNonNull(b.database, "database");
    this.replication = b.replication != null ? b.replication : b.database;
    new ReplicatorConfig(database, replication, b.slot, b.publication);
    this.slot = b.slot;
    this.publication = b.publication;
    Map<String, Entity> byTable = new LinkedHashMap<>();
    for (Entity e : b.entities) {
      byTable.putIfAbsent(e.qualifiedTable(), e);
    }
    for (Channel c : b.channels) {
      for (Channel.Records r : c.records()) {
        byTable.putIfAbsent(r.entity().qualifiedTable(), r.entity());
      }
    }
    this.entities = List.copyOf(byTable.values());
    this.channels = List.copyOf(b.channels);
    this.entityByTable = byTable;
    this.transport = Objects.requireNonNull(b.transport, "transport");
    this.clock = b.clock;
    this.standbyRetry = b.standbyRetry;
    this.backoff = new Backoff(b.initialBackoff, b.maxBackoff);
    this.flushDeadline = b.flushDeadline;
    this.walSafeMinBytes = b.walSafeMinBytes;
    this.sleeper = b.sleeper;
    MeterRegistry meters = b.meters;
    if (meters == null) {
      this.busHealth = null;
    } else {
      BusHealth health = BusHealth.watch(transport);
      this.busHealth = health;
      ReplicatorMeters.register(this, health, meters);
    }
  }

  /** A builder; {@link Builder#database}, {@link Builder#transport} are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** Starts streaming on a background thread; returns at once. Does nothing when already started. */
  public void start() {
    synchronized (lock) {
      if (running) {
        return;
      }
      running = true;
      thread = Threads.daemon("runnel-replicator-" + slot, this::loop);
    }
  }

  /** Stops streaming and releases the slot's lock; waits up to 10 s for the stream to close. */
  public void stop() {
    Thread t;
    synchronized (lock) {
      running = false;
      t = thread;
      thread = null;
    }
    if (t != null) {
      t.interrupt();
      try {
        t.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    state = ReplicatorStats.State.STOPPED;
    forgetLag();
  }

  /** Same as {@link #stop()}. */
  @Override
  public void close() {
    stop();
  }

  /** What the replicator is doing now. */
  public ReplicatorStats stats() {
    Lsn c = confirmed;
    WalRetention w = retention;
    return new ReplicatorStats(state, restarts.get(), c, lag.bytes(), lag.seconds(clock.millis()), published.get(),
        lastFailure,
        warnings, slotLost.get(), w, w != null && w.below(walSafeMinBytes));
  }

  private void loop() {
    while (running) {
      boolean streamed = false;
      try (Connection lockConnection = DriverManager.getConnection(database.jdbcUrl(), database.properties())) {
        if (!LeaderLock.tryTake(lockConnection, slot)) {
          state = ReplicatorStats.State.STANDBY;
          forgetLag();
          sleep(standbyRetry);
          continue;
        }
        state = ReplicatorStats.State.STARTING;
        List<String> found = new ArrayList<>(Preflight.run(lockConnection, publication, entities, channels));
        Lsn start = openSlot(lockConnection);
        watchRetention(lockConnection, found);
        if (!found.equals(warnings)) {
          found.stream().filter(w -> !warnings.contains(w)).forEach(w -> LOG.log(Level.WARNING, w));
        }
        warnings = List.copyOf(found);
        // Before the stream: one the bus refuses ends within milliseconds, sooner than its watchdog's first probe,
        // so without this the lag would read 0 while nothing is confirmed.
        lag.probe(lockConnection, confirmed);
        streamed = stream(lockConnection, start);
      } catch (RunnelException e) {
        fail(e.code().name() + ": " + e.cause() + " Fix: " + e.fix(), e);
      } catch (SQLException e) {
        fail("X_REPLICATION_FAILED: " + e.getMessage() + " (SQLState " + e.getSQLState() + ")", e);
      } catch (RuntimeException e) {
        fail("X_INTERNAL: " + e, e);
      }
      if (!running) {
        break;
      }
      restarts.incrementAndGet();
      state = ReplicatorStats.State.BACKING_OFF;
      sleep(backoff.next(streamed));
    }
    state = ReplicatorStats.State.STOPPED;
  }

  /**
   * Finds the slot ({@link SlotGuard}) and records this replicator as its streamer; returns where to stream from. A
   * lost slot is logged ({@code X_REPLICATION_SLOT_LOST}, with the range that may be missing), counted, and gets a
   * new producer, so every consumer sees a gap and reads again.
   */
  private Lsn openSlot(Connection c) throws SQLException {
    SlotGuard.Opened opened = SlotGuard.open(c, slot, new SlotGuard.Memory(slotCreatedAt, confirmed, producer.id()));
    SlotGuard.Loss loss = opened.loss();
    if (loss != null) {
      producer = Producer.create();
      slotLost.incrementAndGet();
      confirmed = opened.start();
      publishedThrough = null;
      LOG.log(Level.ERROR, ErrorCode.X_REPLICATION_SLOT_LOST.name() + ": replication slot '" + slot + "' "
          + loss.what() + ", so the changes committed between " + (loss.from().equals(Lsn.ZERO) ? "an unknown position"
          : loss.from().toString()) + " and " + loss.to() + " may never reach the sync nodes: streaming from "
          + loss.to() + " under a new producer " + producer.id() + ", and every sync node re-reads its windows. Fix: "
          + "give max_slot_wal_keep_size room for the WAL written during the longest replicator outage to survive "
          + "(WAL per hour times hours; watch runnel_replicator_slot_safe_wal_bytes), keep the disk for it, and never "
          + "drop a running app's slot (docs/replicator.md, \"Slot loss\").");
    } else if (confirmed == null) {
      confirmed = opened.start();
    }
    slotCreatedAt = opened.createdAt();
    Lsn known = confirmed;
    SlotGuard.record(c, slot, slotCreatedAt, producer.id(),
        known != null && known.compareTo(opened.start()) > 0 ? known : opened.start());
    return opened.start();
  }

  /**
   * Reads the slot's retention and adds the coded warnings it calls for: {@code X_WAL_RETENTION_UNBOUNDED} when
   * {@code max_slot_wal_keep_size} is -1 (the slot may fill the disk), {@code X_WAL_RETENTION_LOW} when less than the
   * configured minimum of WAL can still be written before PostgreSQL may invalidate the slot.
   */
  private void watchRetention(Connection c, List<String> found) throws SQLException {
    if (WalRetention.maxSlotWalKeepBytes(c) < 0) {
      found.add(ErrorCode.X_WAL_RETENTION_UNBOUNDED.name() + ": max_slot_wal_keep_size is -1 (unlimited), so while "
          + "the replicator is down or behind, slot '" + slot + "' holds back WAL until the disk is full. Fix: ALTER "
          + "SYSTEM SET max_slot_wal_keep_size = '<size>' (room for the longest outage to survive) and SELECT "
          + "pg_reload_conf(); a slot past it is invalidated, which Runnel survives by re-reading "
          + "(docs/replicator.md, \"WAL retention\").");
    }
    WalRetention w = WalRetention.read(c, slot);
    retention = w;
    if (w != null && w.below(walSafeMinBytes)) {
      found.add(retentionLow(w));
    }
  }

  private String retentionLow(WalRetention w) {
    return ErrorCode.X_WAL_RETENTION_LOW.name() + ": slot '" + slot + "' holds " + w.retainedBytes() + " bytes of WAL "
        + "and PostgreSQL invalidates it after " + w.safeWalBytes() + " more (wal_status " + w.walStatus() + "), "
        + "under RUNNEL_WAL_SAFE_MIN_BYTES=" + walSafeMinBytes + ". Fix: find why the replicator is behind (its "
        + "lag, the bus), or raise max_slot_wal_keep_size.";
  }

  /** Streams while running and while the lock session lives; returns whether anything was confirmed. */
  private boolean stream(Connection lockConnection, Lsn start) throws SQLException {
    long confirmedBefore = confirmedCount.get();
    Watchdog watchdog = new Watchdog(lockConnection);
    Properties props = replication.properties();
    props.setProperty("replication", "database");
    props.setProperty("assumeMinServerVersion", "10");
    props.setProperty("preferQueryMode", "simple");
    WalLayout layout = WalLayout.read(lockConnection);
    try (ReplicationSession session = ReplicationSession.open(replication.jdbcUrl(), props, slot, publication, start,
        transport, flushDeadline, entityByTable::get, new ReplicationSession.Progress() {
          @Override
          public void confirmed(Lsn lsn, boolean commit) {
            confirmed = lsn;
            if (commit) {
              publishedThrough = lsn;
            }
            lag.confirmed();
            confirmedCount.incrementAndGet();
          }

          @Override
          public void began(long commitTimeMillis) {
            lag.began(commitTimeMillis);
          }

          @Override
          public void published() {
            published.incrementAndGet();
          }
        }, layout, producer, serverClock)) {
      state = ReplicatorStats.State.STREAMING;
      lastFailure = null;
      Thread w = Threads.virtual("runnel-replicator-watchdog", watchdog);
      try {
        session.run(() -> running && watchdog.alive());
      } finally {
        watchdog.stop();
        w.interrupt();
      }
      if (running && !watchdog.alive()) {
        throw new ReplicationException("The advisory lock's session ended, so this replicator stopped streaming.",
            "Nothing to do: it competes for the lock again. Check the database's logs if this repeats.");
      }
    }
    return confirmedCount.get() > confirmedBefore;
  }

  private final AtomicLong confirmedCount = new AtomicLong();

  /**
   * Probes the lock's session every 500 ms (reading the WAL position for the lag and PostgreSQL's clock for the
   * heartbeats' time), and every 10 s reads the slot's retention and moves the state row's published position;
   * stops the stream when the session is lost.
   */
  private final class Watchdog implements Runnable {
    private static final Duration PROBE_EVERY = Duration.ofMillis(500);
    private static final long SLOW_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
    private final Connection connection;
    private volatile boolean alive = true;
    private volatile boolean stopped;
    private long lastSlowNanos = System.nanoTime();
    private @Nullable Lsn recordedPublished;

    Watchdog(Connection connection) {
      this.connection = connection;
    }

    boolean alive() {
      return alive;
    }

    void stop() {
      stopped = true;
    }

    @Override
    public void run() {
      while (!stopped && alive) {
        try {
          lag.probe(connection, confirmed);
          if (System.nanoTime() - lastSlowNanos >= SLOW_EVERY_NANOS) {
            lastSlowNanos = System.nanoTime();
            try {
              slow();
            } catch (SQLException e) {
              // Bookkeeping, not the lock's session: the stream goes on, and the next reading tries again.
              LOG.log(Level.WARNING, "Could not read slot '" + slot + "''s retention or record its published position: "
                  + e.getMessage() + " (SQLState " + e.getSQLState() + ")");
            }
          }
        } catch (SQLException | RuntimeException e) {
          if (!stopped) {
            alive = false;
            LOG.log(Level.WARNING, "Lost the replicator lock's session; stopping the stream: " + e.getMessage());
          }
          return;
        }
        try {
          sleeper.sleep(Watchdog.PROBE_EVERY);
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    /** The retention reading (a newly low one is logged once) and the published position, when it moved. */
    private void slow() throws SQLException {
      WalRetention w = WalRetention.read(connection, slot);
      boolean wasLow = retention != null && retention.below(walSafeMinBytes);
      retention = w;
      if (w != null && w.below(walSafeMinBytes) && !wasLow) {
        LOG.log(Level.WARNING, retentionLow(w));
      }
      Lsn p = publishedThrough;
      if (p != null && !p.equals(recordedPublished)) {
        SlotGuard.published(connection, slot, p);
        recordedPublished = p;
      }
    }
  }

  /** A replicator that does not stream has no lag and no retention of its own ({@link LagMeter#forget}). */
  private void forgetLag() {
    lag.forget();
    retention = null;
  }

  private void fail(String failure, Exception e) {
    if (!running) {
      return;
    }
    lastFailure = failure;
    LOG.log(Level.WARNING, "Replication stopped: " + failure
        + (e instanceof RunnelException ? "" : " (" + e.getClass().getSimpleName() + ")"));
  }

  private void sleep(Duration d) {
    try {
      sleeper.sleep(d);
    } catch (InterruptedException e) {
      // stop() interrupts: the loop re-checks running.
    }
  }

  /** Collects a replicator's settings. */
  public static final class Builder {
    private @Nullable DatabaseUrl database;
    private @Nullable DatabaseUrl replication;
    private String slot = ReplicatorConfig.DEFAULT_NAME;
    private String publication = ReplicatorConfig.DEFAULT_NAME;
    private final List<Entity> entities = new ArrayList<>();
    private final List<Channel> channels = new ArrayList<>();
    private @Nullable Transport transport;
    private Clock clock = Clock.systemUTC();
    private Duration standbyRetry = Duration.ofSeconds(2);
    private Duration initialBackoff = Duration.ofMillis(200);
    private Duration maxBackoff = Duration.ofSeconds(10);
    private Duration flushDeadline = Duration.ofSeconds(5);
    private long walSafeMinBytes = DEFAULT_WAL_SAFE_MIN_BYTES;
    private Sleeper sleeper = Sleeper.SYSTEM;
    private @Nullable MeterRegistry meters;

    private Builder() {}

    /**
     * Where the replicator's meters go (default none): {@code runnel_replicator_lag_bytes},
     * {@code runnel_replicator_lag_seconds}, {@code runnel_replicator_state{state}},
     * {@code runnel_replicator_published_total}, {@code runnel_replicator_restarts_total},
     * {@code runnel_replicator_slot_lost_total}, {@code runnel_replicator_slot_retained_bytes},
     * {@code runnel_replicator_slot_safe_wal_bytes}, {@code runnel_replicator_slot_wal_status{status}}, and its bus's
     * {@code runnel_bus_connected} and {@code runnel_bus_reconnects_total}. A process that also runs a sync node passes
     * the node's registry ({@code SyncNode.Builder.meters}), so one {@code /metrics} shows both.
     */
    public Builder meters(MeterRegistry meters) {
      this.meters = Objects.requireNonNull(meters, "meters");
      return this;
    }

    /** The database to replicate (required); also the replication connection's unless {@link #replication}. */
    public Builder database(DatabaseUrl database) {
      this.database = Objects.requireNonNull(database, "database");
      return this;
    }

    /** The replication connection's database (same host, port and database; another user allowed). */
    public Builder replication(DatabaseUrl replication) {
      this.replication = Objects.requireNonNull(replication, "replication");
      return this;
    }

    /** Database, replication URL, slot, publication and minimum of safe WAL from a validated configuration. */
    public Builder config(ReplicatorConfig config) {
      if (config.database() != null) {
        database(config.database());
      }
      if (config.replication() != null) {
        replication(config.replication());
      }
      return slot(config.slot()).publication(config.publication()).walSafeMinBytes(config.walSafeMinBytes());
    }

    /** The slot's name (default {@code runnel}). */
    public Builder slot(String slot) {
      this.slot = Objects.requireNonNull(slot, "slot");
      return this;
    }

    /** The publication's name (default {@code runnel}). */
    public Builder publication(String publication) {
      this.publication = Objects.requireNonNull(publication, "publication");
      return this;
    }

    /** The declared entities: their tables are published, their types and keys shape the events. */
    public Builder entities(Collection<Entity> entities) {
      this.entities.addAll(entities);
      return this;
    }

    /**
     * The records channels: their entities are published too, and preflight warns
     * ({@code X_LIVE_REPLICA_IDENTITY}) for each whose param columns are not all key columns on a table without
     * REPLICA IDENTITY FULL, since its deletes and moves would reach the nodes without the old row's params.
     */
    public Builder channels(Collection<Channel> channels) {
      this.channels.addAll(channels);
      return this;
    }

    /** The entities and the channels of {@code declarations}: {@link #entities} and {@link #channels}. */
    public Builder declarations(Declarations declarations) {
      return entities(declarations.entities()).channels(declarations.channels());
    }

    /**
     * How the replicator pauses: the standby's retry, the backoff before a redial, the lock session's probe every
     * 500 ms (default {@link Sleeper#SYSTEM}). A test passes one it drives, so it does not wait for the pauses.
     */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /** The bus (required). */
    public Builder transport(Transport transport) {
      this.transport = Objects.requireNonNull(transport, "transport");
      return this;
    }

    /** The clock for lag (default UTC system clock). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** How often a standby retries the lock (default 2 s). */
    public Builder standbyRetry(Duration standbyRetry) {
      this.standbyRetry = positive(standbyRetry, "standbyRetry");
      return this;
    }

    /** The first and the largest redial backoff (defaults 200 ms and 10 s); each attempt doubles, with jitter. */
    public Builder backoff(Duration initial, Duration max) {
      this.initialBackoff = positive(initial, "initial backoff");
      this.maxBackoff = positive(max, "max backoff");
      return this;
    }

    /**
     * The least WAL, in bytes, the slot must still be able to take before PostgreSQL may invalidate it
     * ({@code safe_wal_size}, under {@code max_slot_wal_keep_size}; default 1 GiB, {@code RUNNEL_WAL_SAFE_MIN_BYTES}):
     * below it the replicator warns {@code X_WAL_RETENTION_LOW} and its stats say {@code retentionLow}.
     *
     * @throws IllegalArgumentException for a negative value
     */
    public Builder walSafeMinBytes(long walSafeMinBytes) {
      if (walSafeMinBytes < 0) {
        throw new IllegalArgumentException("walSafeMinBytes is 0 or more, not " + walSafeMinBytes);
      }
      this.walSafeMinBytes = walSafeMinBytes;
      return this;
    }

    /** How long the bus may take to accept a commit's changes before the stream is redialled (default 5 s). */
    public Builder flushDeadline(Duration flushDeadline) {
      this.flushDeadline = positive(flushDeadline, "flushDeadline");
      return this;
    }

    /**
     * The replicator.
     *
     * @throws NullPointerException without a database or transport
     * @throws io.runnel.wire.ConfigInvalidException ({@code X_CONFIG_INVALID}) for a bad slot or publication
     *     name, or a replication database other than the database
     */
    public Replicator build() {
      return new Replicator(this);
    }

    private static Duration positive(Duration d, String what) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive, not " + d);
      }
      return d;
    }
  }
}
