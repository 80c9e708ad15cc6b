package io.runnel.sync.channel;

import io.runnel.bus.Subjects;
import io.runnel.sync.channel.internal.ChannelHub;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The seam between a node's {@link ChannelHub} and the other nodes: the hub delivers to its own sockets itself,
 * publishes each event and presence change here for the others, and listens here, per topic it holds, for theirs.
 * {@link #local()} is the bus of a node that runs alone; {@link TransportChannelBus} one over a bus transport. A
 * bus across nodes carries a topic's messages on {@link #subject(String)}, in publish order per topic; delivery is
 * at most once.
 */
public interface ChannelBus extends AutoCloseable {

  /** The prefix of every channel subject. */
  String SUBJECT_PREFIX = "runnel.channels.";

  /**
   * The bus subject of {@code topic}: {@code runnel.channels.<topic as one token>}, the topic percent-encoded so it
   * holds no {@code .}, {@code *}, {@code >} or space (NATS subject tokens).
   */
  static String subject(String topic) {
    return SUBJECT_PREFIX + Subjects.token(topic);
  }

  /** The bus of a node that runs alone: there is nobody to tell and nobody to hear. */
  static ChannelBus local() {
    return LocalChannelBus.INSTANCE;
  }

  /**
   * Tells the other nodes {@code message}; it never blocks on them, and a message that cannot be sent is lost
   * (events are at most once; presence is repaired by the nodes announcing their seats again, the hub's {@code Peers}).
   */
  void publish(ChannelMessage message);

  /**
   * Hands {@code handler} what other nodes publish on {@code topic}, one message at a time in publish order, from
   * the moment this returns until the returned stop runs. The hub listens while the node holds the topic.
   *
   * @throws ChannelException {@code X_TRANSPORT_UNAVAILABLE} when the bus is down: the hub holds the topic on this node
   *     alone meanwhile and listens again once the bus is back
   */
  Runnable listen(String topic, Consumer<ChannelMessage> handler);

  /**
   * Registers {@code listener}, run after the bus comes back from a disconnection (messages may have been lost
   * meanwhile: the hub announces its seats again and asks for the others'). A bus that never disconnects never
   * runs it.
   */
  default void onReconnect(Runnable listener) {}

  /**
   * Returns once every message published so far was taken by the bus, or once {@code deadline} has passed (a drain
   * waits here for its presence leaves to reach the other nodes); a bus that sends at once returns at once. Never
   * throws for a bus that is down: what it did not take is lost, as {@link #publish} says.
   */
  default void flush(Duration deadline) {}

  /** Stops every listener. */
  @Override
  void close();
}
