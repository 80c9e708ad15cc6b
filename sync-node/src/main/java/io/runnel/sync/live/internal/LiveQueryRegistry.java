package io.runnel.sync.live.internal;

import io.runnel.bus.Subjects;
import io.runnel.bus.Subscription;
import io.runnel.bus.Transport;
import io.runnel.dsl.Actor;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import io.runnel.dsl.Select;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Query;
import io.runnel.protocol.Cursor;
import io.runnel.protocol.Position;
import io.runnel.protocol.ReadAnswer;
import io.runnel.protocol.ResumeCursor;
import io.runnel.protocol.WireRecord;
import io.runnel.sync.live.LiveStats;
import io.runnel.time.Sleeper;
import io.runnel.time.Threads;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonLimits;
import io.runnel.wire.JsonValue;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The live query engine of a sync node: one shared window per {@code qid@tenant}, kept up to date from the bus.
 *
 * <p>A subscription names a declared live query and its input; the registry decodes and checks the input, applies
 * the query's policy gate, pins a tenant-scoped entity to the actor's org (refusing an input that names another
 * tenant's record by key: {@link ResolvedQuery}), and joins the window of that query, input and tenant (a source
 * that reads the actor has a window per actor), creating it with one shared read when it is new. Frames go to the
 * {@link LiveSubscriber} given.
 *
 * <pre>{@code
 * LiveQueryRegistry live = LiveQueryRegistry.builder().declarations(d).dataSource(pool).transport(bus).build();
 * live.start();
 * LiveSubscription s = live.subscribe(port, "s1", actor, "liveFeed", input);
 * }</pre>
 */
public final class LiveQueryRegistry implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(LiveQueryRegistry.class.getName());

  private final Declarations declarations;
  private final Transport transport;
  private final JsonLimits inputLimits;
  private final Duration grace;
  private final int maxWindows;
  private final WindowReader reader;
  private final RoutingIndex routing;
  private final RecentTransactions recent;
  private final PatchRing.Budget ringBudget;
  private final DeliveredPosition delivered = new DeliveredPosition();
  private final LiveWindow.Context context;
  private final ChangeDispatcher dispatcher;
  private final Clock clock;
  /** When {@link #start} ran (epoch ms, the node's clock), or 0 before. */
  private volatile long startedAtMillis;
  private final ChangeListener listener;
  private final ScheduledExecutorService timers = Threads.scheduler("live-windows-grace");
  private final Map<WindowId, LiveWindow> windows = new ConcurrentHashMap<>();
  private final AtomicLong pendingTasks = new AtomicLong();
  private final Object lock = new Object();
  private @Nullable Subscription busSubscription;

  private LiveQueryRegistry(Builder b) {
    this.declarations = Objects.requireNonNull(b.declarations, "declarations");
    this.transport = Objects.requireNonNull(b.transport, "transport");
    this.inputLimits = b.inputLimits;
    this.grace = b.grace;
    this.maxWindows = b.maxWindows;
    this.reader = new WindowReader(Objects.requireNonNull(b.dataSource, "dataSource"), b.readTimeout,
        new LiveCounters());
    Map<String, EntityRef> byName = new HashMap<>();
    Map<String, EntityRef> byTable = new HashMap<>();
    for (Entity e : declarations.entities()) {
      byName.put(e.name(), e.ref());
      byTable.put(e.qualifiedTable(), e.ref());
    }
    this.routing = new RoutingIndex(byTable::get);
    this.recent = new RecentTransactions(b.recentChanges, 100_000);
    this.ringBudget = new PatchRing.Budget(b.ringBytes);
    this.context = new LiveWindow.Context(reader, routing, recent, ringBudget,
        new Semaphore(b.rereadConcurrency), b.clock, b.extraRows, b.snapshotCost,
        b.maxLag.toMillis(), delivered, b.sleeper);
    this.listener = b.listener;
    this.clock = b.clock;
    this.dispatcher = new ChangeDispatcher(byName::get, routing, recent, delivered, this::gap, listener);
  }

  /** A builder; declarations, a data source and a transport are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts reading the bus (one subscription on {@code runnel.changes.>}).
   *
   * @throws io.runnel.bus.TransportUnavailableException when the bus is down
   */
  public void start() {
    synchronized (lock) {
      if (busSubscription == null) {
        startedAtMillis = clock.millis();
        busSubscription = transport.subscribe(Subjects.ALL_CHANGES, dispatcher);
        transport.onReconnect(this::gap);
      }
    }
  }

  /**
   * Subscribes {@code subscriber} as {@code sid} to live query {@code query} with {@code input}, as {@code actor}.
   * The first frame is a {@code snapshot}, once the window's read lands.
   *
   * @throws LiveQueryException {@code X_LIVE_QUERY_UNKNOWN} for a query not declared or not live,
   *     {@code X_FORBIDDEN} when the policy refuses the actor, {@code X_TENANCY_ACTOR_ORG_REQUIRED} for a
   *     tenant-scoped entity and an actor with no org, {@code X_TENANCY_ACTOR_MISMATCH} when the input pins
   *     another tenant or names another tenant's record by its whole key, {@code X_TIMEOUT} or
   *     {@code X_INTERNAL} when checking that key's tenant runs past the read deadline or fails
   * @throws io.runnel.wire.InputInvalidException ({@code X_INPUT_INVALID}) naming the input field at fault
   */
  public LiveSubscription subscribe(LiveSubscriber subscriber, String sid, Actor actor, String query,
      JsonValue input) {
    return subscribe(subscriber, sid, actor, query, input, null);
  }

  /**
   * The same, resuming from {@code cursor} when given: a delta of patches out of the window's ring when the cursor
   * is of this window, at or above its ring's floor, younger than {@code maxLag} and cheaper than a snapshot (no
   * database read); otherwise one snapshot.
   *
   * @throws LiveQueryException as {@link #subscribe(LiveSubscriber, String, Actor, String, JsonValue)}
   * @throws io.runnel.wire.InputInvalidException naming the input field at fault
   */
  public LiveSubscription subscribe(LiveSubscriber subscriber, String sid, Actor actor, String query,
      JsonValue input, @Nullable ResumeCursor cursor) {
    Objects.requireNonNull(subscriber, "subscriber");
    Objects.requireNonNull(sid, "sid");
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(input, "input");
    Query<?> q = declarations.query(Objects.requireNonNull(query, "query"))
        .filter(d -> d.ref().live())
        .orElseThrow(() -> new LiveQueryException(ErrorCode.X_LIVE_QUERY_UNKNOWN,
            "No live query is declared as '" + query + "'.", "Subscribe to a declared live query by its name."));
    return join(q, subscriber, sid, actor, input, cursor);
  }

  /**
   * Reads {@code query} once as {@code actor}: the same gate, tenancy and row rule as a live subscription, one
   * read of the database, no window kept ({@code GET /v1/query}). Any declared query may be read, live or not.
   *
   * @param input the input object, as the request carried it
   * @throws LiveQueryException {@code X_LIVE_QUERY_UNKNOWN}, {@code X_FORBIDDEN}, {@code X_TENANCY_ACTOR_MISMATCH}
   *     (the input pins another tenant, or names another tenant's record by its whole key),
   *     {@code X_TENANCY_ACTOR_ORG_REQUIRED}, or {@code X_TIMEOUT} for a read past its deadline
   * @throws io.runnel.wire.InputInvalidException naming the input field at fault
   * @throws SQLException when the database fails otherwise
   */
  public ReadAnswer read(Actor actor, String query, JsonValue input) throws SQLException {
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(input, "input");
    Query<?> q = declarations.query(Objects.requireNonNull(query, "query"))
        .orElseThrow(() -> new LiveQueryException(ErrorCode.X_LIVE_QUERY_UNKNOWN,
            "No query is declared as '" + query + "'.", "Read a declared query by its name."));
    ResolvedQuery resolved = ResolvedQuery.resolve(q, actor, input, inputLimits);
    Entity entity = resolved.entity();
    refuseOtherTenantsRecord(resolved);
    WindowRead read = reader.readOnce(entity, resolved.select());
    List<WireRecord> records = new ArrayList<>(read.rows().size());
    for (Row row : read.rows()) {
      if (q.policy().visible(actor, row)) {
        records.add(new WireRecord(entity.name(), entity.ref().keyOf(row), entity.ref().rowToJson(row)));
      }
    }
    return new ReadAnswer(records, read.position().point());
  }

  private LiveSubscription join(Query<?> q, LiveSubscriber subscriber, String sid, Actor actor, JsonValue json,
      @Nullable ResumeCursor cursor) {
    ResolvedQuery resolved = ResolvedQuery.resolve(q, actor, json, inputLimits);
    Select select = resolved.select();
    Entity entity = resolved.entity();
    WindowId id = resolved.id();
    if (resolved.otherTenant() != null && !windows.containsKey(id)) {
      // A window that exists was probed when it was made: its query, input and tenant are this subscriber's.
      try {
        refuseOtherTenantsRecord(resolved);
      } catch (SQLException e) {
        String errorId = UUID.randomUUID().toString();
        LOG.log(System.Logger.Level.WARNING, "errorId=" + errorId + ": the tenancy probe of " + id.logName()
            + " failed (SQLState " + e.getSQLState() + ")");
        throw new LiveQueryException(ErrorCode.X_INTERNAL, "Checking the tenant of a record failed (errorId "
            + errorId + ").", "Retry; if it repeats, report the errorId.");
      }
    }
    LiveWindow window;
    synchronized (lock) {
      if (!windows.containsKey(id) && windows.size() >= maxWindows && !letGoOfAnIdleWindow()) {
        throw new LiveQueryException(ErrorCode.X_SUBSCRIPTION_LIMIT, "The node keeps " + maxWindows
            + " distinct windows, its limit, and every one has subscribers.",
            "Retry later or on another node; the operator adds nodes or raises the limit.");
      }
      Select pinned = select;
      window = windows.computeIfAbsent(id, k -> {
        LiveWindow[] self = new LiveWindow[1];
        self[0] = new LiveWindow(k, entity, pinned, new Lane("window-" + k, pendingTasks), context, () -> {
          synchronized (lock) {
            windows.remove(k, self[0]);
          }
        });
        self[0].start();
        return self[0];
      });
      window.subscriberCount().incrementAndGet();
    }
    Cursor resumeFrom = null;
    if (cursor != null) {
      if (cursor.qid().equals(id.toString())) {
        resumeFrom = cursor.cursor();
      } else {
        reader.counters().resumesSnapshot.incrementAndGet();
      }
    }
    window.subscribe(new WindowSubscribers.Sub(sid, subscriber, actor, q.policy().rowRule()), resumeFrom,
        cursor == null ? Set.of() : Set.copyOf(cursor.ids()));
    LiveWindow joined = window;
    AtomicBoolean open = new AtomicBoolean(true);
    return new LiveSubscription() {
      @Override
      public WindowId window() {
        return joined.id();
      }

      @Override
      public void close() {
        if (open.compareAndSet(true, false)) {
          leave(joined, subscriber, sid);
        }
      }
    };
  }

  /** Closes one window without subscribers (kept for the grace period), to make room; false when none is idle. */
  // windows is a ConcurrentHashMap, whose iterator is weakly consistent and never throws for a removal; the loop
  // ends at its first removal anyway.
  @SuppressWarnings("ModifyCollectionInEnhancedForLoop")
  private boolean letGoOfAnIdleWindow() {
    for (LiveWindow w : windows.values()) {
      if (w.subscriberCount().get() == 0 && windows.remove(w.id(), w)) {
        w.close();
        return true;
      }
    }
    return false;
  }

  /**
   * Runs the query's tenancy probe, if it has one.
   *
   * @throws LiveQueryException {@code X_TENANCY_ACTOR_MISMATCH} when the input names another tenant's record by
   *     key, {@code X_TIMEOUT} past the read deadline
   * @throws SQLException when the database fails otherwise
   */
  private void refuseOtherTenantsRecord(ResolvedQuery resolved) throws SQLException {
    Select probe = resolved.otherTenant();
    if (probe != null && reader.finds(resolved.entity(), probe)) {
      throw resolved.otherTenantsRecord();
    }
  }

  // The grace timer needs no handle: it checks when it fires whether the window is still idle; Threads.scheduler logs
  // one that fails.
  @SuppressWarnings("FutureReturnValueIgnored")
  private void leave(LiveWindow window, LiveSubscriber subscriber, String sid) {
    window.unsubscribe(subscriber, sid);
    if (window.subscriberCount().decrementAndGet() == 0) {
      // Kept, with its ring, for the grace period: a reconnect storm after a drain finds it.
      timers.schedule(() -> {
        synchronized (lock) {
          if (window.subscriberCount().get() == 0 && windows.remove(window.id(), window)) {
            window.close();
          }
        }
      }, grace.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /**
   * A bus gap: every window is stale, re-read promptly (a few at a time) and its subscribers re-snapshotted; the
   * change listener hears of it too.
   */
  private void gap() {
    reader.counters().gaps.incrementAndGet();
    for (LiveWindow w : windows.values()) {
      w.stale();
    }
    try {
      listener.gap();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "The change listener failed on a gap", e);
    }
  }

  /**
   * The node's delivered position: the position through which every window has queued the frames its changes
   * caused, for the {@code hello} answer; {@link Position#ZERO} before the first transaction.
   */
  public Position deliveredPosition() {
    return delivered.position();
  }

  /**
   * The node's asOf: the PostgreSQL time (epoch ms) through which every change's frames are queued, from the commit
   * times of the transactions delivered and the times of the replicator's position heartbeats; empty before the
   * first of either.
   */
  public OptionalLong asOf() {
    long at = delivered.asOf();
    return at > 0 ? OptionalLong.of(at) : OptionalLong.empty();
  }

  /**
   * How far behind PostgreSQL the node is, in ms: the node's clock now minus {@link #asOf} (never below 0; a skew
   * between the node's and the database's clocks counts in it); empty before the first position. It grows while
   * nothing arrives: a replicator that streams sends a heartbeat every second even when the database is idle, so an
   * idle database stays near 0 and a stuck or stopped replicator grows.
   */
  public OptionalLong lagMillis() {
    OptionalLong at = asOf();
    return at.isPresent() ? OptionalLong.of(Math.max(0, clock.millis() - at.getAsLong()))
        : OptionalLong.empty();
  }

  /**
   * While the node has no position yet, how long it has been reading the bus, in ms (0 once it has one, and before
   * {@link #start}): a node that never hears a replicator is at least that far behind, which {@code /readyz} counts
   * as lag.
   */
  public long millisWithoutPosition() {
    long started = startedAtMillis;
    return started == 0 || asOf().isPresent() ? 0 : Math.max(0, clock.millis() - started);
  }

  /** How many window reads ran (first reads, refills and re-reads). */
  public long windowReads() {
    return reader.reads();
  }

  /** The registry's counters now. */
  public LiveStats stats() {
    return reader.counters().snapshot(windows.size(), ringBudget.used());
  }

  /** How many windows are open. */
  public int windowCount() {
    return windows.size();
  }

  /**
   * The LSN through which every change the bus delivered has been turned into frames, when no window has work left;
   * null while a window has work left or before the first transaction.
   */
  public @Nullable Position settled() {
    Position d = dispatcher.dispatched();
    return pendingTasks.get() == 0 && !d.equals(Position.ZERO) ? d : null;
  }

  /** Whether every window has finished its work and the dispatcher has handed out everything up to {@code lsn}. */
  public boolean settledThrough(Position lsn) {
    Position d = dispatcher.dispatched();
    return pendingTasks.get() == 0 && !d.equals(Position.ZERO) && d.reached(lsn);
  }

  /** Stops reading the bus and closes every window. */
  @Override
  public void close() {
    synchronized (lock) {
      if (busSubscription != null) {
        busSubscription.close();
        busSubscription = null;
      }
      for (LiveWindow w : windows.values()) {
        w.close();
      }
      windows.clear();
    }
    timers.shutdownNow();
  }

  /** The default node-wide byte budget of every window's patch ring: 64 MiB. */
  public static final long DEFAULT_RING_BYTES = 64L * 1024 * 1024;

  /** Collects a registry's settings. */
  public static final class Builder {
    private @Nullable Declarations declarations;
    private @Nullable DataSource dataSource;
    private @Nullable Transport transport;
    private Clock clock = Clock.systemUTC();
    private Duration readTimeout = Duration.ofSeconds(10);
    private int extraRows = 16;
    private int recentChanges = 50_000;
    private JsonLimits inputLimits = JsonLimits.INPUT_DEFAULTS;
    private Sleeper sleeper = Sleeper.SYSTEM;
    private long ringBytes = DEFAULT_RING_BYTES;
    private int snapshotCost = 250;
    private Duration maxLag = Duration.ofMinutes(10);
    private Duration grace = Duration.ofSeconds(60);
    private int maxWindows = 10_000;
    private int rereadConcurrency = 4;
    private ChangeListener listener = ChangeListener.NONE;

    private Builder() {}

    /**
     * A second reader of the change stream (default none): it hears every transaction and every gap the windows
     * do, in the same order (records channels).
     */
    public Builder changeListener(ChangeListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * At most {@code windows} distinct windows (default 10,000, {@code docs/protocol.md}'s distinct windows per node);
     * at the cap an idle window (no subscriber, kept for resumes) is let go first.
     *
     * @throws IllegalArgumentException when it is not positive
     */
    public Builder maxWindows(int windows) {
      if (windows < 1) {
        throw new IllegalArgumentException("maxWindows must be positive, not " + windows);
      }
      this.maxWindows = windows;
      return this;
    }

    /** The app's declarations (required). */
    public Builder declarations(Declarations declarations) {
      this.declarations = Objects.requireNonNull(declarations, "declarations");
      return this;
    }

    /** Where window reads run (required); a pool such as HikariCP. */
    public Builder dataSource(DataSource dataSource) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      return this;
    }

    /** The bus (required). */
    public Builder transport(Transport transport) {
      this.transport = Objects.requireNonNull(transport, "transport");
      return this;
    }

    /** The clock cursors are stamped with (default UTC). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** A window read's deadline (default 10 s); past it, waiting subscribers get {@code X_TIMEOUT}. */
    public Builder readTimeout(Duration readTimeout) {
      this.readTimeout = Objects.requireNonNull(readTimeout, "readTimeout");
      return this;
    }

    /** Rows a window keeps beyond its limit, so a row leaving rarely costs a read (default 16). */
    public Builder extraRows(int extraRows) {
      if (extraRows < 0) {
        throw new IllegalArgumentException("extraRows must be at least 0, not " + extraRows);
      }
      this.extraRows = extraRows;
      return this;
    }

    /** Changes of recent transactions kept for reads to replay (default 50,000). */
    public Builder recentChanges(int recentChanges) {
      if (recentChanges < 1) {
        throw new IllegalArgumentException("recentChanges must be positive, not " + recentChanges);
      }
      this.recentChanges = recentChanges;
      return this;
    }

    /**
     * How a window pauses between reads that did not land whole, and before it reads again (default
     * {@link Sleeper#SYSTEM}); a test passes one it drives.
     */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /** Input size limits (default depth 32, 10,000 nodes). */
    public Builder inputLimits(JsonLimits inputLimits) {
      this.inputLimits = Objects.requireNonNull(inputLimits, "inputLimits");
      return this;
    }

    /** The node-wide byte budget of every window's patch ring (default 64 MiB); the oldest entries go first. */
    public Builder ringBytes(long ringBytes) {
      if (ringBytes < 0) {
        throw new IllegalArgumentException("ringBytes must be at least 0, not " + ringBytes);
      }
      this.ringBytes = ringBytes;
      return this;
    }

    /** How many patches a snapshot is worth (default 250): a resume replaying more gets a snapshot. */
    public Builder snapshotCost(int snapshotCost) {
      if (snapshotCost < 1) {
        throw new IllegalArgumentException("snapshotCost must be positive, not " + snapshotCost);
      }
      this.snapshotCost = snapshotCost;
      return this;
    }

    /** The oldest cursor that may resume as a delta (default 10 min). */
    public Builder maxLag(Duration maxLag) {
      this.maxLag = Objects.requireNonNull(maxLag, "maxLag");
      return this;
    }

    /** How long a window with no subscribers is kept with its ring (default 60 s). */
    public Builder grace(Duration grace) {
      this.grace = Objects.requireNonNull(grace, "grace");
      return this;
    }

    /** How many stale windows are re-read at once after a bus gap (default 4). */
    public Builder rereadConcurrency(int rereadConcurrency) {
      if (rereadConcurrency < 1) {
        throw new IllegalArgumentException("rereadConcurrency must be positive, not " + rereadConcurrency);
      }
      this.rereadConcurrency = rereadConcurrency;
      return this;
    }

    /** The registry; call {@link LiveQueryRegistry#start()} to read the bus. */
    public LiveQueryRegistry build() {
      return new LiveQueryRegistry(this);
    }
  }
}
