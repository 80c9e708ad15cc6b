package io.runnel.sync.live.internal;

import io.runnel.dsl.ColumnType;
import io.runnel.dsl.Matcher;
import io.runnel.dsl.Row;
import io.runnel.dsl.Select;
import io.runnel.dsl.server.Entity;
import io.runnel.protocol.Cursor;
import io.runnel.protocol.Lsn;
import io.runnel.protocol.Position;
import io.runnel.replicator.ChangeEvent;
import io.runnel.time.Sleeper;
import io.runnel.time.Threads;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * One live window: a query's select for one tenant, its rows, its patch ring and its subscribers. Everything it
 * does runs on its {@link Lane}, one task at a time: reads, subscriber arrivals, and one task per committed
 * transaction.
 *
 * <p>Design (invariant 3b, "the read joins the stream"): a read takes the snapshot and the WAL position P first;
 * while it runs, the window receives every change of its table and they wait in the lane. Afterwards a change
 * whose commit LSN is below P is applied exactly when its transaction is not visible in the read's snapshot; from P
 * on every change applies. A transaction the bus delivered before the window existed but that the snapshot could
 * not see is replayed from {@link RecentTransactions} when the read lands. The window's position is the LSN of the
 * last change it processed, applied or skipped, and only moves forward; a change at or below it is a duplicate.
 * Each transaction becomes at most one patch per subscriber (no list ever shows half a transaction).
 *
 * <p>Reads (first reads, refills, re-reads) run on the lane too, so a read never lands behind a newer one. A task
 * that fails costs only this window: it is re-read and its subscribers re-snapshotted.
 */
final class LiveWindow {

  private static final System.Logger LOG = System.getLogger(LiveWindow.class.getName());

  /** The settings every window of a registry shares. */
  record Context(WindowReader reader, RoutingIndex routing, RecentTransactions recent, PatchRing.Budget ringBudget,
      Semaphore rereads, Clock clock, int extraRows, int snapshotCost, long maxLagMillis,
      DeliveredPosition delivered, Sleeper sleeper) {}

  private final WindowId id;
  private final Entity entity;
  private final Select select;
  private final Matcher matcher;
  private final int capacity;
  private final @Nullable String pinColumn;
  private final @Nullable Object pinValue;
  private final Lane lane;
  private final Context ctx;
  private final Runnable onFailedFirstRead;
  private final Set<String> indexedKeys = ConcurrentHashMap.newKeySet();
  private final AtomicInteger subscriberCount = new AtomicInteger();
  private volatile long addedAt;

  // Lane-confined state.
  private final WindowRows rows;
  private final WindowSubscribers subscribers;
  private final List<Runnable> waiting = new ArrayList<>();
  private final PatchRing ring;
  private boolean loaded;
  private boolean closed;
  /**
   * Whether a re-read is scheduled ({@link #readAgainLater}): at most one is, and meanwhile a transaction's refill
   * tries once instead of holding the lane through its backoff. Read and written on the lane only.
   */
  private boolean rereadPending;
  private @Nullable XidSnapshot snapshot;
  private @Nullable Lsn readPosition;
  /** The LSN of the last bus change processed, applied or skipped: redeliveries at or below it are dropped. */
  private Position processed = Position.ZERO;
  /** The cursor position: the later of {@code processed} and the last read's position; only moves forward. */
  private Position position = Position.ZERO;

  LiveWindow(WindowId id, Entity entity, Select select, Lane lane, Context ctx, Runnable onFailedFirstRead) {
    this.id = id;
    this.entity = entity;
    this.select = select;
    this.matcher = Matcher.of(select);
    this.capacity = Math.min(Select.MAX_LIMIT, select.limit() + ctx.extraRows());
    Map<String, Object> pins = select.routingKey();
    Map.Entry<String, Object> first = pins.isEmpty() ? null : pins.entrySet().iterator().next();
    this.pinColumn = first == null ? null : first.getKey();
    this.pinValue = first == null ? null : first.getValue();
    this.lane = lane;
    this.ctx = ctx;
    this.onFailedFirstRead = onFailedFirstRead;
    this.rows = new WindowRows(entity.ref(), matcher, select.limit(), capacity);
    this.subscribers = new WindowSubscribers(entity.ref(), ctx.reader().counters());
    this.ring = new PatchRing(ctx.ringBudget(), position, List.of());
  }

  WindowId id() {
    return id;
  }

  /** {@code schema.table}. */
  String table() {
    return entity.qualifiedTable();
  }

  @Nullable String pinColumn() {
    return pinColumn;
  }

  @Nullable Object pinValue() {
    return pinValue;
  }

  ColumnType columnType(String column) {
    return entity.ref().column(column).type();
  }

  /** Counts subscribers outside the lane, so the registry can tell when a window is left empty. */
  AtomicInteger subscriberCount() {
    return subscriberCount;
  }

  /** The routing index's addition count when this window was added. */
  long addedAt() {
    return addedAt;
  }

  void addedAt(long sequence) {
    this.addedAt = sequence;
  }

  /**
   * Whether the window might hold {@code row} (it matches the filter, or the filter reads a column the WAL left
   * out); the dispatcher keeps the key index by it.
   */
  boolean mayHold(Row row, List<String> omitted) {
    if (select.filter() != null) {
      for (String c : omitted) {
        if (Filters.reads(select.filter(), c)) {
          return true;
        }
      }
    }
    return matcher.matches(row);
  }

  void indexed(String key) {
    indexedKeys.add(key);
  }

  void unindexed(String key) {
    indexedKeys.remove(key);
  }

  Set<String> indexedKeys() {
    return Set.copyOf(indexedKeys);
  }

  /** Starts the first read. */
  void start() {
    ctx.routing().add(this);
    lane.submit(() -> read(false));
  }

  /**
   * Adds a subscriber: a delta from {@code cursor} when the ring allows it, else a snapshot once the window has
   * rows.
   *
   * @param cursor the subscriber's cursor for this window, or null
   * @param holds the keys the subscriber holds (its cursor's {@code ids})
   */
  void subscribe(WindowSubscribers.Sub s, @Nullable Cursor cursor, Set<String> holds) {
    lane.submit(() -> {
      if (closed) {
        s.port.refuse(s.sid, new LiveQueryException(ErrorCode.X_TIMEOUT,
            "The window " + id + " closed before its read landed.", "Subscribe again."));
        return;
      }
      subscribers.add(s);
      if (!loaded) {
        count(cursor == null ? null : new Resume.Snapshot());
        waiting.add(() -> subscribers.snapshot(s, rows.visible(), cursor()));
        return;
      }
      Resume decision = cursor == null ? null : decide(cursor);
      count(decision);
      switch (decision) {
        case Resume.Delta d -> subscribers.resume(s, d.replay(), holds, cursor());
        case Resume.Snapshot sn -> subscribers.snapshot(s, rows.visible(), cursor());
        case null -> subscribers.snapshot(s, rows.visible(), cursor());
      }
    });
  }

  private Resume decide(Cursor cursor) {
    if (ctx.clock().millis() - cursor.at() > ctx.maxLagMillis()) {
      return new Resume.Snapshot();
    }
    if (cursor.lsn().isBefore(ring.floor())
        || (ring.floorAmbiguous() && cursor.lsn().equals(ring.floor()))) {
      return new Resume.Snapshot();
    }
    PatchRing.Replay replay = ring.since(cursor.lsn());
    if (replay == null) {
      return new Resume.Snapshot();
    }
    if (replay.entries().size() >= ctx.snapshotCost()) {
      return new Resume.Snapshot();
    }
    return new Resume.Delta(replay);
  }

  private void count(@Nullable Resume decision) {
    switch (decision) {
      case Resume.Delta d -> ctx.reader().counters().resumesDelta.incrementAndGet();
      case Resume.Snapshot s -> ctx.reader().counters().resumesSnapshot.incrementAndGet();
      case null -> { }
    }
  }

  /** Removes a subscriber. */
  void unsubscribe(LiveSubscriber port, String sid) {
    lane.submit(() -> subscribers.remove(port, sid));
  }

  /** Closes the window: no more deliveries; its routing entries and ring go. */
  void close() {
    lane.submit(() -> {
      closed = true;
      ctx.routing().remove(this);
      ring.reset(position, List.of());
    });
  }

  /** Queues one transaction's changes for this window (in bus order, ending with the commit's last change). */
  void deliver(List<ChangeEvent> changes, Position transaction) {
    lane.submit(() -> {
      try {
        apply(changes);
      } finally {
        ctx.delivered().done(transaction);
      }
    });
  }

  /** Re-reads once the transaction ending at {@code transaction} is behind the window (it could not apply it whole). */
  void rereadAfter(Position transaction) {
    lane.submit(() -> {
      try {
        if (loaded) {
          read(true);
        }
      } finally {
        ctx.delivered().done(transaction);
      }
    });
  }

  /** Marks the window stale (a bus gap): it is re-read promptly and its subscribers re-snapshotted. */
  void stale() {
    lane.submit(() -> {
      if (loaded) {
        read(true);
      }
    });
  }

  private void apply(List<ChangeEvent> changes) {
    if (closed || !loaded) {
      return;
    }
    LiveCounters counters = ctx.reader().counters();
    try {
      counters.deliveries.incrementAndGet();
      long removalsBefore = rows.removals();
      List<Row> before = rows.visible();
      boolean needsRead = false;
      Map<String, Set<String>> writes = new LinkedHashMap<>();
      for (ChangeEvent c : changes) {
        if (!c.lsn().isAfter(processed)) {
          continue;
        }
        processed = c.lsn();
        advance(c.lsn());
        if (snapshot != null) {
          if (c.lsn().lsn().compareTo(Objects.requireNonNull(readPosition, "set with the snapshot")) >= 0) {
            snapshot = null;
          } else if (snapshot.isVisible(c.xid())) {
            continue;
          }
        }
        needsRead |= rows.apply(c) == WindowRows.Outcome.NEEDS_READ;
        String key = keyOf(c);
        if (c.write() != null && key != null) {
          writes.computeIfAbsent(c.write(), w -> new HashSet<>()).add(key);
        }
        if (key != null && !rows.holds(key)) {
          ctx.routing().prune(this, key, c.lsn());
        }
      }
      for (String dropped : rows.trim()) {
        ctx.routing().prune(this, dropped, processed);
      }
      if (rows.removals() > removalsBefore) {
        counters.leavingDeliveries.incrementAndGet();
      }
      if (needsRead) {
        counters.partialEntries.incrementAndGet();
      }
      if (needsRead || rows.needsRefill()) {
        counters.refills.incrementAndGet();
        refill();
      }
      List<Row> after = rows.visible();
      if (!after.equals(before)) {
        // The ring keeps the entry for minutes: an empty map of its own per patch would be kept as long.
        Map<String, Set<String>> kept = writes.isEmpty() ? Map.of() : writes;
        ring.record(position, after, kept);
        subscribers.publish(after, kept, cursor());
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Window " + id.logName() + " failed on a transaction; re-reading it", e);
      lane.submit(() -> read(true));
    }
  }

  /** The record key of the row {@code c} changed, or null for a truncate or a row without a key value. */
  private static @Nullable String keyOf(ChangeEvent c) {
    return switch (c) {
      case ChangeEvent.Insert i -> i.key();
      case ChangeEvent.Update u -> u.key();
      case ChangeEvent.Delete d -> d.key();
      case ChangeEvent.Truncate t -> null;
    };
  }

  /** A refill inside a transaction's task: a bounded read whose result replaces the rows. */
  private void refill() {
    try {
      readWhole();
    } catch (SQLException e) {
      throw new IllegalStateException("Refill of " + id.logName() + " failed (SQLState " + e.getSQLState() + ")", e);
    }
  }

  /**
   * Reads and lands until the landing is whole (every transaction the snapshot could not see was replayed, no partial
   * row entered, and no row the limit needs is missing), backing off between tries, at most 20 (1 while a re-read is
   * already scheduled). A landing that is still not whole is kept (its rows are the best known), and a re-read is
   * scheduled, once, until one is whole.
   *
   * @throws java.sql.SQLException when a read fails
   */
  private void readWhole() throws SQLException {
    int tries = rereadPending ? 1 : 20;
    for (int attempt = 1; ; attempt++) {
      ctx.routing().startReading(this);
      boolean whole = land(ctx.reader().read(entity, select, capacity));
      if (whole || attempt == tries) {
        if (!whole && !rereadPending) {
          // For example a commit decoded long before it shows (a synchronous standby that does not answer).
          LOG.log(Level.WARNING, "Window " + id.logName() + " could not land a whole read in " + tries + " tries; "
              + "keeping the last and reading again in 1 s");
          readAgainLater();
        }
        return;
      }
      try {
        ctx.sleeper().sleep(Duration.ofMillis(Math.min(1000, 25L * attempt)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void advance(Position lsn) {
    if (lsn.isAfter(position)) {
      position = lsn;
    }
  }

  private void read(boolean resnapshot) {
    if (closed) {
      return;
    }
    (loaded ? ctx.reader().counters().rereads : ctx.reader().counters().firstReads).incrementAndGet();
    boolean permit = loaded;
    try {
      if (permit) {
        ctx.rereads().acquireUninterruptibly();
      }
      readWhole();
    } catch (RunnelException | SQLException e) {
      failRead(e);
      return;
    } finally {
      if (permit) {
        ctx.rereads().release();
      }
    }
    boolean first = !loaded;
    loaded = true;
    ring.reset(position, rows.visible());
    if (!first && resnapshot) {
      for (WindowSubscribers.Sub s : subscribers.all()) {
        subscribers.snapshot(s, rows.visible(), cursor());
      }
    }
    for (Runnable w : waiting) {
      w.run();
    }
    waiting.clear();
  }

  /**
   * Adopts a read: its rows, then the transactions it could not see that the bus already delivered (committed
   * before P, invisible in the snapshot), then routing by the rows' keys.
   *
   * @return false when a transaction the read needed is no longer kept, so the window must read again
   */
  private boolean land(WindowRead r) {
    rows.load(r.rows(), r.complete());
    snapshot = r.snapshot();
    readPosition = r.position();
    RecentTransactions.Replay replay = ctx.recent().invisibleBefore(table(), r.snapshot(), r.position());
    boolean whole = replay.complete();
    for (ChangeEvent c : replay.changes()) {
      whole &= rows.apply(c) != WindowRows.Outcome.NEEDS_READ;
      if (c.lsn().isAfter(processed)) {
        processed = c.lsn();
      }
    }
    rows.trim();
    // A transaction the read could not see (decoded from the WAL before its backend made it visible: PostgreSQL
    // flushes a commit record, and a logical WAL sender may send it, before the commit shows in snapshots) can take
    // rows out when replayed; a read left holding fewer rows than the limit while more exist is not whole either.
    whole &= !rows.needsRefill();
    advance(r.position().point());
    advance(processed);
    ctx.routing().doneReading(this, rows.keys(), r.position().point());
    return whole;
  }

  private void failRead(Exception e) {
    String errorId = UUID.randomUUID().toString();
    // The cause names neither the window (its tenant) nor the database's message (it may quote row values): the log
    // line under the errorId has the exception's class, for the operator.
    RunnelException error = e instanceof RunnelException re ? re
        : new LiveQueryException(ErrorCode.X_INTERNAL, "Reading a window failed (errorId " + errorId + ").",
            "Retry; if it repeats, report the errorId.");
    if (!(e instanceof RunnelException)) {
      LOG.log(Level.WARNING, "errorId=" + errorId + ": reading window " + id.logName() + " failed: "
          + e.getClass().getName());
    }
    if (!loaded) {
      LOG.log(Level.WARNING, "The first read of window " + id.logName() + " failed: " + error.code() + " ("
          + e.getClass().getSimpleName() + ")");
      for (WindowSubscribers.Sub s : subscribers.all()) {
        s.port.refuse(s.sid, error);
      }
      waiting.clear();
      closed = true;
      ctx.routing().remove(this);
      onFailedFirstRead.run();
      return;
    }
    LOG.log(Level.WARNING, "A re-read of window " + id.logName() + " failed; retrying in 1 s: " + error.code() + " ("
        + e.getClass().getSimpleName() + ")");
    readAgainLater();
  }

  /** Re-reads the window (re-snapshotting its subscribers) on its lane in 1 s, unless that is scheduled already. */
  private void readAgainLater() {
    if (rereadPending) {
      return;
    }
    rereadPending = true;
    Threads.virtual("window-read-again", () -> {
      try {
        ctx.sleeper().sleep(Duration.ofSeconds(1));
      } catch (InterruptedException ie) {
        return;
      }
      lane.submit(() -> {
        rereadPending = false;
        read(true);
      });
    });
  }

  private Cursor cursor() {
    return new Cursor(id.toString(), position, ctx.clock().millis());
  }

  @Override
  public String toString() {
    return "LiveWindow[" + id + "]";
  }
}
