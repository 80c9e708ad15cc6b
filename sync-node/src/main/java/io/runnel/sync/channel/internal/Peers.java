package io.runnel.sync.channel.internal;

import io.runnel.sync.channel.ChannelBus;
import io.runnel.sync.channel.ChannelException;
import io.runnel.sync.channel.ChannelMessage;
import io.runnel.time.Threads;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Texts;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A hub's side of the {@link ChannelBus}: what this node tells the other nodes holding its topics (events, seat
 * changes, roster requests) and what it applies of theirs ({@code docs/channels.md}, "Across nodes").
 *
 * <p>Design: each topic the node holds listens on the bus while it is held; a topic first claimed while the bus is down
 * is <em>deaf</em> and works on this node alone until a later attempt subscribes it ({@link #relisten}, at the bus's
 * reconnect and every {@link #RELISTEN_MS} from the ticker, on a thread of its own since a subscription may wait for
 * the bus). A topic that starts listening announces its seats and asks for the others'; every third of the presence TTL
 * the node announces all its seats again, and after a reconnect it announces and asks on every topic.
 *
 * <p>Invariant: every seat change this node publishes carries a stamp from one counter that only rises (it starts at
 * the node's clock in microseconds, {@link #stamps()}), taken by the topic under its lock where the change is made,
 * so the other nodes apply one seat's changes in the order they were made, whatever order the threads publish them
 * in ({@link ChannelMessage}).
 */
final class Peers {

  /** How often the ticker retries listening on topics claimed while the bus was down, milliseconds. */
  static final long RELISTEN_MS = 1000;

  private static final System.Logger LOG = System.getLogger(Peers.class.getName());

  private final ChannelBus bus;
  private final String nodeId;
  private final TopicTable topics;
  private final Clock clock;
  private final long announceEveryMs;
  private final AtomicLong stamps;
  private final AtomicBoolean relistening = new AtomicBoolean();
  private volatile boolean closed;
  private volatile long announcedAt;
  private volatile long relistenedAt;

  /**
   * @param presenceTtlMs the presence TTL: this node announces its seats every third of it
   */
  Peers(ChannelBus bus, String nodeId, TopicTable topics, Clock clock, long presenceTtlMs) {
    this.bus = bus;
    this.nodeId = nodeId;
    this.topics = topics;
    this.clock = clock;
    this.announceEveryMs = presenceTtlMs / 3;
    long now = clock.millis();
    this.stamps = new AtomicLong(now * 1000);
    this.announcedAt = now;
    this.relistenedAt = now;
    bus.onReconnect(this::reconnected);
  }

  /** The node's seat stamps, for its topics to take under their locks. */
  AtomicLong stamps() {
    return stamps;
  }

  /**
   * Listens on the bus for the other nodes' messages of {@code topic}, unless it already does; once it listens it
   * announces this node's seats of the topic and asks for the others'. When the bus is down the topic stays deaf
   * until {@link #relisten} gets through: a join is never refused for the bus's sake.
   *
   * @throws ChannelException when the bus refuses the subscription for another reason than being down
   */
  void listen(Topic topic) {
    try {
      if (topic.listen(bus, this::remote)) {
        // Seats made while the topic was deaf never reached the others, and a node that asked meanwhile was not
        // heard: tell them (nothing, for a topic just claimed), then ask for theirs.
        announce(topic);
        bus.publish(new ChannelMessage.RosterRequest(nodeId, topic.name()));
      }
    } catch (ChannelException e) {
      if (e.code() != ErrorCode.X_TRANSPORT_UNAVAILABLE) {
        throw e;
      }
      LOG.log(Level.DEBUG, () -> "Topic '" + Texts.echo(topic.name(), 120) + "' is held on this node alone"
          + " until the bus is back: " + e.getMessage());
    }
  }

  /** Tells the other nodes a seat of {@code topic} joined or changed its meta. */
  void seated(String topic, String seat, String key, JsonObject meta, long since, long stamp) {
    bus.publish(new ChannelMessage.Seated(nodeId, topic, seat, key, meta, since, stamp));
  }

  /** Tells the other nodes a seat of {@code topic} left. */
  void unseated(String topic, String seat, long stamp) {
    bus.publish(new ChannelMessage.Unseated(nodeId, topic, seat, stamp));
  }

  /** Tells the other nodes an event of {@code topic}, for their members. */
  void event(String topic, String event, JsonValue payload) {
    bus.publish(new ChannelMessage.Event(nodeId, topic, event, payload));
  }

  /** Waits, at most {@code deadline}, until the bus took every message published so far ({@link ChannelBus#flush}). */
  void flush(Duration deadline) {
    bus.flush(deadline);
  }

  /**
   * The timed work at {@code now} (the hub's ticker): a relisten pass every {@link #RELISTEN_MS} while a topic is
   * deaf, and this node's seats announced again every third of the presence TTL.
   */
  void tick(long now) {
    if (now - relistenedAt >= RELISTEN_MS) {
      relistenedAt = now;
      for (Topic topic : topics.all()) {
        if (topic.deaf()) {
          relisten();
          break;
        }
      }
    }
    if (now - announcedAt >= announceEveryMs) {
      announcedAt = now;
      topics.all().forEach(this::announce);
    }
  }

  /** Stops listening again after an outage, and answering reconnects; the bus is its owner's to close. */
  void close() {
    closed = true;
  }

  /** Applies another node's message to the topic it names, when this node holds it. */
  private void remote(ChannelMessage message) {
    if (message.origin().equals(nodeId)) {
      return;
    }
    Topic topic = topics.get(message.topic());
    if (topic == null) {
      return;
    }
    if (message instanceof ChannelMessage.RosterRequest) {
      announce(topic);
    } else {
      topic.remote(message, clock.millis());
    }
  }

  /**
   * Topics that could not listen while the bus was down listen now, on a thread of their own (a subscription may wait
   * for the bus); one pass at a time.
   */
  private void relisten() {
    if (closed || !relistening.compareAndSet(false, true)) {
      return;
    }
    Threads.virtual("channel-relisten", () -> {
      try {
        for (Topic topic : topics.all()) {
          if (topic.deaf() && !closed) {
            listen(topic);
          }
        }
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "Listening again on topics held while the bus was down failed; the next tick retries: "
            + e);
      } finally {
        relistening.set(false);
      }
    });
  }

  /** Publishes this node's seats of {@code topic} again, for the other nodes (a request, or their refresh). */
  private void announce(Topic topic) {
    for (PresenceRoster.LocalSeat s : topic.localSeats()) {
      seated(topic.name(), s.seat(), s.key(), s.meta(), s.since(), s.stamp());
    }
  }

  /** The bus came back from a gap: deaf topics listen, and every topic announces its seats and asks again. */
  private void reconnected() {
    if (closed) {
      return;
    }
    relisten();
    for (Topic topic : topics.all()) {
      announce(topic);
      bus.publish(new ChannelMessage.RosterRequest(nodeId, topic.name()));
    }
  }
}
