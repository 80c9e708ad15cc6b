package io.runnel.sync.channel.internal;

import io.runnel.dsl.Actor;
import io.runnel.sync.channel.ChannelException;
import io.runnel.sync.channel.ChannelLimits;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.Json;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Texts;
import java.nio.charset.StandardCharsets;

/**
 * What an event must pass before it is broadcast, in order: the channel's policy (as for a join), a declared event
 * name, the payload limit, and the sender's rate (a token bucket per actor, per network address for an anonymous
 * one). A refused event takes no token.
 */
final class EventGate {

  private final ChannelLimits limits;
  private final EventRates rates;

  EventGate(ChannelLimits limits) {
    this.limits = limits;
    this.rates = new EventRates(limits.eventsPerSecond(), limits.eventBurst());
  }

  /**
   * Admits {@code event} on {@code topic} from {@code actor} at {@code now} (epoch ms), taking a token of its rate.
   *
   * @throws ChannelException {@code X_FORBIDDEN}, {@code X_INPUT_INVALID}, {@code X_PAYLOAD_TOO_LARGE} or
   *     {@code X_FRAME_RATE_LIMIT} (with {@code Retry-After} seconds)
   */
  void admit(ResolvedTopic topic, Actor actor, String address, String event, JsonValue payload, long now) {
    topic.admit(actor, "sending on");
    if (!topic.channel().events().contains(event)) {
      throw new ChannelException(ErrorCode.X_INPUT_INVALID, "Channel '" + topic.channel().name()
          + "' declares no event '" + Texts.echo(event, 120) + "'; it declares " + topic.channel().events()
          + ".", "Send one of the channel's declared events.");
    }
    int bytes = Json.write(payload).getBytes(StandardCharsets.UTF_8).length;
    if (bytes > limits.eventPayloadBytes()) {
      throw new ChannelException(ErrorCode.X_PAYLOAD_TOO_LARGE, "The event's payload is " + bytes
          + " bytes of JSON, over the limit of " + limits.eventPayloadBytes() + ".",
          "Send a smaller payload; put large data in a record and send its key.");
    }
    long wait = rates.take(actor.isAnonymous() ? "address:" + address : "actor:" + actor.id(), now);
    if (wait > 0) {
      throw new ChannelException(ErrorCode.X_FRAME_RATE_LIMIT, "This sender sent more than "
          + limits.eventsPerSecond() + " events a second (burst " + limits.eventBurst() + ").",
          "Send fewer events (coalesce them), and retry after Retry-After.", (int) ((wait + 999) / 1000));
    }
  }

  /** Forgets the senders whose buckets have refilled by {@code now}. */
  void sweep(long now) {
    rates.sweep(now);
  }
}
