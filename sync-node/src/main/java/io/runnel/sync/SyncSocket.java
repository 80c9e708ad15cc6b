package io.runnel.sync;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.Status;
import io.helidon.webserver.ConnectionContext;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;
import io.runnel.dsl.Actor;
import io.runnel.replicator.Lsn;
import io.runnel.sync.auth.AuthRefusedException;
import io.runnel.sync.auth.Credentials;
import io.runnel.sync.auth.Grant;
import io.runnel.sync.auth.GrantHolder;
import io.runnel.sync.auth.GrantWatch;
import io.runnel.sync.channel.ChannelException;
import io.runnel.sync.channel.ChannelMember;
import io.runnel.sync.live.Cursor;
import io.runnel.sync.live.LiveRecord;
import io.runnel.sync.live.LiveSubscriber;
import io.runnel.sync.live.LiveSubscription;
import io.runnel.sync.live.Op;
import io.runnel.sync.socket.FrameCodec;
import io.runnel.sync.socket.FrameException;
import io.runnel.sync.socket.InboundFrame;
import io.runnel.sync.socket.OutboundFrame;
import io.runnel.sync.socket.TokenBucket;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonObject;
import io.runnel.wire.Nullable;
import io.runnel.wire.RunnelException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One socket of {@code /v1/sync}: decided before the upgrade (its grant), then read frame by frame on Helidon's
 * virtual thread for the connection, and written only through its own {@link io.runnel.sync.socket.OutboundQueue},
 * so a client that stops reading stalls nobody else.
 *
 * <p>A frame the node cannot read is refused and the socket stays up. A frame dropped over the outbound bound marks
 * its subscription desynced; once the queue drains, the subscription is re-snapshotted. After
 * {@link SocketLimits#dropsBeforeClose()} drops the socket is closed with 1013.
 *
 * <p>{@code join} (with its records cursor) and {@code leave} go to the node's
 * {@link io.runnel.sync.channel.ChannelHub}; a refused join is answered with {@code refuse} naming its topic. Once
 * the queue drains after a drop, the hub resends the rosters and sends {@code gap} for the records frames the socket
 * lost. A socket that closes leaves all its topics at once.
 *
 * <p>Its grant is re-decided over time ({@link io.runnel.sync.auth.GrantKeeper}): a changed actor decides every
 * subscription and topic again ({@link #regrant}); an expired one closes the socket with 1008. {@code sub} and
 * {@code join} are decided under the identity lock, so none is decided for an actor a regrant already replaced.
 */
final class SyncSocket implements WsListener, LiveSubscriber, ChannelMember, GrantHolder {

  private static final System.Logger LOG = System.getLogger(SyncSocket.class.getName());

  /** What a subscription was asked with, to re-subscribe it after a desync. */
  private record Asked(String query, JsonObject input, LiveSubscription subscription, Runnable slot) {}

  private final SyncNode.Services node;
  private final String id = UUID.randomUUID().toString();
  private final Map<String, Asked> subscriptions = new ConcurrentHashMap<>();
  private final Set<String> desynced = ConcurrentHashMap.newKeySet();
  /** Sids a window refused on its lane before this socket held them (the refuse can beat the reader's put). */
  private final Set<String> refusedEarly = ConcurrentHashMap.newKeySet();
  private final AtomicInteger drops = new AtomicInteger();
  /** Set when a frame was dropped, so the next drain asks the channel hub for the rosters it lost. */
  private final java.util.concurrent.atomic.AtomicBoolean lostFrames = new java.util.concurrent.atomic.AtomicBoolean();
  private final io.runnel.sync.socket.FrameAssembler fragments;
  private final HandlerGuard guard;
  private volatile @Nullable Grant grant;
  private volatile @Nullable GrantWatch grantWatch;
  /** Held while a subscription or topic is decided for the actor, and while a regrant decides them all again. */
  private final java.util.concurrent.locks.ReentrantLock identity = new java.util.concurrent.locks.ReentrantLock();
  private volatile @Nullable WsSession session;
  private volatile io.runnel.sync.socket.OutboundQueue queue;
  /** This socket's reservations (its node slot, its actor's slot), given back when it closes. */
  private volatile Admissions.@Nullable Admission admission;
  /** The client network the upgrade came from, which an anonymous actor's caps count under. */
  private String network = "?";
  private volatile long lastInbound;
  /** Frame budget: {@link SocketLimits#framesPerSecond()}, at most {@link SocketLimits#frameBurst()} tokens. */
  private final TokenBucket frameBudget;
  private int floods;
  /** Set while the rest of a text message a fragment over the rate dropped is still coming (reader thread only). */
  private boolean skipping;
  private volatile boolean closed;
  /** Set by the one {@link #cleanUp} that runs (a close, the sweeper and the connection's end may race). */
  private final java.util.concurrent.atomic.AtomicBoolean cleaned = new java.util.concurrent.atomic.AtomicBoolean();
  /** Counted down when the connection ended: the client answered a close, or the connection failed. */
  private final CountDownLatch ended = new CountDownLatch(1);

  SyncSocket(SyncNode.Services node) {
    this.node = node;
    this.fragments = new io.runnel.sync.socket.FrameAssembler(node.limits().maxFrameBytes());
    this.frameBudget = new TokenBucket(node.limits().framesPerSecond(), node.limits().frameBurst(),
        TimeUnit.NANOSECONDS, node.nanos().getAsLong());
    this.guard = new HandlerGuard(node.metrics().handlerFailures);
  }

  @Override
  public Optional<Headers> onHttpUpgrade(HttpPrologue prologue, Headers headers) {
    node.node().drain.admitUpgrade();
    Admissions.Admission gated = UpgradeGate.current();
    // Without the gate (it runs on every upgrade Helidon routes), the socket reserves its own node slot.
    Admissions.Admission a = gated != null ? gated : reserveSlot();
    boolean decided = false;
    try {
      decide(prologue, headers);
      a.actor(grant.actor());
      decided = true;
    } catch (Admissions.AdmissionException e) {
      node.metrics().refused(e.code().name());
      throw ErrorBodies.refusal(e, Status.create(e.status()), e.retryAfterSeconds());
    } finally {
      // A refusal, or anything else that escaped (an Error included): a slot reserved here goes back (the gate
      // gives back its own).
      if (!decided && gated == null) {
        a.release();
      }
    }
    network = a.network();
    admission = a;
    a.handedOver();
    return Optional.empty();
  }

  private Admissions.Admission reserveSlot() {
    try {
      return node.admissions().admit(null);
    } catch (Admissions.AdmissionException e) {
      node.metrics().refused(e.code().name());
      throw ErrorBodies.refusal(e, Status.create(e.status()), e.retryAfterSeconds());
    }
  }

  /** The origin check and the identity: sets {@link #grant}, or throws the refusal the upgrade answers. */
  private void decide(HttpPrologue prologue, Headers headers) {
    String origin = headers.first(HeaderNames.ORIGIN).orElse(null);
    if (!node.origins().admits(origin, headers.first(HeaderNames.HOST).orElse(null))) {
      node.metrics().refused(ErrorCode.X_SOCKET_ORIGIN_REFUSED.name());
      throw ErrorBodies.refusal(ErrorBodies.originRefused(origin, headers.first(HeaderNames.HOST).orElse("?"),
          node.origins()), Status.FORBIDDEN_403, false);
    }
    String ticket = prologue.query().contains("ticket") ? prologue.query().get("ticket") : null;
    String fix = "Send Authorization: Bearer <token>, the runnel_session cookie, or a ticket.";
    try {
      if (ticket == null) {
        grant = AuthRefusedException.grant(node.authenticator(), Credentials.of(headers, null), node.clock().millis(),
            fix);
        return;
      }
      Grant g;
      try {
        g = node.tickets().redeem(ticket);
      } catch (Exception e) {
        throw AuthRefusedException.unavailable(e);
      }
      if (g == null) {
        node.metrics().refused(ErrorCode.X_TICKET_INVALID.name());
        throw ErrorBodies.refusal(new NodeException(ErrorCode.X_TICKET_INVALID,
            "The ticket is unknown, expired or already used.", "Get a new ticket from POST /v1/tickets."),
            Status.UNAUTHORIZED_401, false);
      }
      if (g.expiresAt() <= node.clock().millis()) {
        throw AuthRefusedException.unauthenticated("The ticket's grant has expired.", fix);
      }
      grant = g;
    } catch (AuthRefusedException e) {
      node.metrics().refused(e.code().name());
      throw ErrorBodies.refusal(e, Status.create(e.status()), e.retryAfterSeconds() > 0);
    }
  }

  @Override
  public void onOpen(WsSession s) {
    String errorId = guard.run("onOpen", () -> opened(s));
    if (errorId != null) {
      close(1011, "Internal error (errorId " + errorId + ").");
    }
  }

  private void opened(WsSession s) {
    Admissions.Admission a = admission;
    if (a != null) {
      a.opened();
    }
    session = s;
    lastInbound = node.nanos().getAsLong();
    queue = new io.runnel.sync.socket.OutboundQueue(node.limits().outboundBytes(), text -> written(s, text),
        "socket-writer");
    queue.onDrained(this::resync);
    grantWatch = node.grants().watch(this);
    node.open(this);
  }

  @Override
  public void onMessage(WsSession s, String text, boolean last) {
    guarded("onMessage", () -> text(text, last));
  }

  @Override
  public void onMessage(WsSession s, BufferData buffer, boolean last) {
    guarded("onMessage", () -> binary(last));
  }

  /** Runs a handler's body; a failure that escapes it is answered {@code refuse X_INTERNAL} ({@link HandlerGuard}). */
  private void guarded(String handler, Runnable body) {
    String errorId = guard.run(handler, body);
    if (errorId != null) {
      refuse(new NodeException(ErrorCode.X_INTERNAL, "The node failed to handle a frame; its log has the details "
          + "under errorId " + errorId + ".", "Go on; if it keeps failing, report the errorId."), null);
    }
  }

  /**
   * One WebSocket frame of a text message: it takes its token before anything reads it, so fragments cost what whole
   * frames do. A fragment over the rate is refused and drops its message; the rest of that message is not read.
   */
  private void text(String text, boolean last) {
    lastInbound = node.nanos().getAsLong();
    if (closed) {
      return;
    }
    if (!withinRate()) {
      fragments.reset();
      skipping = !last;
      return;
    }
    if (skipping) {
      skipping = !last;
      return;
    }
    String frame;
    try {
      frame = fragments.append(text, last);
    } catch (FrameException e) {
      node.metrics().refused(e.code().name());
      close(1009, e.cause());
      return;
    }
    if (frame != null) {
      handle(frame);
    }
  }

  /** One WebSocket frame of a binary message, final or not: it takes a token, and it drops a text message. */
  private void binary(boolean last) {
    lastInbound = node.nanos().getAsLong();
    fragments.reset();
    skipping = false;
    if (!closed && withinRate() && last) {
      refuse(new NodeException(ErrorCode.X_FRAME_INVALID, "The node reads text frames only; a binary frame came.",
          "Send each frame as one JSON text frame."), null);
    }
  }

  /** Takes one token; false when the socket is over its frame rate. */
  private boolean admit() {
    if (frameBudget.take(node.nanos().getAsLong()) == 0) {
      floods = 0;
      return true;
    }
    return false;
  }

  /**
   * Takes a token for one frame; when over the rate, refuses it, or closes with 1008 once more frames than the burst
   * were refused in a row (the flood goes on).
   */
  private boolean withinRate() {
    if (admit()) {
      return true;
    }
    SocketLimits limits = node.limits();
    String rate = perSecond(limits.framesPerSecond());
    if (++floods > limits.frameBurst()) {
      close(1008, "Frame flood: over " + rate + " frames a second for too long.");
      return false;
    }
    refuse(new NodeException(ErrorCode.X_FRAME_RATE_LIMIT, "Over " + rate + " frames a second (burst "
        + limits.frameBurst() + ").", "Send fewer frames; beat hello every heartbeatMs."), null);
    return false;
  }

  /** A rate as people write it: {@code 64}, or {@code 0.5}. */
  private static String perSecond(double rate) {
    return rate == Math.rint(rate) && rate < Long.MAX_VALUE ? Long.toString((long) rate) : Double.toString(rate);
  }

  private void handle(String text) {
    InboundFrame frame;
    try {
      frame = FrameCodec.decode(text);
    } catch (FrameException e) {
      node.metrics().refused(e.code().name());
      answer(OutboundFrame.Refuse.of(e));
      return;
    }
    identity.lock();
    try {
      handle(frame, grant.actor());
    } finally {
      identity.unlock();
    }
  }

  private void handle(InboundFrame frame, Actor actor) {
    switch (frame) {
      case InboundFrame.Hello h -> {
        if (h.v() != InboundFrame.VERSION) {
          refuse(new NodeException(ErrorCode.X_PROTOCOL_VERSION, "This node speaks protocol version 1, not " + h.v()
              + ".", "Upgrade the client."), null);
          return;
        }
        String lsn = node.live().deliveredPosition();
        answer(new OutboundFrame.Hello(1, node.nodeId(), actor.id(), node.heartbeatMs(),
            lsn.isEmpty() ? Lsn.ZERO.point() : lsn, null));
      }
      case InboundFrame.Sub sub -> subscribe(sub, actor);
      case InboundFrame.Unsub u -> {
        Asked a = subscriptions.get(u.sid());
        if (a != null) {
          letGo(u.sid(), a);
        }
      }
      case InboundFrame.Join j -> {
        try {
          node.channels().join(this, j.topic(), j.cursor(), j.presence());
        } catch (ChannelException e) {
          node.metrics().refused(e.code().name());
          answer(OutboundFrame.Refuse.of(e, null, j.topic()));
        }
      }
      case InboundFrame.Leave l -> node.channels().leave(this, l.topic());
    }
  }

  private void subscribe(InboundFrame.Sub sub, Actor actor) {
    if (subscriptions.containsKey(sub.sid())) {
      refuse(new NodeException(ErrorCode.X_SUBSCRIPTION_ID_TAKEN, "This socket already holds sid '" + sub.sid() + "'.",
          "Use a new sid, or unsub the old one first."), sub.sid());
      return;
    }
    if (subscriptions.size() >= node.admissions().limits().subscriptionsPerSocket()) {
      refuse(new NodeException(ErrorCode.X_SUBSCRIPTION_LIMIT, "This socket holds "
          + node.admissions().limits().subscriptionsPerSocket() + " live subscriptions, its limit.",
          "Unsubscribe from a query before subscribing to another."), sub.sid());
      return;
    }
    Runnable slot = null;
    boolean held = false;
    RunnelException refused = null;
    refusedEarly.remove(sub.sid());
    try {
      slot = node.admissions().subscription(actor, network);
      LiveSubscription s = node.live().subscribe(this, sub.sid(), actor, sub.q(), sub.in(), sub.cursor());
      Asked asked = new Asked(sub.q(), sub.in(), s, slot);
      subscriptions.put(sub.sid(), asked);
      held = true;
      node.metrics().subscriptions.incrementAndGet();
      if (closed || refusedEarly.remove(sub.sid())) {
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
      refuse(refused, sub.sid());
    }
  }

  private void refuse(RunnelException e, @Nullable String sid) {
    node.metrics().refused(e.code().name());
    answer(OutboundFrame.Refuse.of(e, sid, null));
  }

  /**
   * Queues the answer to a frame the client sent ({@code hello}, {@code refuse}) behind whatever is queued, past the
   * data bound ({@link io.runnel.sync.socket.OutboundQueue#offerAnswer}); false when even that room is full.
   */
  private boolean answer(OutboundFrame frame) {
    return queue(FrameCodec.encode(frame), true);
  }

  /** Queues a frame; false when it was dropped over the bound. */
  private boolean send(OutboundFrame frame) {
    return send(FrameCodec.encode(frame));
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public boolean open() {
    return !closed;
  }

  @Override
  public Actor actor() {
    return grant.actor();
  }

  /** Queues one frame's text; false when it was dropped over the bound (or the socket is closed). */
  @Override
  public boolean send(String text) {
    return queue(text, false);
  }

  private boolean queue(String text, boolean answer) {
    io.runnel.sync.socket.OutboundQueue q = queue;
    if (q == null || closed) {
      return false;
    }
    if (answer ? q.offerAnswer(text) : q.offer(text)) {
      node.metrics().framesSent.increment();
      node.metrics().bytesSent.increment(text.getBytes(StandardCharsets.UTF_8).length);
      return true;
    }
    lostFrames.set(true);
    dropped();
    return false;
  }

  private void dropped() {
    node.metrics().framesDropped.increment();
    if (drops.incrementAndGet() == node.limits().dropsBeforeClose()) {
      // On a thread of its own: the sender may hold a channel topic's lock, and closing leaves every topic, which
      // takes this socket's hub state first (the hub's lock order is socket, then topic).
      Thread.ofVirtual().name("socket-drops-close").start(
          () -> close(1013, "Too many frames dropped: the client is not reading."));
    }
  }

  @Override
  public void snapshot(String sid, List<LiveRecord> records, Cursor cursor) {
    if (subscriptions.containsKey(sid) || !desynced.contains(sid)) {
      if (!send(new OutboundFrame.Snapshot(sid, records, cursor))) {
        desynced.add(sid);
      } else {
        desynced.remove(sid);
      }
    }
  }

  @Override
  public void patch(String sid, List<Op> ops, List<String> writes, Cursor cursor) {
    if (desynced.contains(sid)) {
      // Not sent: the subscription is re-snapshotted once the socket drains. It counts as a drop all the same.
      dropped();
      return;
    }
    if (!send(new OutboundFrame.Patch(sid, ops, writes, cursor))) {
      desynced.add(sid);
    }
  }

  @Override
  public void refuse(String sid, RunnelException error) {
    Asked a = subscriptions.get(sid);
    if (a != null) {
      letGo(sid, a);
    } else {
      refusedEarly.add(sid);
    }
    refuse(error, sid);
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
      node.metrics().subscriptions.decrementAndGet();
    }
  }

  /**
   * After the queue drains: each desynced subscription is subscribed again, which answers a fresh snapshot, and each
   * topic whose presence frames were dropped sends its roster again.
   */
  private void resync() {
    try {
      if (lostFrames.getAndSet(false)) {
        node.channels().drained(this);
      }
      if (desynced.isEmpty()) {
        // The common case (the queue empties after almost every frame): no lock, no work.
        return;
      }
      identity.lock();
      try {
        for (String sid : Set.copyOf(desynced)) {
          resubscribe(sid);
        }
      } finally {
        identity.unlock();
      }
    } catch (RuntimeException e) {
      // On the writer's thread: a failure here must not leave the socket open without a writer.
      LOG.log(Level.WARNING, "Repairing a socket after dropped frames failed; the socket is closed", e);
      close(1011, "The node could not repair this socket; reconnect.");
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
      LiveSubscription again = node.live().subscribe(this, sid, grant.actor(), a.query(), a.input());
      Asked renewed = new Asked(a.query(), a.input(), again, a.slot());
      if (!subscriptions.replace(sid, a, renewed)) {
        // Let go meanwhile (an unsub, or the socket's clean-up): the new subscription is not held.
        again.close();
        return;
      }
      if (closed || refusedEarly.remove(sid)) {
        letGo(sid, renewed);
      }
    } catch (RunnelException e) {
      refuse(sid, e);
    }
  }

  @Override
  public Grant grant() {
    return grant;
  }

  /**
   * Holds {@code next} from now on; when its actor differs, every subscription is subscribed again for it (a fresh
   * snapshot, or {@code refuse} with the policy's code) and every topic whose channel policy now refuses it is left
   * with {@code refuse}. Runs on the grant keeper's thread, under the identity lock.
   */
  @Override
  public void regrant(Grant next) {
    identity.lock();
    try {
      Actor before = grant.actor();
      grant = next;
      if (before.equals(next.actor())) {
        return;
      }
      for (String sid : Set.copyOf(subscriptions.keySet())) {
        resubscribe(sid);
      }
      node.channels().recheck(this).forEach((topic, e) -> {
        node.metrics().refused(e.code().name());
        answer(OutboundFrame.Refuse.of(e, null, topic));
      });
    } finally {
      identity.unlock();
    }
  }

  @Override
  public void expire(String reason) {
    close(1008, reason);
  }

  /** Starts a check of the socket's grant when one is due at {@code nowMillis}; never blocks (the node's sweep). */
  void checkGrant(long nowMillis) {
    GrantWatch w = grantWatch;
    if (w != null && !closed) {
      w.check(nowMillis);
    }
  }

  /**
   * Whether the connection is gone, the socket has been silent past the idle budget, or a send has blocked past its
   * deadline. A connection the client dropped without a close frame is noticed here: Helidon 4.5 ends the connection
   * when reading a frame fails and tells the listener nothing (no {@code onClose}, no {@code onError}).
   */
  void sweep(long nowNanos) {
    WsSession open = session;
    if (open != null && !connected(open)) {
      cleanUp();
      return;
    }
    if (nowNanos - lastInbound > node.limits().idle().toNanos()) {
      close(4001, "Idle: no frame for " + node.limits().idle().toSeconds() + " s.");
      return;
    }
    io.runnel.sync.socket.OutboundQueue q = queue;
    long since = q == null ? 0 : q.sendingSince();
    if (since != 0 && System.nanoTime() - since > node.limits().sendDeadline().toNanos()) {
      WsSession s = session;
      cleanUp();
      if (s != null) {
        cut(s);
      }
    }
  }

  /**
   * The node is draining: queues a {@code reconnect} frame with {@code delayMs} (ahead of the data bound, as an
   * answer is); false when the socket is closed or even that room is full.
   */
  boolean reconnect(long delayMs, String reason) {
    return answer(new OutboundFrame.Reconnect(delayMs, reason));
  }

  /**
   * The node is stopping: closes the socket with 1001 (going away), so the client reconnects (to another node).
   *
   * @return the thread sending the close frame and awaiting the client's answer (done within 2 s, cutting a client
   *     that gives none), or null when the socket had no session
   */
  @Nullable Thread goingAway() {
    return close(1001, "The node is stopping; reconnect.");
  }

  /**
   * Closes the socket with {@code code} without ever blocking the caller (a window's lane or the sweeper): the close
   * frame is sent from a thread of its own, and a client that has not taken it and answered with its own close frame
   * within 2 s is cut (RFC 6455 section 7.1.1: the server closes the TCP connection once the closing handshake is
   * done; a client that never reads would hold it open for good). Answers that thread, or null when there was no
   * session.
   */
  private @Nullable Thread close(int code, String reason) {
    WsSession s = session;
    cleanUp();
    if (s == null) {
      return null;
    }
    return Thread.ofVirtual().name("socket-close").start(() -> {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      Thread closer = Thread.ofVirtual().start(() -> {
        try {
          s.close(code, reason);
        } catch (RuntimeException e) {
          cut(s);
        }
      });
      boolean answered = false;
      try {
        closer.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        answered = ended.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (closer.isAlive() || !answered) {
        cut(s);
      }
    });
  }

  /** Whether the TCP connection under {@code s} is still up (true when that cannot be told). */
  private static boolean connected(WsSession s) {
    try {
      return !(s.socketContext() instanceof ConnectionContext c) || c.serverSocket().isConnected();
    } catch (RuntimeException e) {
      return true;
    }
  }

  /**
   * Cuts the connection under {@code s} from any thread: closes its TCP socket, so a send blocked on a client that
   * does not read fails at once and the reader sees the end. (Helidon's {@code WsSession.terminate()} is no use
   * here: it first sends a close frame, which blocks behind the stuck send, and then throws in the caller by
   * design, for the connection's own handler thread to catch.)
   */
  static void cut(WsSession s) {
    try {
      if (s.socketContext() instanceof ConnectionContext c) {
        c.serverSocket().close();
        return;
      }
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "Closing the TCP socket failed: " + e.getMessage());
    }
    try {
      s.terminate();
    } catch (RuntimeException e) {
      // CloseConnectionException: terminate() ends with it by design.
    }
  }

  /**
   * The writer's send of one frame. A send that fails ends the writer, so it ends the socket too: a socket left open
   * with no writer would swallow every later frame, {@code hello} answers included.
   */
  private void written(WsSession s, String text) {
    try {
      s.send(text, true);
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "Socket send failed: " + e.getMessage());
      cleanUp();
      cut(s);
      throw e;
    }
  }

  @Override
  public void onClose(WsSession s, int status, String reason) {
    try {
      guard.run("onClose", this::cleanUp);
    } finally {
      ended.countDown();
    }
  }

  @Override
  public void onError(WsSession s, Throwable t) {
    LOG.log(Level.DEBUG, "Socket error: " + t.getMessage());
    try {
      guard.run("onError", this::cleanUp);
    } finally {
      ended.countDown();
    }
  }

  private void cleanUp() {
    if (!cleaned.compareAndSet(false, true)) {
      return;
    }
    closed = true;
    // Each entry let go by its own remove: a subscribe or resubscribe racing this pass sees closed and lets go of
    // whatever it holds itself, so no entry is missed and none is counted off twice.
    for (Map.Entry<String, Asked> e : subscriptions.entrySet()) {
      letGo(e.getKey(), e.getValue());
    }
    node.channels().closed(this);
    io.runnel.sync.socket.OutboundQueue q = queue;
    if (q != null) {
      q.close();
    }
    node.closed(this);
    Admissions.Admission a = admission;
    if (a != null) {
      a.release();
    }
  }
}
