package io.runnel.sync.channel;

import io.runnel.bus.Subscription;
import io.runnel.bus.Transport;
import io.runnel.bus.TransportUnavailableException;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.Json;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Texts;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ChannelBus} over a {@link Transport}: an {@link io.runnel.bus.InProcessTransport} for nodes in one JVM, a
 * {@link io.runnel.bus.NatsTransport} across machines. Each message is a small JSON envelope on
 * {@link ChannelBus#subject(String)}: {@code {"k":"event"|"seated"|"unseated"|"roster?","o":origin,"t":topic,...}},
 * a seat change with its stamp as {@code "v"}.
 * A message the transport refuses (the bus is down, or it is over the bus's payload limit) is dropped (the first of an
 * outage logged, the rest counted and summed up when the bus takes one again), and one that does not decode is logged
 * and skipped: delivery is at most once. The transport is its owner's to close; {@link #close()} ends this bus's
 * subscriptions only, and a subscription made after it (a listen that was waiting for the transport) ends at once.
 */
public final class TransportChannelBus implements ChannelBus {

  private static final System.Logger LOG = System.getLogger(TransportChannelBus.class.getName());

  private final Transport transport;
  private final Set<Subscription> subscriptions = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;
  /** Messages dropped since the bus last took one; the first of an outage is logged, the rest only counted. */
  private final AtomicLong droppedInOutage = new AtomicLong();

  /** A bus over {@code transport}. */
  public TransportChannelBus(Transport transport) {
    this.transport = Objects.requireNonNull(transport, "transport");
  }

  @Override
  public void publish(ChannelMessage message) {
    byte[] bytes = encode(message).toString().getBytes(StandardCharsets.UTF_8);
    try {
      transport.publish(ChannelBus.subject(message.topic()), bytes);
    } catch (RuntimeException e) {
      if (droppedInOutage.getAndIncrement() == 0) {
        LOG.log(Level.WARNING, "The bus refused a channel message; channel messages are"
            + " dropped until it takes one again (events are at most once; presence is announced again): "
            + e.getMessage());
      }
      return;
    }
    long dropped = droppedInOutage.getAndSet(0);
    if (dropped > 0) {
      LOG.log(Level.INFO, "The bus takes channel messages again; " + dropped + " were dropped meanwhile.");
    }
  }

  /**
   * {@inheritDoc}
   *
   * @throws ChannelException {@code X_TRANSPORT_UNAVAILABLE} when the bus is down (the hub listens again later)
   */
  @Override
  public Runnable listen(String topic, Consumer<ChannelMessage> handler) {
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(handler, "handler");
    Subscription subscription;
    try {
      subscription = transport.subscribe(ChannelBus.subject(topic), m -> {
        ChannelMessage message = decode(m.payload());
        if (message != null && message.topic().equals(topic)) {
          handler.accept(message);
        }
      });
    } catch (TransportUnavailableException e) {
      throw new ChannelException(ErrorCode.X_TRANSPORT_UNAVAILABLE, "The bus to the other nodes is down, so the"
          + " node cannot hear their events and presence on '" + Texts.echo(topic, 120) + "'.",
          "Listen again once the bus is back; the operator checks the bus (NATS_URL).");
    }
    subscriptions.add(subscription);
    if (closed && subscriptions.remove(subscription)) {
      // The bus closed while this listen waited for the transport: nothing would ever end the subscription.
      subscription.close();
    }
    return () -> {
      if (subscriptions.remove(subscription)) {
        subscription.close();
      }
    };
  }

  @Override
  public void flush(Duration deadline) {
    try {
      transport.flush(Objects.requireNonNull(deadline, "deadline"));
    } catch (TransportUnavailableException e) {
      LOG.log(Level.WARNING, "The bus did not take every channel message within " + deadline.toMillis()
          + " ms; the other nodes drop this node's seats within the presence TTL: " + e.getMessage());
    }
  }

  @Override
  public void onReconnect(Runnable listener) {
    transport.onReconnect(Objects.requireNonNull(listener, "listener"));
  }

  // subscriptions is a concurrent set: its iterator is weakly consistent and never throws for a removal;
  // remove() tells which closer owns each.
  @Override
  @SuppressWarnings("ModifyCollectionInEnhancedForLoop")
  public void close() {
    closed = true;
    for (Subscription s : subscriptions) {
      if (subscriptions.remove(s)) {
        s.close();
      }
    }
  }

  /** {@code message} as its envelope. */
  static JsonObject encode(ChannelMessage message) {
    JsonObject.Builder b = JsonObject.builder();
    switch (message) {
      case ChannelMessage.Event e -> b.put("k", "event").put("e", e.event()).put("p", e.payload());
      case ChannelMessage.Seated s -> b.put("k", "seated").put("s", s.seat()).put("y", s.key()).put("m", s.meta())
          .put("since", s.since()).put("v", s.stamp());
      case ChannelMessage.Unseated u -> b.put("k", "unseated").put("s", u.seat()).put("v", u.stamp());
      case ChannelMessage.RosterRequest r -> b.put("k", "roster?");
    }
    return b.put("o", message.origin()).put("t", message.topic()).build();
  }

  /** The message an envelope holds, or null (logged) when it is not one. */
  static @Nullable ChannelMessage decode(byte[] payload) {
    try {
      JsonObject o = (JsonObject) Json.parse(new String(payload, StandardCharsets.UTF_8));
      String origin = text(o, "o");
      String topic = text(o, "t");
      return switch (text(o, "k")) {
        case "event" -> new ChannelMessage.Event(origin, topic, text(o, "e"), Objects.requireNonNull(o.get("p")));
        case "seated" -> new ChannelMessage.Seated(origin, topic, text(o, "s"), text(o, "y"),
            (JsonObject) Objects.requireNonNull(o.get("m")),
            ((JsonNumber) Objects.requireNonNull(o.get("since"))).longValueExact(), stamp(o));
        case "unseated" -> new ChannelMessage.Unseated(origin, topic, text(o, "s"), stamp(o));
        case "roster?" -> new ChannelMessage.RosterRequest(origin, topic);
        default -> throw new IllegalArgumentException("an unknown kind");
      };
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "A channel message that is not an envelope was skipped: " + e);
      return null;
    }
  }

  /** The envelope's stamp, 0 when it has none (a node of an earlier release). */
  private static long stamp(JsonObject o) {
    JsonValue v = o.get("v");
    return v == null ? 0 : ((JsonNumber) v).longValueExact();
  }

  private static String text(JsonObject o, String field) {
    JsonValue v = o.get(field);
    if (v instanceof JsonString s) {
      return s.value();
    }
    throw new IllegalArgumentException("'" + field + "' is not a string");
  }
}
