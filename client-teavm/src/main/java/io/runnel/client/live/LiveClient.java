package io.runnel.client.live;

import io.runnel.client.ConnectionState;
import io.runnel.client.port.JsonPort;
import io.runnel.client.port.Scheduler;
import io.runnel.client.port.SocketPort;
import io.runnel.client.store.RecordStore;
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
 * <p>Design: each attempt gets a generation number; events of an older socket are ignored, so a late close or
 * frame never disturbs the next connection. On open the client sends {@code hello}; the node's answer brings the
 * actor and {@code heartbeatMs}, and only then are the subscriptions sent (each with its cursor and held keys,
 * when they fit in a frame), so a principal change is seen before any resume is asked for. The client beats
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
  private final Map<String, LiveQuery> queries = new LinkedHashMap<>();
  private final List<Consumer<ConnectionState>> connectionListeners = new ArrayList<>();
  private final List<Consumer<RunnelException>> errorListeners = new ArrayList<>();
  private final List<LongConsumer> caughtUpListeners = new ArrayList<>();
  private ConnectionState state;
  private long epoch;
  private int failures;
  private int sids;
  private int generation;
  private SocketPort.@Nullable Connection socket;
  private boolean online;
  private long heartbeatMs = DEFAULT_HEARTBEAT_MS;
  private boolean actorKnown;
  private @Nullable String actor;
  private final @Nullable String orgId;
  private boolean helloUnused;
  private boolean stopped = true;
  /** Set while the client waits out a delay the node named (a {@code reconnect} frame), which nothing cuts short. */
  private boolean told;
  private Scheduler.@Nullable Cancellable beat;
  private Scheduler.@Nullable Cancellable silence;
  private Scheduler.@Nullable Cancellable retry;
  private Scheduler.@Nullable Cancellable soon;
  private Scheduler.@Nullable Cancellable catchUp;
  /** The connection epoch whose catch-up the listeners heard, or -1. */
  private long caughtUpEpoch = -1;

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
    if (stopped) {
      stopped = false;
      connect();
    }
  }

  /** Closes the socket (1000), stops reconnecting and tells the listeners {@link ConnectionState.Closed}, once. */
  public void stop() {
    stopped = true;
    SocketPort.Connection c = socket;
    drop();
    if (c != null) {
      c.close(1000, "stopped");
    }
    cancel(retry);
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
    if (!actorKnown) {
      return null;
    }
    String a = actor;
    return a == null ? "" : a;
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
    LiveQuery q = new LiveQuery(this, store, "q" + sids, ref.name(), object, a -> ref.select(input, a));
    queries.put(q.sid(), q);
    if (actorKnown) {
      q.actor(principal());
    }
    if (online) {
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
    LiveQuery q = new LiveQuery(this, store, "q" + sids, Objects.requireNonNull(name, "name"), JsonObject.EMPTY,
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
    if (online) {
      beatSoon();
    } else if (!stopped && !told && state instanceof ConnectionState.Offline) {
      cancel(retry);
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
    if (online && soon == null) {
      soon = scheduler.schedule(0, () -> {
        soon = null;
        sendHello();
      });
    }
  }

  void released(LiveQuery q) {
    if (queries.remove(q.sid()) != null && online) {
      send(new ClientFrame.Unsub(q.sid()));
      checkCaughtUp();
    }
  }

  private void connect() {
    if (stopped) {
      return;
    }
    int gen = ++generation;
    told = false;
    setState(new ConnectionState.Connecting(epoch));
    endpoint.url(url -> {
      if (gen == generation && !stopped) {
        socket = sockets.open(url, new Listener(gen));
      }
    }, reason -> {
      if (gen == generation) {
        lost(-1);
      }
    });
  }

  /**
   * The connection is gone (closed, silent, failed or told to reconnect): back off, or wait exactly {@code delay}
   * (a draining node's {@code delayMs}), which counts as no failure.
   */
  private void lost(long delay) {
    drop();
    if (stopped) {
      return;
    }
    told = delay >= 0;
    long wait = told ? delay : backoff.delay(failures++, random.getAsDouble());
    setState(new ConnectionState.Offline(epoch, scheduler.nowMillis() + wait));
    retry = scheduler.schedule(wait, this::connect);
  }

  private void drop() {
    generation++;
    socket = null;
    online = false;
    cancel(beat);
    cancel(silence);
    cancel(soon);
    soon = null;
    cancel(catchUp);
    catchUp = null;
    for (LiveQuery q : queries.values()) {
      q.unsynced();
    }
    topics.offline();
  }

  private final class Listener implements SocketPort.Listener {
    private final int gen;

    Listener(int gen) {
      this.gen = gen;
    }

    @Override
    public void opened() {
      if (gen == generation) {
        sendHello();
        heard();
        scheduleBeat();
      }
    }

    @Override
    public void text(String frame) {
      if (gen == generation) {
        heard();
        receive(frame);
        checkCaughtUp();
      }
    }

    @Override
    public void closed(int code, String reason) {
      if (gen == generation) {
        lost(-1);
      }
    }
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
        LiveQuery q = queries.get(s.sid());
        if (q != null) {
          store.batch(() -> q.snapshot(s));
          liveAgain();
        }
      }
      case ServerFrame.Patch p -> {
        LiveQuery q = queries.get(p.sid());
        if (q != null) {
          store.batch(() -> q.patch(p));
          liveAgain();
        } else {
          store.noteWrites(p.writes());
        }
      }
      case ServerFrame.Refuse r -> refused(r);
      case ServerFrame.Reconnect r -> {
        SocketPort.Connection c = socket;
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
    if (!online) {
      online = true;
      epoch++;
      failures = 0;
      boolean principalChanged = actorKnown && !Objects.equals(actor, h.actor());
      actor = h.actor();
      actorKnown = true;
      if (principalChanged) {
        store.batch(() -> {
          store.clear();
          for (LiveQuery q : queries.values()) {
            q.reset();
          }
          topics.cleared();
        });
      }
      for (LiveQuery q : queries.values()) {
        q.actor(principal());
      }
      setState(new ConnectionState.Online(epoch, h.lagMs(), h.asOf()));
      for (LiveQuery q : List.copyOf(queries.values())) {
        if (!q.failed()) {
          sendSub(q);
        }
      }
      topics.connected(this::send);
      scheduleBeat();
      long e = epoch;
      catchUp = scheduler.schedule(CATCH_UP_WAIT_MS, () -> {
        catchUp = null;
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
    } else {
      helloUnused = true;
    }
  }

  private void refused(ServerFrame.Refuse r) {
    if (r.sid() != null) {
      LiveQuery q = queries.get(r.sid());
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
    if (helloUnused && allLive()) {
      helloUnused = false;
      beatSoon();
    }
  }

  /** Tells the catch-up listeners once the connection's subscriptions and topics are all synced. */
  private void checkCaughtUp() {
    if (online && caughtUpEpoch != epoch && !caughtUpListeners.isEmpty() && allLive()) {
      cancel(catchUp);
      catchUp = null;
      caughtUp(epoch);
    }
  }

  private void caughtUp(long e) {
    if (online && e == epoch && caughtUpEpoch != e) {
      caughtUpEpoch = e;
      for (LongConsumer l : List.copyOf(caughtUpListeners)) {
        l.accept(e);
      }
    }
  }

  private boolean allLive() {
    for (LiveQuery q : queries.values()) {
      if (!q.synced()) {
        return false;
      }
    }
    return topics.synced();
  }

  private Actor principal() {
    String a = actor;
    return a == null ? Actor.anonymous() : Actor.user(a).inOrg(orgId);
  }

  private void sendSub(LiveQuery q) {
    ClientFrame.Sub sub = q.sub(true);
    String text = json.write(JsonTreeSink.toJson(sub));
    if (sub.cursor() != null && Utf8.length(text) > MAX_FRAME_BYTES) {
      text = json.write(JsonTreeSink.toJson(q.sub(false)));
    }
    SocketPort.Connection c = socket;
    if (c != null) {
      c.send(text);
    }
  }

  private void sendHello() {
    send(new ClientFrame.Hello(build));
  }

  private void send(ClientFrame frame) {
    SocketPort.Connection c = socket;
    if (c != null) {
      c.send(json.write(JsonTreeSink.toJson(frame)));
    }
  }

  private void scheduleBeat() {
    cancel(beat);
    beat = scheduler.schedule(heartbeatMs, () -> {
      sendHello();
      topics.beat();
      scheduleBeat();
    });
  }

  /** Something arrived (or the socket opened): silence is counted from now, two beats long. */
  private void heard() {
    cancel(silence);
    silence = scheduler.schedule(2 * heartbeatMs, () -> {
      SocketPort.Connection c = socket;
      lost(-1);
      if (c != null) {
        c.close(4000, "heartbeat silence");
      }
    });
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
