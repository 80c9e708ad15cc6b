package io.runnel.client.channel;

import io.runnel.wire.JsonValue;

/**
 * Hears one channel handle's state, the broadcast events of its topic and its presence roster; each method does
 * nothing by default.
 */
public interface ChannelListener {

  /** Hears the handle's state now and at every change. */
  default void state(ChannelState state) {}

  /**
   * Hears one broadcast {@code event} frame of the topic (delivered at most once: none is replayed after a
   * reconnect).
   *
   * @param event the event's name
   * @param payload its payload, any JSON
   */
  default void event(String event, JsonValue payload) {}

  /** Hears the topic's roster now (empty until the node's {@code presence} frame) and at every presence change. */
  default void presence(Roster roster) {}
}
