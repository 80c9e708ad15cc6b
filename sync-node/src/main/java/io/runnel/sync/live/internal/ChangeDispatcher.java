package io.runnel.sync.live.internal;

import io.runnel.bus.TransportMessage;
import io.runnel.dsl.EntityRef;
import io.runnel.protocol.Lsn;
import io.runnel.protocol.Position;
import io.runnel.replicator.BusEnvelope;
import io.runnel.replicator.BusMessage;
import io.runnel.replicator.ChangeEvent;
import io.runnel.replicator.PositionEvent;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Reads the bus in order (one subscription on {@code runnel.changes.>}) and hands each window the changes of one
 * transaction at a time. Runs on the bus subscription's single thread.
 *
 * <p>Changes are grouped per window until the change marked {@code last}; then each window that received any
 * change of the transaction gets them as one delivery, so it can make one patch of them. A change whose LSN is not
 * above the highest seen is a redelivery and is dropped (the replicator delivers at least once, with identical
 * LSNs).
 *
 * <p>The {@link ChangeListener} (records channels) hears each whole transaction, or only its tables when it is too
 * large to hold, before the windows do and before the delivered position can pass it.
 *
 * <p>A replicator position heartbeat ({@link PositionEvent}) arrives between transactions and says every change
 * below its point was published before it: it raises the highest position seen (a change below it is a
 * redelivery) and, once the windows handled every earlier transaction, the delivered position; its time moves the
 * node's asOf ({@link DeliveredPosition#asOf}), and a heartbeat at the point already seen still does that. It counts
 * in the producer's sequence like a change.
 */
final class ChangeDispatcher implements Consumer<TransportMessage> {

  private static final System.Logger LOG = System.getLogger(ChangeDispatcher.class.getName());

  /** A transaction larger than this is not kept whole: windows it touches re-read instead. */
  static final int MAX_TRANSACTION_CHANGES = 10_000;

  private final Function<String, @Nullable EntityRef> entities;
  private final RoutingIndex routing;
  private final RecentTransactions recent;
  private final DeliveredPosition delivered;
  private final Runnable onGap;
  private final ChangeListener listener;
  private final Map<String, Long> producers = new HashMap<>();
  private final Map<LiveWindow, List<ChangeEvent>> transaction = new LinkedHashMap<>();
  private final List<ChangeEvent> current = new ArrayList<>();
  /** The tables the open transaction touched, for the listener when it is too large to hold. */
  private final Set<String> tables = new LinkedHashSet<>();
  private @Nullable Lsn currentCommit;
  private long transactionStart;
  private boolean overflow;
  private Position highest = Position.ZERO;
  private volatile Position dispatched = Position.ZERO;

  ChangeDispatcher(Function<String, @Nullable EntityRef> entities, RoutingIndex routing, RecentTransactions recent,
      DeliveredPosition delivered, Runnable onGap, ChangeListener listener) {
    this.entities = entities;
    this.routing = routing;
    this.recent = recent;
    this.delivered = delivered;
    this.onGap = onGap;
    this.listener = listener;
  }

  /**
   * The position of the last transaction handed to windows, or the point of a later position heartbeat
   * ({@link Position#ZERO} before the first of either): everything below it has been handed out.
   */
  Position dispatched() {
    return dispatched;
  }

  /**
   * Checks that the producer's {@code seq} continues, counting changes and heartbeats alike: a hole (a message lost
   * on the way) or a new producer after another was already read (a replicator restart) is a gap, and every window
   * is re-read.
   */
  private void checkSequence(BusMessage message) {
    Long last = producers.get(message.producer());
    if (last == null) {
      boolean another = !producers.isEmpty();
      producers.put(message.producer(), message.seq());
      if (another) {
        LOG.log(Level.WARNING, "A new replicator producer " + message.producer()
            + " appeared: re-reading every window");
        onGap.run();
      }
      return;
    }
    if (message.seq() <= last) {
      return;
    }
    producers.put(message.producer(), message.seq());
    if (message.seq() != last + 1) {
      LOG.log(Level.WARNING, "Producer " + message.producer() + " skipped from seq " + last + " to " + message.seq()
          + ": re-reading every window");
      onGap.run();
    }
  }

  @Override
  public void accept(TransportMessage message) {
    BusMessage decoded;
    try {
      decoded = BusEnvelope.decode(message.payload(), entities);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Dropped an undecodable bus message on " + message.subject() + ": " + e.getMessage());
      return;
    }
    switch (decoded) {
      case ChangeEvent change -> change(change);
      case PositionEvent position -> position(position);
    }
  }

  /**
   * A position heartbeat: every change below its point is already here. Once every earlier transaction is handled
   * by its windows, the point is the delivered position.
   */
  private void position(PositionEvent position) {
    checkSequence(position);
    Position point = position.point();
    int order = point.compareTo(highest);
    if (order < 0) {
      return;
    }
    if (order == 0) {
      // The same point again, later: only its time moved (an idle database).
      delivered.passed(point, position.at());
      return;
    }
    if (currentCommit != null) {
      // The replicator says the open transaction was published whole, so its end was lost on the way: the sequence
      // check saw the hole and every window re-reads. Its partial changes go.
      LOG.log(Level.WARNING, "Transaction " + currentCommit.hex16() + " lost its end before position " + point
          + ": dropped its partial changes");
      transaction.clear();
      current.clear();
      tables.clear();
      currentCommit = null;
      overflow = false;
    }
    highest = point;
    delivered.passed(point, position.at());
    dispatched = point;
  }

  private void change(ChangeEvent change) {
    checkSequence(change);
    if (!change.lsn().isAfter(highest)) {
      return;
    }
    highest = change.lsn();
    Lsn commit = change.lsn().lsn();
    if (!commit.equals(currentCommit)) {
      currentCommit = commit;
      transactionStart = routing.additions();
      current.clear();
      tables.clear();
      overflow = false;
    }
    tables.add(change.table());
    if (!overflow) {
      current.add(change);
      overflow = current.size() > MAX_TRANSACTION_CHANGES;
    }
    for (LiveWindow w : routing.route(change)) {
      List<ChangeEvent> list = transaction.computeIfAbsent(w, k -> new ArrayList<>());
      if (list.size() <= MAX_TRANSACTION_CHANGES) {
        list.add(change);
      }
    }
    if (change.last()) {
      // Kept before any window hears of it, so a read landing meanwhile can replay it.
      if (overflow) {
        recent.addWithoutChanges(change.xid(), change.lsn().lsn());
      } else {
        recent.add(current);
      }
      // The second reader first, before the delivered position can pass this transaction.
      tell(change.lsn());
      delivered.dispatched(change.lsn(), transaction.size(), change.commitTime());
      for (Map.Entry<LiveWindow, List<ChangeEvent>> e : transaction.entrySet()) {
        LiveWindow w = e.getKey();
        if (w.addedAt() > transactionStart || e.getValue().size() > MAX_TRANSACTION_CHANGES) {
          // It joined in the middle of this transaction (it missed the start) or the transaction is too large to
          // hold: it reads again once the transaction is behind it.
          w.rereadAfter(change.lsn());
        } else {
          w.deliver(e.getValue(), change.lsn());
        }
      }
      transaction.clear();
      current.clear();
      tables.clear();
      currentCommit = null;
      dispatched = change.lsn();
    }
  }

  /** Hands the transaction just completed to the listener; one that throws is logged and told of a gap. */
  private void tell(Position lsn) {
    try {
      if (overflow) {
        listener.oversized(Set.copyOf(tables), lsn);
      } else {
        listener.transaction(List.copyOf(current), lsn);
      }
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "The change listener failed on transaction " + lsn + "; telling it of a gap", e);
      try {
        listener.gap();
      } catch (RuntimeException again) {
        LOG.log(Level.WARNING, "The change listener failed on the gap too", again);
      }
    }
  }
}
