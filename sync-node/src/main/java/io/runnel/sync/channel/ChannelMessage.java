package io.runnel.sync.channel;

import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import java.util.Objects;

/**
 * What one node tells the others about a topic over the {@link ChannelBus}: an event to deliver, or a presence seat
 * that joined, changed its meta or left. A seat is one socket's place in a roster, {@code <node id>/<socket id>},
 * so seats of one actor on several nodes never collide. A node that starts holding a topic asks the others for
 * their seats ({@link RosterRequest}), and each answers with its {@link Seated} messages again.
 *
 * <p>Stamps: a node stamps each seat change, and each announce of a seat, from one counter that only rises (it
 * starts at the node's clock in microseconds), taken under the topic's lock where the change is made. Messages of one
 * seat may be published by different threads in another order than they were made (a join's {@code seated} and the
 * leave right after it, an announce and a leave); a receiver applies a seat's message only when its stamp is above the
 * last one it applied or saw leave, so a late {@code seated} never brings back a seat that left. Stamp 0 is always
 * applied.
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
   * @param stamp the origin's stamp of this state of the seat (see {@link ChannelMessage}), or 0 when unknown
   */
  record Seated(String origin, String topic, String seat, String key, JsonObject meta, long since, long stamp)
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
   * @param stamp the origin's stamp of the leave (see {@link ChannelMessage}), or 0 when unknown
   */
  record Unseated(String origin, String topic, String seat, long stamp) implements ChannelMessage {
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
