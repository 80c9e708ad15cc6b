package io.runnel.sync.live;

import io.runnel.bus.TransportMessage;
import io.runnel.dsl.EntityRef;
import io.runnel.replicator.ChangeEnvelope;
import io.runnel.replicator.ChangeEvent;
import io.runnel.wire.Nullable;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Reads the bus in order (one subscription on {@code runnel.changes.>}) and hands each window the changes of one
 * transaction at a time. Runs on the bus subscription's single thread.
 *
 * <p>Changes are grouped per window until the change marked {@code last}; then each window that received any
 * change of the transaction gets them as one delivery, so it can make one patch of them. A change whose LSN is not
 * above the highest seen is a redelivery and is dropped (the replicator delivers at least once, with identical
 * LSNs). Changes the record publisher sent carry no WAL position and never reach windows.
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
  private final Map<String, Long> producers = new java.util.HashMap<>();
  private final Map<LiveWindow, List<ChangeEvent>> transaction = new LinkedHashMap<>();
  private final List<ChangeEvent> current = new ArrayList<>();
  private @Nullable String currentCommit;
  private long transactionStart;
  private boolean overflow;
  private String highest = "";
  private volatile String dispatched = "";

  ChangeDispatcher(Function<String, @Nullable EntityRef> entities, RoutingIndex routing, RecentTransactions recent,
      DeliveredPosition delivered, Runnable onGap) {
    this.entities = entities;
    this.routing = routing;
    this.recent = recent;
    this.delivered = delivered;
    this.onGap = onGap;
  }

  /** The LSN of the last transaction handed to windows (empty before the first). */
  String dispatched() {
    return dispatched;
  }

  /**
   * Checks that the producer's {@code seq} continues: a hole (a message lost on the way) or a new producer after
   * another was already read (a replicator restart) is a gap, and every window is re-read.
   */
  private void checkSequence(ChangeEvent change) {
    Long last = producers.get(change.producer());
    if (last == null) {
      boolean another = !producers.isEmpty();
      producers.put(change.producer(), change.seq());
      if (another) {
        LOG.log(Level.WARNING, "A new replicator producer " + change.producer() + " appeared: re-reading every window");
        onGap.run();
      }
      return;
    }
    if (change.seq() <= last) {
      return;
    }
    producers.put(change.producer(), change.seq());
    if (change.seq() != last + 1) {
      LOG.log(Level.WARNING, "Producer " + change.producer() + " skipped from seq " + last + " to " + change.seq()
          + ": re-reading every window");
      onGap.run();
    }
  }

  @Override
  public void accept(TransportMessage message) {
    ChangeEvent change;
    try {
      change = ChangeEnvelope.decode(message.payload(), entities);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Dropped an undecodable change on " + message.subject() + ": " + e.getMessage());
      return;
    }
    if (change.source() != ChangeEvent.Source.REPLICATOR) {
      return;
    }
    checkSequence(change);
    if (change.lsn().compareTo(highest) <= 0) {
      return;
    }
    highest = change.lsn();
    String commit = change.lsn().substring(0, 16);
    if (!commit.equals(currentCommit)) {
      currentCommit = commit;
      transactionStart = routing.additions();
      current.clear();
      overflow = false;
    }
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
        recent.addWithoutChanges(change.xid(), io.runnel.replicator.Lsn.ofPosition(change.lsn()));
      } else {
        recent.add(current);
      }
      delivered.dispatched(change.lsn(), transaction.size());
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
      currentCommit = null;
      dispatched = change.lsn();
    }
  }
}
