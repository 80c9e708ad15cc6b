package io.runnel.sync.channel;

import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import java.util.Objects;

/**
 * What one node tells the others about a topic over the {@link ChannelBus}: an event to deliver, or a presence seat
 * that joined, changed its meta or left. A seat is one socket's place in a roster, {@code <node id>/<socket id>},
 * so seats of one actor on several nodes never collide. A node that starts holding a topic asks the others for
 * their seats ({@link RosterRequest}), and each answers with its {@link Seated} messages again.
 */
public sealed interface ChannelMessage permits ChannelMessage.Event, ChannelMessage.Seated, ChannelMessage.Unseated,
    ChannelMessage.RosterRequest {

  /** The id of the node that published the message (a node ignores its own). */
  String origin();

  /** The topic, as {@code ChannelRef.topic} spells it. */
  String topic();

  /**
   * An event broadcast on a topic, to be delivered to the receiving node's members at most once.
   *
   * @param origin the publishing node
   * @param topic the topic
   * @param event the event's name (one the channel declares)
   * @param payload the payload
   */
  record Event(String origin, String topic, String event, JsonValue payload) implements ChannelMessage {
    /** @throws NullPointerException for a missing part */
    public Event {
      Objects.requireNonNull(origin, "origin");
      Objects.requireNonNull(topic, "topic");
      Objects.requireNonNull(event, "event");
      Objects.requireNonNull(payload, "payload");
    }
  }

  /**
   * A presence seat joined a topic's roster, or changed its meta.
   *
   * @param origin the publishing node
   * @param topic the topic
   * @param seat {@code <node id>/<socket id>}
   * @param key the presence key the seat is tracked under
   * @param meta the seat's meta
   * @param since when the seat joined, epoch milliseconds
   */
  record Seated(String origin, String topic, String seat, String key, JsonObject meta, long since)
      implements ChannelMessage {
    /** @throws NullPointerException for a missing part */
    public Seated {
      Objects.requireNonNull(origin, "origin");
      Objects.requireNonNull(topic, "topic");
      Objects.requireNonNull(seat, "seat");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(meta, "meta");
    }
  }

  /**
   * A presence seat left a topic's roster (its socket left or closed, or it was not heard for three heartbeats).
   *
   * @param origin the publishing node
   * @param topic the topic
   * @param seat {@code <node id>/<socket id>}
   */
  record Unseated(String origin, String topic, String seat) implements ChannelMessage {
    /** @throws NullPointerException for a missing part */
    public Unseated {
      Objects.requireNonNull(origin, "origin");
      Objects.requireNonNull(topic, "topic");
      Objects.requireNonNull(seat, "seat");
    }
  }

  /**
   * A node started holding a topic (or came back from a bus gap) and asks every other node holding it to publish
   * its seats of the topic again, as {@link Seated} messages.
   *
   * @param origin the asking node
   * @param topic the topic
   */
  record RosterRequest(String origin, String topic) implements ChannelMessage {
    /** @throws NullPointerException for a missing part */
    public RosterRequest {
      Objects.requireNonNull(origin, "origin");
      Objects.requireNonNull(topic, "topic");
    }
  }
}
