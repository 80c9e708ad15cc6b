package io.runnel.client.live.internal;

import io.runnel.client.ConnectionState;
import io.runnel.client.live.LiveQuery;
import io.runnel.client.live.NodeRefusedException;
import io.runnel.client.live.QueryState;
import io.runnel.client.live.SyncEndpoint;
import io.runnel.client.port.JsonPort;
import io.runnel.client.port.Scheduler;
import io.runnel.client.port.SocketPort;
import io.runnel.client.store.internal.RecordStore;
import io.runnel.dsl.Actor;
import io.runnel.dsl.QueryRef;
import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.FrameDecoder;
import io.runnel.protocol.FrameException;
import io.runnel.protocol.JsonTreeSink;
import io.runnel.protocol.ServerFrame;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import io.runnel.wire.RunnelException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The page's one socket to a node and the live queries riding on it.
 *
 * <p>Design: the client is in one phase at a time (stopped, waiting to retry, connecting, online), and one method
 * moves it from phase to phase, letting go of what the phase it leaves held. Each socket has its own link (the
 * socket and its timers); events of a socket whose link is no longer the phase's are ignored, so a late close or
 * frame never disturbs the next connection. On open the client sends {@code hello}; the node's answer brings the
 * actor and {@code heartbeatMs}, and only then are the subscriptions sent (each with its cursor and held keys, when
 * they fit in a frame), so a principal change is seen before any resume is asked for. The client beats
 * {@code hello} every {@code heartbeatMs}; hearing nothing for two intervals it closes with 4000 and reconnects after
 * an equal-jitter {@link Backoff}, or after a {@code reconnect} frame's delay. A {@code hello} answer's LSN settles
 * writes only when every subscription is live on this connection, so a resume still in flight cannot hide an echo.
 * The page's word about the network cuts a backoff short ({@link #reconnectNow}), never a {@code reconnect} frame's
 * delay, and never drops a socket.
 */
public final class LiveClient {

  /** The node's inbound frame limit: a {@code sub} larger than this resumes without a cursor. */
  public static final int MAX_FRAME_BYTES = 256 * 1024;
  /** The beat interval used until the node names its own. */
  public static final long DEFAULT_HEARTBEAT_MS = 10_000;
  /**
   * How long after a {@code hello} the client waits for its subscriptions and topics to be synced before it tells
   * {@link #onCaughtUp} listeners anyway, in milliseconds: a slow snapshot delays the outbox by at most this.
   */
  public static final long CATCH_UP_WAIT_MS = 5_000;

  private final SocketPort sockets;
  private final Scheduler scheduler;
  private final JsonPort json;
  private final RecordStore store;
  private final SyncEndpoint endpoint;
  private final DoubleSupplier random;
  private final Backoff backoff;
  private final @Nullable String build;
  private final TopicFrames topics;
  private final Map<String, QuerySubscription> queries = new LinkedHashMap<>();
  private final List<Consumer<ConnectionState>> connectionListeners = new ArrayList<>();
  private final List<Consumer<RunnelException>> errorListeners = new ArrayList<>();
  private final List<LongConsumer> caughtUpListeners = new ArrayList<>();
  private final @Nullable String orgId;
  private Phase phase = new Stopped();
  private ConnectionState state;
  private long epoch;
  private int failures;
  private int sids;
  private long heartbeatMs = DEFAULT_HEARTBEAT_MS;
  /** The actor the node's last {@code hello} answer named (in the page's org), or null before the first answer. */
  private @Nullable Actor principal;
  /** The connection epoch whose catch-up the listeners heard, or -1. */
  private long caughtUpEpoch = -1;

  /** Where the client is; each phase holds what exists only in it. */
  private sealed interface Phase permits Stopped, Waiting, Connecting, Online {}

  /** Not started yet, or stopped: no socket and no timer. */
  private static final class Stopped implements Phase {}

  /** No socket; {@code retry} opens the next one. */
  private static final class Waiting implements Phase {
    /** Whether a draining node named the delay (a {@code reconnect} frame), which nothing cuts short. */
    final boolean nodeNamed;
    Scheduler.@Nullable Cancellable retry;

    Waiting(boolean nodeNamed) {
      this.nodeNamed = nodeNamed;
    }
  }

  /**
   * Asking for the URL, opening the socket, or open with {@code hello} sent and not yet answered. It stays its
   * socket's link (the socket, its timers, and the listener of its events) in the {@link Online} phase that follows,
   * and events of a socket whose link is no longer the phase's are ignored.
   */
  private final class Connecting implements Phase, SocketPort.Listener {
    /** Null until the endpoint named the URL. */
    SocketPort.@Nullable Connection socket;
    Scheduler.@Nullable Cancellable beat;
    Scheduler.@Nullable Cancellable silence;

    @Override
    public void opened() {
      if (link(phase) == this) {
        sendHello();
        heard();
        scheduleBeat();
      }
    }

    @Override
    public void text(String frame) {
      if (link(phase) == this) {
        heard();
        receive(frame);
        checkCaughtUp();
      }
    }

    @Override
    public void closed(int code, String reason) {
      if (link(phase) == this) {
        lost(-1);
      }
    }
  }

  /** The node answered {@code hello} on the socket {@code link} opened. */
  private static final class Online implements Phase {
    final Connecting link;
    Scheduler.@Nullable Cancellable soon;
    Scheduler.@Nullable Cancellable catchUp;
    /** Whether a {@code hello} answer was set aside while a subscription was not live. */
    boolean helloUnused;

    Online(Connecting link) {
      this.link = link;
    }
  }

  LiveClient(LiveClientBuilder b) {
    this.sockets = Objects.requireNonNull(b.sockets, "sockets");
    this.scheduler = Objects.requireNonNull(b.scheduler, "scheduler");
    this.json = Objects.requireNonNull(b.json, "json");
    this.store = Objects.requireNonNull(b.store, "store");
    this.endpoint = Objects.requireNonNull(b.endpoint, "endpoint");
    this.random = Objects.requireNonNull(b.random, "random");
    this.backoff = b.backoff;
    this.build = b.build;
    this.orgId = b.orgId;
    this.topics = b.topics;
    this.state = new ConnectionState.Offline(0, scheduler.nowMillis());
    store.onError(this::report);
  }

  /** A builder; the socket port, scheduler, JSON port, store, endpoint and random source are required. */
  public static LiveClientBuilder builder() {
    return new LiveClientBuilder();
  }

  /** Opens the first connection; the client keeps one open from now on until {@link #stop()}. */
  public void start() {
    if (phase instanceof Stopped) {
      connect();
    }
  }

  /** Closes the socket (1000), stops reconnecting and tells the listeners {@link ConnectionState.Closed}, once. */
  public void stop() {
    SocketPort.Connection c = socket();
    enter(new Stopped(), null);
    if (c != null) {
      c.close(1000, "stopped");
    }
    if (!(state instanceof ConnectionState.Closed)) {
      setState(new ConnectionState.Closed(epoch));
    }
  }

  /** The connection's state now. */
  public ConnectionState connection() {
    return state;
  }

  /**
   * The actor id the node's last {@code hello} answer named, {@code ""} for an anonymous page, or null before the
   * first answer; already the new one when listeners hear {@code Online}.
   */
  public @Nullable String actorId() {
    Actor a = principal;
    if (a == null) {
      return null;
    }
    String id = a.id();
    return id == null ? "" : id;
  }

  /** Calls {@code listener} with the state now and with every change. */
  public void onConnection(Consumer<ConnectionState> listener) {
    connectionListeners.add(Objects.requireNonNull(listener, "listener"));
    listener.accept(state);
  }

  /**
   * Calls {@code listener} with the connection's epoch once per connection, when every subscription and topic has
   * had its first answer since the {@code hello} (a snapshot, a resume's patch, a refusal, a topic's catch-up), or
   * {@link #CATCH_UP_WAIT_MS} after the {@code hello}, whichever comes first; never for a connection lost before.
   * The outbox waits for it, so a write replayed after a reload is first sent once the records it touches are in the
   * store: the overlay then holds their rows from before the write, and an echo that beats the write's answer is not
   * counted twice.
   */
  public void onCaughtUp(LongConsumer listener) {
    caughtUpListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Calls {@code listener} with every error the client reports: unreadable frames, rejected records, refusals. */
  public void onError(Consumer<RunnelException> listener) {
    errorListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Subscribes to live query {@code ref} with {@code input}; the handle shows its records and state.
   *
   * @throws IllegalArgumentException when the query is not live or its input does not encode as a JSON object
   */
  public <I> LiveQuery query(QueryRef<I> ref, I input) {
    Objects.requireNonNull(input, "input");
    if (!ref.live()) {
      throw new IllegalArgumentException("Query '" + ref.name() + "' is not live; read it once over HTTP");
    }
    JsonValue in = ref.codec().encode(input);
    if (!(in instanceof JsonObject object)) {
      throw new IllegalArgumentException("The input of '" + ref.name() + "' must encode as a JSON object");
    }
    sids++;
    QuerySubscription q = new QuerySubscription(this, store, "q" + sids, ref.name(), object, a -> ref.select(input, a));
    queries.put(q.sid(), q);
    Actor a = principal;
    if (a != null) {
      q.actor(a);
    }
    if (phase instanceof Online) {
      sendSub(q);
    }
    return q;
  }

  /**
   * A handle for query {@code name} that this page cannot subscribe, failed from the start with {@code failure}:
   * it shows that state and no records, is never sent (not even after a principal change, which asks again for the
   * subscriptions the node refused), and releasing it sends nothing.
   */
  public LiveQuery failed(String name, QueryState.Failed failure) {
    Objects.requireNonNull(failure, "failure");
    sids++;
    QuerySubscription q = new QuerySubscription(this, store, "q" + sids, Objects.requireNonNull(name, "name"),
        JsonObject.EMPTY,
        a -> {
          throw new IllegalStateException("Query '" + name + "' is never subscribed");
        });
    q.refused(failure);
    return q;
  }

  /**
   * Reconnects now instead of waiting out the backoff (the page says the network is back, or the tab is shown again
   * after its timers were throttled): when offline waiting to retry, the retry is called off and a socket opens at
   * once; when online, {@code hello} goes soon ({@link #beatSoon}) to check the socket. Nothing while connecting or
   * stopped, nor while waiting out a draining node's {@code reconnect} delay: that delay spreads the node's clients
   * over its window, and the page's word says nothing about it.
   */
  public void reconnectNow() {
    if (phase instanceof Online) {
      beatSoon();
    } else if (phase instanceof Waiting w && !w.nodeNamed) {
      connect();
    }
  }

  /**
   * Beats {@code hello} as soon as the current task returns, so a write just answered settles by its LSN sooner, or
   * to check the socket when the page says the network changed: sending on a dead socket lets the browser find it
   * broken, and one that stays silent is closed two beats after the last frame heard (4000). The socket is never
   * dropped on the page's word alone: the browser's {@code offline} event is a guess (one network interface of
   * several went down, a VPN changed, a test tool cut HTTP only), and a socket that still answers keeps its
   * subscriptions instead of resuming them all. Nothing unless online.
   */
  public void beatSoon() {
    if (phase instanceof Online o && o.soon == null) {
      o.soon = scheduler.schedule(0, () -> {
        o.soon = null;
        sendHello();
      });
    }
  }

  void released(QuerySubscription q) {
    if (queries.remove(q.sid()) != null && phase instanceof Online) {
      send(new ClientFrame.Unsub(q.sid()));
      checkCaughtUp();
    }
  }

  /**
   * Moves to {@code next}, letting go of what the phase it leaves held: a socket's timers, a retry; leaving the
   * socket behind (for {@link Waiting} or {@link Stopped}) also marks every subscription and topic unsynced. Then
   * tells the connection listeners {@code shown}, unless null.
   */
  private void enter(Phase next, @Nullable ConnectionState shown) {
    Phase left = phase;
    phase = next;
    if (left instanceof Waiting w) {
      cancel(w.retry);
    } else if (left instanceof Online o) {
      cancel(o.soon);
      cancel(o.catchUp);
    }
    Connecting link = link(left);
    if (link != null && link != link(next)) {
      cancel(link.beat);
      cancel(link.silence);
    }
    if (link(next) == null) {
      for (QuerySubscription q : queries.values()) {
        q.unsynced();
      }
      topics.offline();
    }
    if (shown != null) {
      setState(shown);
    }
  }

  private void connect() {
    Connecting link = new Connecting();
    enter(link, new ConnectionState.Connecting(epoch));
    endpoint.url(url -> {
      if (link(phase) == link) {
        link.socket = sockets.open(url, link);
      }
    }, reason -> {
      if (link(phase) == link) {
        lost(-1);
      }
    });
  }

  /**
   * The connection is gone (closed, silent, failed or told to reconnect): back off, or wait exactly {@code delay}
   * (a draining node's {@code delayMs}), which counts as no failure.
   */
  private void lost(long delay) {
    Waiting w = new Waiting(delay >= 0);
    long wait = w.nodeNamed ? delay : backoff.delay(failures++, random.getAsDouble());
    enter(w, new ConnectionState.Offline(epoch, scheduler.nowMillis() + wait));
    if (phase == w) { // a connection listener may have moved on (reconnectNow, stop) while it was told
      w.retry = scheduler.schedule(wait, () -> {
        if (phase == w) {
          connect();
        }
      });
    }
  }

  /** The socket of {@code p}, with its timers, or null in a phase without one. */
  private static @Nullable Connecting link(Phase p) {
    return p instanceof Online o ? o.link : p instanceof Connecting c ? c : null;
  }

  /** The current phase's socket, or null when it has none (yet). */
  private SocketPort.@Nullable Connection socket() {
    Connecting link = link(phase);
    return link == null ? null : link.socket;
  }

  private void receive(String text) {
    ServerFrame frame;
    try {
      frame = FrameDecoder.server(json.parse(text));
    } catch (FrameException e) {
      report(e);
      return;
    } catch (RuntimeException e) {
      report(FrameException.ofNodeFrame("A frame is not JSON: " + e.getMessage()));
      return;
    }
    switch (frame) {
      case ServerFrame.Hello h -> hello(h);
      case ServerFrame.Snapshot s -> {
        QuerySubscription q = queries.get(s.sid());
        if (q != null) {
          store.batch(() -> q.snapshot(s));
          liveAgain();
        }
      }
      case ServerFrame.Patch p -> {
        QuerySubscription q = queries.get(p.sid());
        if (q != null) {
          store.batch(() -> q.patch(p));
          liveAgain();
        } else {
          store.noteWrites(p.writes());
        }
      }
      case ServerFrame.Refuse r -> refused(r);
      case ServerFrame.Reconnect r -> {
        SocketPort.Connection c = socket();
        lost(r.delayMs());
        if (c != null) {
          c.close(1000, "reconnect: " + r.reason());
        }
      }
      case ServerFrame.Records r -> topics.frame(r);
      case ServerFrame.Gap g -> topics.frame(g);
      case ServerFrame.Event e -> topics.frame(e);
      case ServerFrame.Presence p -> topics.frame(p);
      case ServerFrame.PresenceDiff d -> topics.frame(d);
    }
  }

  private void hello(ServerFrame.Hello h) {
    heartbeatMs = h.heartbeatMs();
    if (phase instanceof Connecting c) {
      Online online = new Online(c);
      enter(online, null);
      epoch++;
      failures = 0;
      Actor was = principal;
      boolean principalChanged = was != null && !Objects.equals(was.id(), h.actor());
      String id = h.actor();
      Actor now = id == null ? Actor.anonymous() : Actor.user(id).inOrg(orgId);
      principal = now;
      if (principalChanged) {
        store.batch(() -> {
          store.clear();
          for (QuerySubscription q : queries.values()) {
            q.reset();
          }
          topics.cleared();
        });
      }
      for (QuerySubscription q : queries.values()) {
        q.actor(now);
      }
      setState(new ConnectionState.Online(epoch, h.lagMs(), h.asOf()));
      for (QuerySubscription q : List.copyOf(queries.values())) {
        if (!q.failed()) {
          sendSub(q);
        }
      }
      topics.connected(this::send);
      scheduleBeat();
      long e = epoch;
      online.catchUp = scheduler.schedule(CATCH_UP_WAIT_MS, () -> {
        online.catchUp = null;
        caughtUp(e);
      });
    } else if (state instanceof ConnectionState.Online o
        && (!Objects.equals(o.lagMs(), h.lagMs()) || !Objects.equals(o.asOf(), h.asOf()))) {
      // The same connection, with the node's lag as its answer says now.
      setState(new ConnectionState.Online(epoch, h.lagMs(), h.asOf()));
    }
    heard();
    if (allLive()) {
      store.helloLsn(h.lsn());
    } else if (phase instanceof Online o) {
      o.helloUnused = true;
    }
  }

  private void refused(ServerFrame.Refuse r) {
    if (r.sid() != null) {
      QuerySubscription q = queries.get(r.sid());
      if (q != null) {
        store.batch(() -> q.refused(r));
        liveAgain();
      }
    } else if (r.topic() != null) {
      topics.frame(r);
    } else {
      report(new NodeRefusedException(r.code(), r.cause(), r.fix()));
    }
  }

  /** A subscription went live: if a {@code hello} answer was set aside meanwhile, ask for a fresh one. */
  private void liveAgain() {
    if (phase instanceof Online o && o.helloUnused && allLive()) {
      o.helloUnused = false;
      beatSoon();
    }
  }

  /** Tells the catch-up listeners once the connection's subscriptions and topics are all synced. */
  private void checkCaughtUp() {
    if (phase instanceof Online o && caughtUpEpoch != epoch && !caughtUpListeners.isEmpty() && allLive()) {
      cancel(o.catchUp);
      o.catchUp = null;
      caughtUp(epoch);
    }
  }

  private void caughtUp(long e) {
    if (phase instanceof Online && e == epoch && caughtUpEpoch != e) {
      caughtUpEpoch = e;
      for (LongConsumer l : List.copyOf(caughtUpListeners)) {
        l.accept(e);
      }
    }
  }

  private boolean allLive() {
    for (QuerySubscription q : queries.values()) {
      if (!q.synced()) {
        return false;
      }
    }
    return topics.synced();
  }

  private void sendSub(QuerySubscription q) {
    ClientFrame.Sub sub = q.sub(true);
    String text = json.write(JsonTreeSink.toJson(sub));
    if (sub.cursor() != null && Utf8.length(text) > MAX_FRAME_BYTES) {
      text = json.write(JsonTreeSink.toJson(q.sub(false)));
    }
    SocketPort.Connection c = socket();
    if (c != null) {
      c.send(text);
    }
  }

  private void sendHello() {
    send(new ClientFrame.Hello(build));
  }

  private void send(ClientFrame frame) {
    SocketPort.Connection c = socket();
    if (c != null) {
      c.send(json.write(JsonTreeSink.toJson(frame)));
    }
  }

  private void scheduleBeat() {
    Connecting link = link(phase);
    if (link != null) {
      cancel(link.beat);
      link.beat = scheduler.schedule(heartbeatMs, () -> {
        sendHello();
        topics.beat();
        scheduleBeat();
      });
    }
  }

  /** Something arrived (or the socket opened): silence is counted from now, two beats long. */
  private void heard() {
    Connecting link = link(phase);
    if (link != null) {
      cancel(link.silence);
      link.silence = scheduler.schedule(2 * heartbeatMs, () -> {
        SocketPort.Connection c = link.socket;
        lost(-1);
        if (c != null) {
          c.close(4000, "heartbeat silence");
        }
      });
    }
  }

  private void setState(ConnectionState next) {
    state = next;
    for (Consumer<ConnectionState> l : List.copyOf(connectionListeners)) {
      l.accept(next);
    }
  }

  private void report(RunnelException e) {
    for (Consumer<RunnelException> l : List.copyOf(errorListeners)) {
      l.accept(e);
    }
  }

  private static void cancel(Scheduler.@Nullable Cancellable task) {
    if (task != null) {
      task.cancel();
    }
  }
}
