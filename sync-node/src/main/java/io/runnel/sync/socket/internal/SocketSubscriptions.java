package io.runnel.sync.socket.internal;

import io.runnel.dsl.Actor;
import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.Cursor;
import io.runnel.protocol.Op;
import io.runnel.protocol.ServerFrame;
import io.runnel.protocol.WireRecord;
import io.runnel.sync.live.internal.LiveQueryRegistry;
import io.runnel.sync.live.internal.LiveSubscription;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonObject;
import io.runnel.wire.RunnelException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The live subscriptions one {@link SyncSocket} holds, by sid: {@code sub} and {@code unsub}, the frames and refusals
 * their windows send, and the repair of a subscription a dropped frame desynced (once the socket drains, it is
 * subscribed again, which answers a fresh snapshot).
 *
 * <p>Invariant: a subscription is let go exactly once, by the map's remove of that very entry ({@link #letGo}), so
 * its window forgets it, its slots come back and the gauge counts it off once, whichever of {@code unsub}, a window's
 * {@code refuse}, a resubscribe or the socket's clean-up gets there first. A window's refuse that beats the reader's
 * put is remembered ({@code refusedEarly}) and honoured as soon as the entry is held; a subscribe or resubscribe that
 * lands after the socket closed lets go of what it holds itself. Subscribing and resubscribing run under the
 * socket's identity lock.
 */
final class SocketSubscriptions {

  /** What a subscription was asked with, to re-subscribe it after a desync. */
  private record Asked(String query, JsonObject input, LiveSubscription subscription, Runnable slot) {}

  private final LiveQueryRegistry live;
  private final Admissions admissions;
  private final SocketMeters meters;
  private final SyncSocket socket;
  private final SocketOutbox outbox;
  private final Map<String, Asked> subscriptions = new ConcurrentHashMap<>();
  private final Set<String> desynced = ConcurrentHashMap.newKeySet();
  /** Sids a window refused on its lane before this socket held them (the refuse can beat the reader's put). */
  private final Set<String> refusedEarly = ConcurrentHashMap.newKeySet();

  SocketSubscriptions(LiveQueryRegistry live, Admissions admissions, SocketMeters meters, SyncSocket socket,
      SocketOutbox outbox) {
    this.live = live;
    this.admissions = admissions;
    this.meters = meters;
    this.socket = socket;
    this.outbox = outbox;
  }

  /**
   * Subscribes {@code sub} for {@code actor}, whose anonymous caps count under {@code network}, or refuses it. Called
   * under the identity lock.
   */
  void subscribe(ClientFrame.Sub sub, Actor actor, String network) {
    if (subscriptions.containsKey(sub.sid())) {
      outbox.refuse(new NodeException(ErrorCode.X_SUBSCRIPTION_ID_TAKEN, "This socket already holds sid '"
          + sub.sid() + "'.", "Use a new sid, or unsub the old one first."), sub.sid());
      return;
    }
    if (subscriptions.size() >= admissions.limits().subscriptionsPerSocket()) {
      outbox.refuse(new NodeException(ErrorCode.X_SUBSCRIPTION_LIMIT, "This socket holds "
          + admissions.limits().subscriptionsPerSocket() + " live subscriptions, its limit.",
          "Unsubscribe from a query before subscribing to another."), sub.sid());
      return;
    }
    Runnable slot = null;
    boolean held = false;
    RunnelException refused = null;
    refusedEarly.remove(sub.sid());
    try {
      slot = admissions.subscription(actor, network);
      LiveSubscription s = live.subscribe(socket, sub.sid(), actor, sub.q(), sub.in(), sub.cursor());
      Asked asked = new Asked(sub.q(), sub.in(), s, slot);
      subscriptions.put(sub.sid(), asked);
      held = true;
      meters.subscriptions.incrementAndGet();
      if (!socket.open() || refusedEarly.remove(sub.sid())) {
        // The socket closed meanwhile (its clean-up may have passed this sid), or the window refused it on its lane
        // before it was held here: either way it is let go now, so its slot comes back.
        letGo(sub.sid(), asked);
      }
    } catch (RunnelException e) {
      refused = e;
    } finally {
      // Whatever did not end held gives its slot back: a refusal, or app code that threw (a query's source), a
      // stack overflow included, which the handler's guard answers X_INTERNAL.
      if (!held && slot != null) {
        slot.run();
      }
    }
    if (refused != null) {
      outbox.refuse(refused, sub.sid());
    }
  }

  /** The client's {@code unsub}: lets go of {@code sid}, if held. */
  void unsub(String sid) {
    Asked a = subscriptions.get(sid);
    if (a != null) {
      letGo(sid, a);
    }
  }

  /** Sends a window's {@code snapshot}; one dropped leaves {@code sid} desynced, one sent ends its desync. */
  void snapshot(String sid, List<WireRecord> records, Cursor cursor) {
    if (subscriptions.containsKey(sid) || !desynced.contains(sid)) {
      if (!outbox.send(new ServerFrame.Snapshot(sid, records, cursor))) {
        desynced.add(sid);
      } else {
        desynced.remove(sid);
      }
    }
  }

  /** Sends a window's {@code patch}, unless {@code sid} is desynced; one dropped leaves it desynced. */
  void patch(String sid, List<Op> ops, List<String> writes, Cursor cursor) {
    if (desynced.contains(sid)) {
      // Not sent: the subscription is re-snapshotted once the socket drains. It counts as a drop all the same.
      outbox.dropped();
      return;
    }
    if (!outbox.send(new ServerFrame.Patch(sid, ops, writes, cursor))) {
      desynced.add(sid);
    }
  }

  /** {@code sid} ended with {@code error}: it is let go (or remembered, when not held yet) and refused. */
  void refused(String sid, RunnelException error) {
    Asked a = subscriptions.get(sid);
    if (a != null) {
      letGo(sid, a);
    } else {
      refusedEarly.add(sid);
    }
    outbox.refuse(error, sid);
  }

  /** Whether a subscription waits for its repair (the common case, no, costs no lock). */
  boolean anyDesynced() {
    return !desynced.isEmpty();
  }

  /** Subscribes each desynced subscription again. Called under the identity lock. */
  void resubscribeDesynced() {
    for (String sid : Set.copyOf(desynced)) {
      resubscribe(sid);
    }
  }

  /** Subscribes every subscription again, for the socket's actor now. Called under the identity lock. */
  void resubscribeAll() {
    for (String sid : Set.copyOf(subscriptions.keySet())) {
      resubscribe(sid);
    }
  }

  /**
   * Subscribes {@code sid} again as the socket's actor now, which answers a fresh snapshot, or refuses it when that
   * actor may no longer read it; a sid no longer held is forgotten. Called under the identity lock.
   */
  private void resubscribe(String sid) {
    Asked a = subscriptions.get(sid);
    if (a == null) {
      desynced.remove(sid);
      return;
    }
    a.subscription().close();
    refusedEarly.remove(sid);
    try {
      LiveSubscription again = live.subscribe(socket, sid, socket.actor(), a.query(), a.input());
      Asked renewed = new Asked(a.query(), a.input(), again, a.slot());
      if (!subscriptions.replace(sid, a, renewed)) {
        // Let go meanwhile (an unsub, or the socket's clean-up): the new subscription is not held.
        again.close();
        return;
      }
      if (!socket.open() || refusedEarly.remove(sid)) {
        letGo(sid, renewed);
      }
    } catch (RunnelException e) {
      refused(sid, e);
    }
  }

  /** The socket closed: lets go of every subscription it holds. */
  void letGoAll() {
    // Each entry let go by its own remove: a subscribe or resubscribe racing this pass sees the socket closed and
    // lets go of whatever it holds itself, so no entry is missed and none is counted off twice.
    for (Map.Entry<String, Asked> e : subscriptions.entrySet()) {
      letGo(e.getKey(), e.getValue());
    }
  }

  /**
   * Ends {@code a}, the subscription held as {@code sid}, exactly once (the map's remove of this very entry decides):
   * the window forgets the subscriber, the actor's and tenant's slots come back, the gauge counts it off.
   */
  private void letGo(String sid, Asked a) {
    if (subscriptions.remove(sid, a)) {
      a.subscription().close();
      a.slot().run();
      desynced.remove(sid);
      meters.subscriptions.decrementAndGet();
    }
  }
}
