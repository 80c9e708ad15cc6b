package io.runnel.sync.socket.internal;

import io.helidon.common.buffers.BufferData;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;
import io.runnel.dsl.Actor;
import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.Cursor;
import io.runnel.protocol.FrameException;
import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import io.runnel.protocol.ServerFrame;
import io.runnel.protocol.WireRecord;
import io.runnel.sync.auth.Grant;
import io.runnel.sync.auth.internal.GrantHolder;
import io.runnel.sync.auth.internal.GrantKeeper;
import io.runnel.sync.auth.internal.GrantWatch;
import io.runnel.sync.channel.ChannelException;
import io.runnel.sync.channel.internal.ChannelHub;
import io.runnel.sync.channel.internal.ChannelMember;
import io.runnel.sync.live.internal.LiveSubscriber;
import io.runnel.sync.socket.SocketLimits;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * One socket of {@code /v1/sync}: decided before the upgrade (its grant, {@link SocketUpgrade}), then read frame by
 * frame on Helidon's virtual thread for the connection ({@link InboundFrames}), and written only through its own
 * {@link OutboundQueue} ({@link SocketOutbox}), so a client that stops reading stalls nobody
 * else. This class wires those parts together with its subscriptions ({@link SocketSubscriptions}) and its closing
 * handshake ({@link ClosingHandshake}), and decides what each frame means.
 *
 * <p>A frame the node cannot read is refused and the socket stays up. A frame dropped over the outbound bound marks
 * its subscription desynced; once the queue drains, the subscription is re-snapshotted. After
 * {@link SocketLimits#dropsBeforeClose()} drops the socket is closed with 1013.
 *
 * <p>{@code join} (with its records cursor) and {@code leave} go to the node's
 * {@link ChannelHub}; a refused join is answered with {@code refuse} naming its topic. Once
 * the queue drains after a drop, the hub resends the rosters and sends {@code gap} for the records frames the socket
 * lost. A socket that closes leaves all its topics at once.
 *
 * <p>Its grant is re-decided over time ({@link GrantKeeper}): a changed actor decides every
 * subscription and topic again ({@link #regrant}); an expired one closes the socket with 1008. {@code sub} and
 * {@code join} are decided under the identity lock, so none is decided for an actor a regrant already replaced.
 * Whichever of a close, the sweeper and the connection's end comes first cleans the socket up, once.
 */
final class SyncSocket implements WsListener, LiveSubscriber, ChannelMember, GrantHolder {

  private static final System.Logger LOG = System.getLogger(SyncSocket.class.getName());

  private final SocketEndpoint endpoint;
  private final String id = UUID.randomUUID().toString();
  private final SocketOutbox outbox;
  private final InboundFrames inbound;
  private final SocketSubscriptions subscriptions;
  private final ClosingHandshake closing = new ClosingHandshake();
  private final HandlerGuard guard;
  private volatile @Nullable Grant grant;
  private volatile @Nullable GrantWatch grantWatch;
  /** Held while a subscription or topic is decided for the actor, and while a regrant decides them all again. */
  private final ReentrantLock identity = new ReentrantLock();
  private volatile @Nullable WsSession session;
  /** This socket's reservations (its node slot, its actor's slot), given back when it closes. */
  private volatile Admissions.@Nullable Admission admission;
  /** The client network the upgrade came from, which an anonymous actor's caps count under. */
  private String network = "?";
  private volatile boolean closed;
  /** Set by the one {@link #cleanUp} that runs (a close, the sweeper and the connection's end may race). */
  private final AtomicBoolean cleaned = new AtomicBoolean();

  /** A socket of {@code endpoint}, not yet upgraded. */
  SyncSocket(SocketEndpoint endpoint) {
    this.endpoint = endpoint;
    this.outbox = new SocketOutbox(endpoint.limits, endpoint.meters, this);
    this.inbound = new InboundFrames(endpoint.limits, endpoint.nanos, endpoint.meters, this, outbox);
    this.subscriptions = new SocketSubscriptions(endpoint.live, endpoint.admissions, endpoint.meters, this, outbox);
    this.guard = new HandlerGuard(endpoint.meters.handlerFailures);
  }

  @Override
  public Optional<Headers> onHttpUpgrade(HttpPrologue prologue, Headers headers) {
    SocketUpgrade.Decided d = endpoint.upgrade.decide(prologue, headers);
    grant = d.grant();
    Admissions.Admission a = d.admission();
    network = a.network();
    admission = a;
    a.handedOver();
    return Optional.empty();
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
    inbound.opened();
    outbox.opened(s, this::resync);
    grantWatch = endpoint.grants.watch(this);
    endpoint.open(this);
  }

  @Override
  public void onMessage(WsSession s, String text, boolean last) {
    guarded("onMessage", () -> inbound.text(text, last));
  }

  @Override
  public void onMessage(WsSession s, BufferData buffer, boolean last) {
    guarded("onMessage", () -> inbound.binary(last));
  }

  /** Runs a handler's body; a failure that escapes it is answered {@code refuse X_INTERNAL} ({@link HandlerGuard}). */
  private void guarded(String handler, Runnable body) {
    String errorId = guard.run(handler, body);
    if (errorId != null) {
      outbox.refuse(new NodeException(ErrorCode.X_INTERNAL, "The node failed to handle a frame; its log has the "
          + "details under errorId " + errorId + ".", "Go on; if it keeps failing, report the errorId."), null);
    }
  }

  /** One whole text frame the client sent: decoded, then decided under the identity lock. */
  void handle(String text) {
    ClientFrame frame;
    try {
      frame = FrameCodec.decode(text);
    } catch (FrameException e) {
      endpoint.meters.refused(e.code().name());
      outbox.answer(ServerFrame.Refuse.of(e));
      return;
    }
    identity.lock();
    try {
      handle(frame, decided().actor());
    } finally {
      identity.unlock();
    }
  }

  private void handle(ClientFrame frame, Actor actor) {
    switch (frame) {
      case ClientFrame.Hello h -> {
        if (h.v() != ClientFrame.VERSION) {
          outbox.refuse(new NodeException(ErrorCode.X_PROTOCOL_VERSION, "This node speaks protocol version 1, not "
              + h.v() + ".", "Upgrade the client."), null);
          return;
        }
        Position lsn = endpoint.live.deliveredPosition();
        // asOf first: once present it stays, so the lag read after it is present too.
        OptionalLong asOf = endpoint.live.asOf();
        OptionalLong lag = endpoint.live.lagMillis();
        boolean known = asOf.isPresent() && lag.isPresent();
        outbox.answer(new ServerFrame.Hello(1, endpoint.nodeId, actor.id(), endpoint.heartbeatMs,
            lsn, known ? lag.getAsLong() : null, known ? asOf.getAsLong() : null,
            null));
      }
      case ClientFrame.Sub sub -> subscriptions.subscribe(sub, actor, network);
      case ClientFrame.Unsub u -> subscriptions.unsub(u.sid());
      case ClientFrame.Join j -> {
        try {
          endpoint.channels.join(this, j.topic(), j.cursor(), j.presence());
        } catch (ChannelException e) {
          endpoint.meters.refused(e.code().name());
          outbox.answer(ServerFrame.Refuse.of(e, null, j.topic()));
        }
      }
      case ClientFrame.Leave l -> endpoint.channels.leave(this, l.topic());
    }
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
    return decided().actor();
  }

  /** Queues one frame's text; false when it was dropped over the bound (or the socket is closed). */
  @Override
  public boolean send(String text) {
    return outbox.send(text);
  }

  @Override
  public void snapshot(String sid, List<WireRecord> records, Cursor cursor) {
    subscriptions.snapshot(sid, records, cursor);
  }

  @Override
  public void patch(String sid, List<Op> ops, List<String> writes, Cursor cursor) {
    subscriptions.patch(sid, ops, writes, cursor);
  }

  @Override
  public void refuse(String sid, RunnelException error) {
    subscriptions.refused(sid, error);
  }

  /**
   * After the queue drains: each desynced subscription is subscribed again, which answers a fresh snapshot, and each
   * topic whose presence frames were dropped sends its roster again.
   */
  private void resync() {
    try {
      if (outbox.takeLostFrames()) {
        endpoint.channels.drained(this);
      }
      if (!subscriptions.anyDesynced()) {
        // The common case (the queue empties after almost every frame): no lock, no work.
        return;
      }
      identity.lock();
      try {
        subscriptions.resubscribeDesynced();
      } finally {
        identity.unlock();
      }
    } catch (RuntimeException e) {
      // On the writer's thread: a failure here must not leave the socket open without a writer.
      LOG.log(Level.WARNING, "Repairing a socket after dropped frames failed; the socket is closed", e);
      close(1011, "The node could not repair this socket; reconnect.");
    }
  }

  @Override
  public Grant grant() {
    return decided();
  }

  /** The grant decided at the upgrade, which comes before every frame and every check of it. */
  private Grant decided() {
    return Objects.requireNonNull(grant, "the socket's grant is decided at the upgrade");
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
      Actor before = decided().actor();
      grant = next;
      if (before.equals(next.actor())) {
        return;
      }
      subscriptions.resubscribeAll();
      endpoint.channels.recheck(this).forEach((topic, e) -> {
        endpoint.meters.refused(e.code().name());
        outbox.answer(ServerFrame.Refuse.of(e, null, topic));
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
    if (open != null && !ClosingHandshake.connected(open)) {
      cleanUp();
      return;
    }
    if (nowNanos - inbound.lastInbound() > endpoint.limits.idle().toNanos()) {
      close(4001, "Idle: no frame for " + endpoint.limits.idle().toSeconds() + " s.");
      return;
    }
    long since = outbox.sendingSince();
    if (since != 0 && System.nanoTime() - since > endpoint.limits.sendDeadline().toNanos()) {
      WsSession s = session;
      cleanUp();
      if (s != null) {
        ClosingHandshake.cut(s);
      }
    }
  }

  /**
   * The node is draining: queues a {@code reconnect} frame with {@code delayMs} (ahead of the data bound, as an
   * answer is); false when the socket is closed or even that room is full.
   */
  boolean reconnect(long delayMs, String reason) {
    return outbox.answer(new ServerFrame.Reconnect(delayMs, reason));
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
   * Closes the socket with {@code code} without ever blocking the caller (a window's lane or the sweeper): cleans it
   * up, then runs the closing handshake ({@link ClosingHandshake#close}), which cuts a client that has not answered
   * within 2 s. Answers that handshake's thread, or null when there was no session.
   */
  @Nullable Thread close(int code, String reason) {
    WsSession s = session;
    cleanUp();
    if (s == null) {
      return null;
    }
    return closing.close(s, code, reason);
  }

  @Override
  public void onClose(WsSession s, int status, String reason) {
    try {
      guard.run("onClose", this::cleanUp);
    } finally {
      closing.ended();
    }
  }

  @Override
  public void onError(WsSession s, Throwable t) {
    LOG.log(Level.DEBUG, "Socket error: " + t.getMessage());
    try {
      guard.run("onError", this::cleanUp);
    } finally {
      closing.ended();
    }
  }

  /** Ends the socket once, whoever calls first: its subscriptions, topics, queue, node registration and slots. */
  void cleanUp() {
    if (!cleaned.compareAndSet(false, true)) {
      return;
    }
    closed = true;
    subscriptions.letGoAll();
    endpoint.channels.closed(this);
    outbox.close();
    endpoint.closed(this);
    Admissions.Admission a = admission;
    if (a != null) {
      a.release();
    }
  }
}
