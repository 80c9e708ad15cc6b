package io.runnel.sync.live.internal;

import io.runnel.dsl.Actor;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import io.runnel.dsl.server.Policy;
import io.runnel.protocol.Cursor;
import io.runnel.protocol.Op;
import io.runnel.protocol.WireRecord;
import io.runnel.wire.JsonObject;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A window's subscribers and what each may see: each subscriber's list is the window's visible list filtered by
 * its row rule, checked against the whole row, and every frame is computed from that list alone.
 *
 * <p>Invariant (tenant and policy isolation): a frame carries only records the subscriber may see; a {@code del}
 * names only a record the subscriber held; {@code after} names the nearest preceding record the subscriber can
 * see; a transaction that changes nothing it may see sends it nothing (an empty patch would leak the timing), and
 * {@code writes} names only writes whose changes its patch carries. A rule that throws is a gate failure: counted,
 * and that subscriber is re-snapshotted with the rows its rule could not decide withheld, never silently granted.
 * Lane-confined.
 */
final class WindowSubscribers {

  private static final System.Logger LOG = System.getLogger(WindowSubscribers.class.getName());

  /** One subscriber and the list it holds. */
  static final class Sub {
    final String sid;
    final LiveSubscriber port;
    final Actor actor;
    final Policy.@Nullable RowRule rule;
    List<Row> list = List.of();

    Sub(String sid, LiveSubscriber port, Actor actor, Policy.@Nullable RowRule rule) {
      this.sid = sid;
      this.port = port;
      this.actor = actor;
      this.rule = rule;
    }
  }

  /** A rule threw for a row of this subscriber. */
  private static final class GateFailure extends Exception {
    private static final long serialVersionUID = 1L;

    GateFailure(RuntimeException cause) {
      super(cause);
    }
  }

  private final EntityRef entity;
  private final LiveCounters counters;
  /** Subscribers by (port, sid): two sockets may use the same sid on one window. */
  private record Key(LiveSubscriber port, String sid) {}

  private final Map<Key, Sub> subs = new LinkedHashMap<>();
  /**
   * Whether a rule's failure was logged: once per window, with its trace. Every later one is only counted
   * ({@code runnel_gate_failures_total}): a client may hold many subscriptions of a query whose rule throws, and each
   * commit would otherwise log a trace per subscription. The sid is client-chosen text and never logged.
   */
  private boolean failureLogged;

  WindowSubscribers(EntityRef entity, LiveCounters counters) {
    this.entity = entity;
    this.counters = counters;
  }

  void add(Sub s) {
    subs.put(new Key(s.port, s.sid), s);
  }

  void remove(LiveSubscriber port, String sid) {
    subs.remove(new Key(port, sid));
  }

  boolean isEmpty() {
    return subs.isEmpty();
  }

  Collection<Sub> all() {
    return subs.values();
  }

  /** Sends {@code s} a snapshot of {@code visible} filtered by its rule. */
  void snapshot(Sub s, List<Row> visible, Cursor cursor) {
    List<Row> list;
    try {
      list = filter(s, visible);
    } catch (GateFailure e) {
      list = failClosed(Objects.requireNonNull(s.rule, "only a rule fails a gate"), s.actor, visible);
    }
    s.list = list;
    s.port.snapshot(s.sid, records(list), cursor);
  }

  /** One transaction's ops for a subscriber's list, and the writes they carry; shared by equal subscribers. */
  private record Shared(List<Op> ops, List<String> writes) {
    static final Shared NONE = new Shared(List.of(), List.of());
  }

  /** Sends every subscriber what one transaction changed in what it may see (nothing when nothing). */
  void publish(List<Row> visible, Map<String, Set<String>> writes, Cursor cursor) {
    // Shared by every subscriber of this transaction: each row's key and JSON made once, and equal ops (and writes)
    // handed over as one list, so a socket's frame writer can encode a patch once and splice each subscription's sid
    // in.
    IdentityHashMap<Row, JsonObject> json = new IdentityHashMap<>();
    IdentityHashMap<Row, String> keys = new IdentityHashMap<>();
    Map<List<Op>, List<Op>> sameOps = new HashMap<>();
    Map<List<String>, List<String>> sameWrites = new HashMap<>();
    // Subscribers without a row rule see the window's rows themselves: those that held the same list (by identity)
    // get the same diff, made once per transaction instead of once per subscriber.
    IdentityHashMap<List<Row>, Shared> unruled = new IdentityHashMap<>();
    for (Sub s : subs.values()) {
      List<Row> next;
      try {
        next = filter(s, visible);
      } catch (GateFailure e) {
        if (!failureLogged) {
          failureLogged = true;
          LOG.log(Level.WARNING, "The row rule of a window of " + entity.name() + " failed; its subscribers are "
              + "re-snapshotted without the rows it could not decide (logged once per window; "
              + "runnel_gate_failures_total counts every failure)", e.getCause());
        }
        snapshot(s, visible, cursor);
        continue;
      }
      Shared diff = next == visible ? unruled.get(s.list) : null;
      if (diff == null) {
        List<Op> ops = WindowRows.diff(entity, s.list, next, json, keys);
        // Unmodifiable copies, which the frame keeps as they are (ServerFrame.Patch copies other lists).
        diff = ops.isEmpty() ? Shared.NONE : new Shared(sameOps.computeIfAbsent(ops, List::copyOf),
            sameWrites.computeIfAbsent(writesIn(ops, writes), List::copyOf));
        if (next == visible) {
          unruled.put(s.list, diff);
        }
      }
      s.list = next;
      if (!diff.ops().isEmpty()) {
        counters.patches.incrementAndGet();
        s.port.patch(s.sid, diff.ops(), diff.writes(), cursor);
      }
    }
  }

  /**
   * Resumes {@code s} from a replay: first what brings the records it says it holds to its list at the cursor, then
   * one patch per ring entry that changed what it may see; at least one patch, empty when nothing needs sending.
   */
  void resume(Sub s, PatchRing.Replay replay, Set<String> holds, Cursor now) {
    List<Row> last = replay.entries().isEmpty() ? replay.at() : replay.entries().getLast().visible();
    List<Row> atCursor;
    try {
      atCursor = filter(s, replay.at());
    } catch (GateFailure e) {
      snapshot(s, last, now);
      return;
    }
    List<Op> pending = new ArrayList<>();
    List<Row> base = new ArrayList<>();
    Set<String> atKeys = new HashSet<>();
    for (Row r : atCursor) {
      String k = entity.keyOf(r);
      atKeys.add(k);
      if (holds.contains(k)) {
        base.add(r);
      }
    }
    for (String k : holds) {
      if (!atKeys.contains(k)) {
        pending.add(new Op.Del(entity.name(), k));
      }
    }
    pending.addAll(WindowRows.diff(entity, base, atCursor));
    List<Row> prev = atCursor;
    boolean sent = false;
    for (PatchRing.Entry e : replay.entries()) {
      List<Row> next;
      try {
        next = filter(s, e.visible());
      } catch (GateFailure g) {
        snapshot(s, last, now);
        return;
      }
      List<Op> ops = new ArrayList<>(pending);
      pending.clear();
      ops.addAll(WindowRows.diff(entity, prev, next));
      prev = next;
      if (!ops.isEmpty()) {
        counters.patches.incrementAndGet();
        s.port.patch(s.sid, ops, writesIn(ops, e.writes()), new Cursor(now.qid(), e.lsn(), now.at()));
        sent = true;
      }
    }
    s.list = prev;
    if (!sent) {
      counters.patches.incrementAndGet();
      s.port.patch(s.sid, List.copyOf(pending), List.of(), now);
    }
  }

  private List<Row> filter(Sub s, List<Row> visible) throws GateFailure {
    if (s.rule == null) {
      return visible;
    }
    List<Row> out = new ArrayList<>(visible.size());
    for (Row r : visible) {
      boolean ok;
      try {
        ok = s.rule.visible(s.actor, r);
      } catch (RuntimeException e) {
        counters.gateFailures.incrementAndGet();
        throw new GateFailure(e);
      }
      if (ok) {
        out.add(r);
      } else {
        counters.rowsDenied.incrementAndGet();
      }
    }
    return out;
  }

  /** The rows the rule admits, withholding those it cannot decide (a gate failure never grants). */
  private static List<Row> failClosed(Policy.RowRule rule, Actor actor, List<Row> visible) {
    List<Row> out = new ArrayList<>();
    for (Row r : visible) {
      try {
        if (rule.visible(actor, r)) {
          out.add(r);
        }
      } catch (RuntimeException e) {
        // Withheld: undecidable.
      }
    }
    return out;
  }

  private static List<String> writesIn(List<Op> ops, Map<String, Set<String>> writes) {
    if (writes.isEmpty()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Set<String>> w : writes.entrySet()) {
      for (Op op : ops) {
        String key = op.key();
        if (w.getValue().contains(key)) {
          out.add(w.getKey());
          break;
        }
      }
    }
    return out;
  }

  private List<WireRecord> records(List<Row> list) {
    List<WireRecord> out = new ArrayList<>(list.size());
    for (Row r : list) {
      out.add(new WireRecord(entity.name(), entity.keyOf(r), entity.rowToJson(r)));
    }
    return out;
  }
}
