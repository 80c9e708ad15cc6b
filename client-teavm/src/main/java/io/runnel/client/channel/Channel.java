package io.runnel.client.channel;

import io.runnel.client.outbox.Subscription;

/**
 * One page's hold on a channel topic: its {@link ChannelListener} hears the state, the broadcast events and the
 * roster; {@link #release()} lets go, and the last handle of a topic leaves it.
 */
public interface Channel extends Subscription {

  /** The topic, {@code <channel>.<param>…} with each param percent-encoded. */
  String topic();

  /** The channel's state now. */
  ChannelState state();

  /** Lets go of the topic: the last handle of a topic sends {@code leave} and lets go of its records; once only. */
  void release();

  /** The same as {@link #release()}. */
  @Override
  void cancel();
}
