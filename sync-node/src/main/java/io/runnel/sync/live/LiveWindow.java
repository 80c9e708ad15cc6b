package io.runnel.sync.live;

import io.runnel.dsl.ColumnType;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Matcher;
import io.runnel.dsl.Row;
import io.runnel.dsl.Select;
import io.runnel.dsl.server.Entity;
import io.runnel.replicator.ChangeEvent;
import io.runnel.replicator.Lsn;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.Nullable;
import io.runnel.wire.RunnelException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One live window: a query's select for one tenant, its rows, and its subscribers. Everything it does runs on its
 * {@link Lane}, one task at a time: reads, subscriber arrivals, and one task per committed transaction.
 *
 * <p>Design (invariant 3b, "the read joins the stream"): a read takes the snapshot and the WAL position P first;
 * while it runs, the window receives every change of its table and they wait in the lane. Afterwards a change
 * whose commit LSN is below P is applied exactly when its transaction is not visible in the read's snapshot; from P
 * on every change applies. The window's position is the LSN of the last change it processed, applied or skipped,
 * and only moves forward. Each transaction becomes at most one patch (no list ever shows half a transaction).
 *
 * <p>Reads (first reads, refills, re-reads) run on the lane too, so they are ordered: a read never lands behind a
 * newer one. A transaction the bus delivered before the window existed but that the read's snapshot could not see
 * is replayed from {@link RecentTransactions} when the read lands. A task that fails costs only this window: it is
 * re-read and its subscribers re-snapshotted.
 */
final class LiveWindow {

  private static final System.Logger LOG = System.getLogger(LiveWindow.class.getName());

  /** A subscriber of this window. */
  record Subscriber(String sid, LiveSubscriber port) {}

  private final WindowId id;
  private final Entity entity;
  private final Select select;
  private final Matcher matcher;
  private final int limit;
  private final int capacity;
  private final @Nullable String pinColumn;
  private final @Nullable Object pinValue;
  private final Lane lane;
  private final WindowReader reader;
  private final RoutingIndex routing;
  private final RecentTransactions recent;
  private final Clock clock;
  private final Runnable onFailedFirstRead;
  private final Set<String> indexedKeys = ConcurrentHashMap.newKeySet();
  private final java.util.concurrent.atomic.AtomicInteger subscriberCount = new java.util.concurrent.atomic.AtomicInteger();

  // Lane-confined state.
  private final WindowRows rows;
  private final Map<String, Subscriber> subscribers = new LinkedHashMap<>();
  private final List<Subscriber> waiting = new ArrayList<>();
  private boolean loaded;
  private boolean closed;
  private @Nullable XidSnapshot snapshot;
  private @Nullable Lsn readPosition;
  /** The LSN of the last bus change processed, applied or skipped: redeliveries at or below it are dropped. */
  private String processed = "";
  /** The cursor position: the later of {@code processed} and the last read's position; only moves forward. */
  private String position = Lsn.ZERO.point();
  private volatile long addedAt;

  LiveWindow(WindowId id, Entity entity, Select select, int extraRows, Lane lane, WindowReader reader,
      RoutingIndex routing, RecentTransactions recent, Clock clock, Runnable onFailedFirstRead) {
    this.id = id;
    this.entity = entity;
    this.select = select;
    this.matcher = Matcher.of(select);
    this.limit = select.limit();
    this.capacity = Math.min(Select.MAX_LIMIT, limit + extraRows);
    Map<String, Object> pins = select.routingKey();
    if (pins.isEmpty()) {
      this.pinColumn = null;
      this.pinValue = null;
    } else {
      Map.Entry<String, Object> first = pins.entrySet().iterator().next();
      this.pinColumn = first.getKey();
      this.pinValue = first.getValue();
    }
    this.lane = lane;
    this.reader = reader;
    this.routing = routing;
    this.recent = recent;
    this.clock = clock;
    this.onFailedFirstRead = onFailedFirstRead;
    this.rows = new WindowRows(entity.ref(), matcher, limit, capacity);
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

  /** The window's select, with the tenant pinned. */
  Select select() {
    return select;
  }

  Entity entity() {
    return entity;
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

  /** The routing index's addition count when this window was added. */
  long addedAt() {
    return addedAt;
  }

  void addedAt(long sequence) {
    this.addedAt = sequence;
  }

  /** Re-reads once the transaction ending at {@code lsn} is behind the window (it could not apply it whole). */
  void rereadAfter(String lsn) {
    lane.submit(() -> {
      if (loaded) {
        read(true);
      }
    });
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

  /** Counts subscribers outside the lane, so the registry can tell when a window is left empty. */
  java.util.concurrent.atomic.AtomicInteger subscriberCount() {
    return subscriberCount;
  }

  /** Starts the first read. */
  void start() {
    routing.add(this);
    lane.submit(() -> read(false));
  }

  /** Adds a subscriber; it gets a snapshot once the window has rows. */
  void subscribe(Subscriber s) {
    lane.submit(() -> {
      if (closed) {
        s.port().refuse(s.sid(), new LiveQueryException(ErrorCode.X_TIMEOUT,
            "The window " + id + " closed before its read landed.", "Subscribe again."));
        return;
      }
      subscribers.put(s.sid(), s);
      if (loaded) {
        s.port().snapshot(s.sid(), records(rows.visible()), cursor());
      } else {
        waiting.add(s);
      }
    });
  }

  /** Removes a subscriber; {@code whenEmpty} runs on the lane if none is left. */
  void unsubscribe(String sid, Runnable whenEmpty) {
    lane.submit(() -> {
      subscribers.remove(sid);
      waiting.removeIf(w -> w.sid().equals(sid));
      if (subscribers.isEmpty()) {
        whenEmpty.run();
      }
    });
  }

  /** Closes the window: no more deliveries; its routing entries go. */
  void close() {
    lane.submit(() -> {
      closed = true;
      routing.remove(this);
    });
  }

  /** Queues one transaction's changes for this window (in bus order, ending with the commit's last change). */
  void deliver(List<ChangeEvent> changes) {
    lane.submit(() -> apply(changes));
  }

  private void apply(List<ChangeEvent> changes) {
    if (closed || !loaded) {
      return;
    }
    try {
      reader.counters().deliveries.incrementAndGet();
      long removalsBefore = rows.removals();
      List<Row> before = rows.visible();
      boolean needsRead = false;
      Set<String> writes = new LinkedHashSet<>();
      for (ChangeEvent c : changes) {
        if (c.lsn().compareTo(processed) <= 0) {
          continue;
        }
        processed = c.lsn();
        advance(c.lsn());
        if (snapshot != null) {
          if (Lsn.ofPosition(c.lsn()).compareTo(readPosition) >= 0) {
            snapshot = null;
          } else if (snapshot.isVisible(c.xid())) {
            continue;
          }
        }
        needsRead |= rows.apply(c) == WindowRows.Outcome.NEEDS_READ;
        if (c.write() != null) {
          writes.add(c.write());
        }
        if (c.key() != null && !rows.holds(c.key())) {
          routing.prune(this, c.key(), c.lsn());
        }
      }
      for (String dropped : rows.trim()) {
        routing.prune(this, dropped, processed);
      }
      boolean left = rows.removals() > removalsBefore;
      if (left) {
        reader.counters().leavingDeliveries.incrementAndGet();
      }
      if (needsRead) {
        reader.counters().partialEntries.incrementAndGet();
      }
      if (needsRead || rows.needsRefill()) {
        reader.counters().refills.incrementAndGet();
        refill();
      }
      publish(before, List.copyOf(writes));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Window " + id + " failed on a transaction; re-reading it", e);
      reread();
    }
  }

  private void publish(List<Row> before, List<String> writes) {
    List<Op> ops = WindowRows.diff(entity.ref(), before, rows.visible());
    if (ops.isEmpty()) {
      return;
    }
    Cursor cursor = cursor();
    for (Subscriber s : subscribers.values()) {
      reader.counters().patches.incrementAndGet();
      s.port().patch(s.sid(), ops, writes, cursor);
    }
  }

  /** A refill inside a transaction's task: a bounded read whose result replaces the rows. */
  private void refill() {
    routing.startReading(this);
    try {
      if (!land(reader.read(entity, select, capacity))) {
        reread();
      }
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException("Refill of " + id + " failed: " + e.getMessage(), e);
    }
  }

  private void advance(String lsn) {
    if (lsn.compareTo(position) > 0) {
      position = lsn;
    }
  }

  /** A re-read after a failure: the rows are replaced and every subscriber gets a fresh snapshot. */
  private void reread() {
    lane.submit(() -> read(true));
  }

  private void read(boolean resnapshot) {
    if (closed) {
      return;
    }
    routing.startReading(this);
    (loaded ? reader.counters().rereads : reader.counters().firstReads).incrementAndGet();
    WindowRead r;
    try {
      r = reader.read(entity, select, capacity);
    } catch (RunnelException | java.sql.SQLException e) {
      failRead(e);
      return;
    }
    boolean whole = land(r);
    boolean first = !loaded;
    loaded = true;
    Cursor cursor = cursor();
    List<LiveRecord> records = records(rows.visible());
    for (Subscriber s : first || resnapshot ? subscribers.values() : waiting) {
      s.port().snapshot(s.sid(), records, cursor);
    }
    waiting.clear();
    if (!whole) {
      reread();
    }
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
    RecentTransactions.Replay replay = recent.invisibleBefore(table(), r.snapshot(), r.position());
    for (ChangeEvent c : replay.changes()) {
      if (rows.apply(c) == WindowRows.Outcome.NEEDS_READ) {
        return false;
      }
      if (c.lsn().compareTo(processed) > 0) {
        processed = c.lsn();
      }
    }
    rows.trim();
    advance(r.position().point());
    advance(processed);
    routing.doneReading(this, rows.keys(), r.position().point());
    return replay.complete();
  }

  private void failRead(Exception e) {
    RunnelException error = e instanceof RunnelException re ? re
        : new LiveQueryException(ErrorCode.X_INTERNAL, "Reading window " + id + " failed: " + e.getMessage(),
            "Retry; if it repeats, check the database.");
    if (!loaded) {
      LOG.log(Level.WARNING, "The first read of window " + id + " failed: " + error.getMessage());
      for (Subscriber s : subscribers.values()) {
        s.port().refuse(s.sid(), error);
      }
      subscribers.clear();
      waiting.clear();
      closed = true;
      routing.remove(this);
      onFailedFirstRead.run();
      return;
    }
    LOG.log(Level.WARNING, "A re-read of window " + id + " failed; retrying in 1 s: " + error.getMessage());
    Thread.ofVirtual().start(() -> {
      try {
        Thread.sleep(1000);
      } catch (InterruptedException ie) {
        return;
      }
      lane.submit(() -> read(true));
    });
  }

  private Cursor cursor() {
    return new Cursor(id.toString(), position, clock.millis());
  }

  private List<LiveRecord> records(List<Row> list) {
    EntityRef ref = entity.ref();
    List<LiveRecord> out = new ArrayList<>(list.size());
    for (Row r : list) {
      out.add(new LiveRecord(ref.name(), ref.keyOf(r), ref.rowToJson(r)));
    }
    return out;
  }

  @Override
  public String toString() {
    return "LiveWindow[" + id + "]";
  }
}
