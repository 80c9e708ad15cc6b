package io.runnel.sync.channel.internal;

import io.runnel.dsl.Actor;
import io.runnel.dsl.server.Declarations;
import io.runnel.protocol.ServerFrame;
import io.runnel.protocol.TopicCursor;
import io.runnel.sync.channel.ChannelBus;
import io.runnel.sync.channel.ChannelException;
import io.runnel.sync.channel.ChannelLimits;
import io.runnel.sync.channel.ChannelStats;
import io.runnel.sync.channel.Ticker;
import io.runnel.sync.live.internal.ChangeListener;
import io.runnel.sync.socket.internal.FrameCodec;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * A node's channels: sockets join and leave topics, events are broadcast to a topic's members at most once, and
 * each topic with presence keeps a roster ({@code docs/channels.md}).
 *
 * <p>Topics deny by default ({@link ResolvedTopic}); the channel's policy decides each join and each event. The caps
 * (topics per socket, distinct topics per node) are reservations: a join counts against both before anything that
 * may wait, and gives them back in a {@code finally} when it is refused, so a burst of joins cannot pass a cap more
 * than once. A repeated join of a held topic is the presence heartbeat and nothing else.
 *
 * <p>Presence: a join with a meta seats the socket under its actor's id (an anonymous actor under
 * {@code anonymous:<socket id>}); a seat not heard for three heartbeats leaves; a socket that closes leaves at once.
 * Every accepted join is answered by the topic's whole roster first (an empty one on a channel without presence, so
 * the client knows the join landed); roster changes follow as diffs, at most one every 250 ms per topic.
 *
 * <p>Records channels: {@link #records()} reads the change stream and sends each held topic its rows as
 * {@code records} frames, numbered per topic (a per-node epoch and a seq); a join with a cursor of the topic's epoch
 * that the node can still replay gets the frames it missed after its roster, any other join of a records topic gets
 * {@code gap}; a member whose records frame was dropped gets {@code gap} once its queue drains.
 *
 * <p>Across nodes ({@link ChannelBus}, through {@link Peers}): events and seat changes are published for the other
 * nodes, and theirs are applied here; another node's seat not announced within the presence TTL
 * ({@link ChannelLimits#presenceTtlMs()}) leaves (its node died without a goodbye). A topic first claimed while the
 * bus is down is held on this node alone and listens once the bus is back: a join is never refused for the bus's
 * sake.
 *
 * <p>Locks: a socket's own state, then a topic's; never the other way round.
 */
public final class ChannelHub implements AutoCloseable {

  /** How often the timed work runs (diffs, heartbeat timeouts), milliseconds. */
  static final long TICK_MS = 50;

  /** Heartbeats a seat may miss before it leaves. */
  static final int HEARTBEATS_BEFORE_LEAVE = 3;

  /** Characters of frame text every records topic's ring may keep together on one node (64 Mi). */
  static final long RING_BUDGET_CHARS = 64L * 1024 * 1024;

  /** A socket's topics: held, and in flight (reserved, not yet held). */
  private static final class Held {
    final ChannelMember member;
    final Set<String> topics = new HashSet<>();
    final Set<String> pending = new HashSet<>();
    boolean closed;

    Held(ChannelMember member) {
      this.member = member;
    }
  }

  private final Declarations declarations;
  private final String nodeId;
  private final Clock clock;
  private final long silenceMs;
  private final long presenceTtlMs;
  private final ChannelLimits limits;
  private final Peers peers;
  private final Ticker ticker;
  private final TopicTable topics;
  private final EventGate gate;
  private final ConcurrentHashMap<String, Held> sockets = new ConcurrentHashMap<>();
  private final Topic.Counts counts = new Topic.Counts();
  private final RecordsLog.Budget ringBudget = new RecordsLog.Budget(RING_BUDGET_CHARS);
  private final RecordsRouter router;
  private final LongAdder events = new LongAdder();
  private @Nullable Runnable ticking;

  private ChannelHub(Builder b) {
    this.declarations = Objects.requireNonNull(b.declarations, "declarations");
    this.nodeId = b.nodeId;
    this.clock = b.clock;
    this.silenceMs = HEARTBEATS_BEFORE_LEAVE * b.heartbeat.toMillis();
    this.limits = b.limits;
    this.presenceTtlMs = b.limits.presenceTtlMs();
    this.ticker = b.ticker;
    this.topics = new TopicTable(b.limits.topicsPerNode());
    this.peers = new Peers(b.bus, b.nodeId, topics, b.clock, presenceTtlMs);
    this.gate = new EventGate(b.limits);
    this.router = new RecordsRouter(declarations, topics);
  }

  /** A builder; the declarations are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** Starts the timed work on the ticker (every 50 ms). */
  public synchronized void start() {
    if (ticking == null) {
      ticking = ticker.every(Duration.ofMillis(TICK_MS), this::tick);
    }
  }

  /** Stops the timed work and any listening again after a bus outage; the bus is its owner's to close. */
  @Override
  public synchronized void close() {
    peers.close();
    if (ticking != null) {
      ticking.run();
      ticking = null;
    }
  }

  /**
   * {@code member} joins {@code topic} without a records cursor: {@link #join(ChannelMember, String, TopicCursor,
   * JsonObject)}.
   *
   * @throws ChannelException as that method
   */
  public void join(ChannelMember member, String topic, @Nullable JsonObject presence) {
    join(member, topic, null, presence);
  }

  /**
   * {@code member} joins {@code topic}, with {@code presence} as its meta when given; the join is answered with the
   * topic's roster, and on a records channel then with the frames {@code cursor} missed (when its epoch is the
   * topic's and the node still keeps them all) or else {@code gap}. A repeated join of a held topic is the presence
   * heartbeat: it refreshes (and may replace) the meta and does nothing else (the cursor is not looked at). A join
   * that lands after the socket closed is undone.
   *
   * @throws ChannelException {@code X_TOPIC_FORBIDDEN}, {@code X_FORBIDDEN}, {@code X_SUBSCRIPTION_LIMIT}, or
   *     {@code X_INPUT_INVALID} for a meta on a channel without presence (a held topic is then left), or
   *     {@code X_INPUT_INVALID} naming {@code join.presence} for a meta over
   *     {@link ChannelLimits#presenceMetaBytes()} (a held topic keeps its seat and its last meta)
   */
  public void join(ChannelMember member, String topic, @Nullable TopicCursor cursor,
      @Nullable JsonObject presence) {
    Objects.requireNonNull(member, "member");
    Objects.requireNonNull(topic, "topic");
    if (presence != null) {
      int bytes = Json.write(presence).getBytes(StandardCharsets.UTF_8).length;
      if (bytes > limits.presenceMetaBytes()) {
        throw new ChannelException(ErrorCode.X_INPUT_INVALID, "join.presence is " + bytes
            + " bytes of JSON; a meta may be " + limits.presenceMetaBytes() + " at most.",
            "Announce a smaller meta (an id, a name, a status); fetch the rest over HTTP.");
      }
    }
    Held held = sockets.computeIfAbsent(member.id(), id -> new Held(member));
    long now = clock.millis();
    synchronized (held) {
      if (held.topics.contains(topic)) {
        refresh(held, topic, presence, now);
        return;
      }
      if (held.pending.contains(topic) || held.closed) {
        return;
      }
    }
    ResolvedTopic resolved = ResolvedTopic.of(declarations, topic);
    if (presence != null && !resolved.channel().hasPresence()) {
      throw noPresence(resolved);
    }
    synchronized (held) {
      if (held.topics.size() + held.pending.size() >= limits.topicsPerSocket()) {
        throw new ChannelException(ErrorCode.X_SUBSCRIPTION_LIMIT, "This socket holds "
            + limits.topicsPerSocket() + " topics (joins in flight included), its limit.",
            "Leave a topic before joining another, or open another socket.");
      }
      held.pending.add(topic);
    }
    Topic claimed = null;
    boolean joined = false;
    long seatedAs = -1;
    try {
      claimed = topics.claim(resolved, r -> new Topic(r, counts, ringBudget, peers.stamps()::incrementAndGet));
      resolved.admit(member.actor(), "joining");
      // A bus across nodes may wait here for its subscription; the reservations above hold both caps meanwhile,
      // and the topic stops listening with its last claim.
      peers.listen(claimed);
      seatedAs = commit(held, claimed, cursor, presence, now);
      joined = seatedAs >= 0;
    } finally {
      if (!joined) {
        synchronized (held) {
          held.pending.remove(topic);
        }
        if (claimed != null) {
          topics.release(topic);
        }
        if (!member.open()) {
          sockets.remove(member.id(), held);
        }
      }
    }
    if (seatedAs > 0) {
      peers.seated(topic, seat(member), key(member), Objects.requireNonNull(presence, "a seat has a meta"), now,
          seatedAs);
    }
  }

  /** Adds the member to the topic it reserved: the seat's stamp when it was seated, 0 when not, -1 when too late. */
  private long commit(Held held, Topic topic, @Nullable TopicCursor cursor, @Nullable JsonObject presence,
      long now) {
    synchronized (held) {
      held.pending.remove(topic.name());
      if (held.closed || !held.member.open()) {
        return -1;
      }
      long stamp = topic.add(held.member, seat(held.member), key(held.member), presence, now, cursor);
      held.topics.add(topic.name());
      return stamp;
    }
  }

  private void refresh(Held held, String name, @Nullable JsonObject presence, long now) {
    Topic topic = Objects.requireNonNull(topics.get(name));
    if (presence != null && !topic.resolved.channel().hasPresence()) {
      leaveHeld(held, name);
      throw noPresence(topic.resolved);
    }
    long stamp = topic.refresh(seat(held.member), key(held.member), presence, now);
    if (stamp > 0) {
      peers.seated(name, seat(held.member), key(held.member), Objects.requireNonNull(presence, "a seat has a meta"),
          now, stamp);
    }
  }

  /** {@code member} leaves {@code topic}; a topic it does not hold is ignored. */
  public void leave(ChannelMember member, String topic) {
    Held held = sockets.get(Objects.requireNonNull(member, "member").id());
    if (held != null) {
      synchronized (held) {
        leaveHeld(held, Objects.requireNonNull(topic, "topic"));
      }
    }
  }

  private void leaveHeld(Held held, String name) {
    if (!held.topics.remove(name)) {
      return;
    }
    long stamp = Objects.requireNonNull(topics.get(name)).remove(held.member, seat(held.member));
    topics.release(name);
    if (stamp > 0) {
      peers.unseated(name, seat(held.member), stamp);
    }
  }

  /** {@code member}'s socket closed: it leaves every topic at once, its presence seats included. */
  public void closed(ChannelMember member) {
    Held held = sockets.remove(Objects.requireNonNull(member, "member").id());
    if (held == null) {
      return;
    }
    synchronized (held) {
      held.closed = true;
      for (String name : List.copyOf(held.topics)) {
        leaveHeld(held, name);
      }
    }
  }

  /**
   * Waits, at most {@code deadline}, until the bus took every seat change and event published so far
   * ({@link ChannelBus#flush}): a draining node calls it after its sockets left, so their leaves reach the other
   * nodes before it closes.
   */
  public void flush(Duration deadline) {
    peers.flush(Objects.requireNonNull(deadline, "deadline"));
  }

  /**
   * {@code member}'s actor changed (its grant was re-decided): each topic it holds is decided again by its channel's
   * policy for the new actor, and each one the policy now refuses (or fails on) is left, its presence seat included.
   *
   * @return the topics left, in no order, each with its refusal ({@code X_FORBIDDEN}), for the socket to answer
   *     with {@code refuse}
   */
  public Map<String, ChannelException> recheck(ChannelMember member) {
    Held held = sockets.get(Objects.requireNonNull(member, "member").id());
    Map<String, ChannelException> refused = new HashMap<>();
    if (held == null) {
      return refused;
    }
    synchronized (held) {
      for (String name : List.copyOf(held.topics)) {
        try {
          Objects.requireNonNull(topics.get(name)).resolved.admit(member.actor(), "holding");
        } catch (ChannelException e) {
          leaveHeld(held, name);
          refused.put(name, e);
        }
      }
    }
    return refused;
  }

  /**
   * {@code member}'s outbound queue drained: each topic whose presence frames it lost sends it a whole roster, and
   * each whose records frames it lost sends it {@code gap}.
   */
  public void drained(ChannelMember member) {
    Held held = sockets.get(Objects.requireNonNull(member, "member").id());
    if (held != null) {
      synchronized (held) {
        for (String name : held.topics) {
          Objects.requireNonNull(topics.get(name)).repair(member);
        }
      }
    }
  }

  /**
   * The reader of the change stream that sends records channels' rows to the topics this node holds; the node
   * hands it to its live registry ({@code LiveQueryRegistry.Builder.changeListener}), so records and windows read
   * the same ordered, gap-checked stream.
   */
  public ChangeListener records() {
    return router;
  }

  /**
   * Broadcasts {@code event} with {@code payload} to the members of {@code topic}, at most once each, and tells the
   * other nodes.
   *
   * @param actor who sends it (the channel's policy decides, as for a join)
   * @param address the sender's network address, which an anonymous actor's rate is counted by
   * @return how many of this node's members' sockets took the frame
   * @throws ChannelException {@code X_TOPIC_FORBIDDEN}, {@code X_FORBIDDEN}, {@code X_INPUT_INVALID} (an event the
   *     channel does not declare), {@code X_PAYLOAD_TOO_LARGE}, {@code X_FRAME_RATE_LIMIT} (with
   *     {@link ChannelException#retryAfterSeconds()})
   */
  public int publish(Actor actor, String address, String topic, String event, JsonValue payload) {
    ResolvedTopic resolved = ResolvedTopic.of(declarations, Objects.requireNonNull(topic, "topic"));
    gate.admit(resolved, Objects.requireNonNull(actor, "actor"), Objects.requireNonNull(address, "address"),
        Objects.requireNonNull(event, "event"), Objects.requireNonNull(payload, "payload"), clock.millis());
    events.increment();
    Topic local = topics.get(topic);
    int delivered = local == null ? 0
        : local.deliver(FrameCodec.encode(new ServerFrame.Event(topic, event, payload)));
    peers.event(topic, event, payload);
    return delivered;
  }

  /**
   * The timed work, by the hub's clock: seats not heard for three heartbeats leave, other nodes' seats not
   * announced within the presence TTL leave, each topic's coalesced diff goes out when due, and every third of the
   * TTL this node announces its seats again. The ticker calls it every 50 ms.
   */
  void tick() {
    long now = clock.millis();
    for (Topic topic : topics.all()) {
      topic.tick(now, now - silenceMs, now - presenceTtlMs)
          .forEach((seat, stamp) -> peers.unseated(topic.name(), seat, stamp));
    }
    peers.tick(now);
    gate.sweep(now);
  }

  /** The hub's counts now. */
  public ChannelStats stats() {
    return new ChannelStats(topics.size(), events.sum(), counts.dropped().sum(), counts.records().sum(),
        counts.gaps().sum());
  }

  private String seat(ChannelMember member) {
    return nodeId + "/" + member.id();
  }

  /** The presence key: the actor's id, or for an anonymous actor {@code anonymous:<socket id>}. */
  private static String key(ChannelMember member) {
    String id = member.actor().id();
    return id != null ? id : "anonymous:" + member.id();
  }

  private static ChannelException noPresence(ResolvedTopic topic) {
    return new ChannelException(ErrorCode.X_INPUT_INVALID, "Channel '" + topic.channel().name()
        + "' tracks no presence, and the join carried a presence meta.",
        "Join without presence, or declare the channel with .presence().");
  }

  /** Collects a hub's parts. */
  public static final class Builder {
    private @Nullable Declarations declarations;
    private String nodeId = "node";
    private Clock clock = Clock.systemUTC();
    private Duration heartbeat = Duration.ofSeconds(10);
    private ChannelLimits limits = ChannelLimits.DEFAULTS;
    private ChannelBus bus = ChannelBus.local();
    private Ticker ticker = Ticker.daemon("channel-ticker");

    private Builder() {}

    /** The app's declarations, whose channels are the only topics admitted (required). */
    public Builder declarations(Declarations declarations) {
      this.declarations = Objects.requireNonNull(declarations, "declarations");
      return this;
    }

    /** The node's id, which names its presence seats and its messages on the bus (default {@code node}). */
    public Builder nodeId(String nodeId) {
      this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
      return this;
    }

    /** The clock of heartbeats, diffs, rates and {@code since} (default UTC). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The heartbeat clients are told to beat at (default 10 s); a seat not heard for three of them leaves.
     *
     * @throws IllegalArgumentException when it is not positive
     */
    public Builder heartbeat(Duration heartbeat) {
      if (Objects.requireNonNull(heartbeat, "heartbeat").isNegative() || heartbeat.isZero()) {
        throw new IllegalArgumentException("The heartbeat must be positive, not " + heartbeat);
      }
      this.heartbeat = heartbeat;
      return this;
    }

    /** The caps and rates (default {@link ChannelLimits#DEFAULTS}). */
    public Builder limits(ChannelLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** The bus to the other nodes (default {@link ChannelBus#local()}: this node runs alone). */
    public Builder bus(ChannelBus bus) {
      this.bus = Objects.requireNonNull(bus, "bus");
      return this;
    }

    /** What drives the timed work (default a daemon thread); a test drives it by hand. */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /** The hub (not started). */
    public ChannelHub build() {
      return new ChannelHub(this);
    }
  }
}
