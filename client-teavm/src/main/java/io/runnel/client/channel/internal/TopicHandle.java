package io.runnel.client.channel.internal;

import io.runnel.client.channel.Channel;
import io.runnel.client.channel.ChannelListener;
import io.runnel.client.channel.ChannelState;

/** The {@link Channel} a page holds on one {@link Topic}: the topic hands its listener what it hears. */
final class TopicHandle implements Channel {

  private final Topic topic;
  final ChannelListener listener;
  private boolean released;

  TopicHandle(Topic topic, ChannelListener listener) {
    this.topic = topic;
    this.listener = listener;
  }

  @Override
  public String topic() {
    return topic.name;
  }

  @Override
  public ChannelState state() {
    return topic.state();
  }

  @Override
  public void release() {
    if (!released) {
      released = true;
      topic.remove(this);
    }
  }

  @Override
  public void cancel() {
    release();
  }
}
