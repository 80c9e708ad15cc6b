package io.runnel.client.channel;

import io.runnel.client.outbox.Subscription;

/**
 * One page's hold on a channel topic: its {@link ChannelListener} hears the state, the broadcast events and the
 * roster; {@link #release()} lets go, and the last handle of a topic leaves it.
 */
public final class Channel implements Subscription {

  private final Topic topic;
  final ChannelListener listener;
  private boolean released;

  Channel(Topic topic, ChannelListener listener) {
    this.topic = topic;
    this.listener = listener;
  }

  /** The topic, {@code <channel>.<param>…} with each param percent-encoded. */
  public String topic() {
    return topic.name;
  }

  /** The channel's state now. */
  public ChannelState state() {
    return topic.state();
  }

  /** Lets go of the topic: the last handle of a topic sends {@code leave} and lets go of its records; once only. */
  public void release() {
    if (!released) {
      released = true;
      topic.remove(this);
    }
  }

  /** The same as {@link #release()}. */
  @Override
  public void cancel() {
    release();
  }
}
