package io.runnel.client.channel.internal;

import io.runnel.client.channel.Channel;
import io.runnel.client.channel.ChannelListener;
import io.runnel.client.live.internal.TopicFrames;
import io.runnel.client.outbox.Credentials;
import io.runnel.client.port.HttpPort;
import io.runnel.client.port.JsonPort;
import io.runnel.client.store.internal.RecordStore;
import io.runnel.dsl.ChannelRef;
import io.runnel.wire.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * The page's channel topics on its socket ({@link Channels}), as the client opens them; the live client sees it as
 * its {@link TopicFrames}. An app gets one by registering a channel ({@code Refs.channel}), whose {@link Factory} is
 * the only way one is made: a bundle whose app declares no channel links none of this package's logic.
 */
public interface ChannelHub extends TopicFrames {

  /**
   * Opens a handle on channel {@code ref}'s topic for JSON {@code params} (a text value for each of the channel's
   * params, by name, and no other member; also the catch-up query's input), announcing {@code presence} as this
   * page's meta (or none); the topic is joined now when online, else when the connection comes, and
   * {@code listener} hears the state and the roster now.
   *
   * @throws io.runnel.wire.InputInvalidException ({@code X_INPUT_INVALID}) naming the param that is missing or not
   *     text, or {@code params} when it holds a member the channel does not declare
   */
  Channel open(ChannelRef ref, JsonObject params, @Nullable JsonObject presence, ChannelListener listener);

  /**
   * The topic {@link #open} joins for channel {@code ref} and JSON {@code params}: {@code <name>.<param>…}, each
   * param percent-encoded ({@link ChannelRef#topic(String...)}).
   *
   * @throws io.runnel.wire.InputInvalidException ({@code X_INPUT_INVALID}) as {@link #open} does
   */
  String topic(ChannelRef ref, JsonObject params);

  /** Makes the hub of a page. */
  interface Factory {
    /**
     * The hub of a page whose records are {@code store}, reading catch-up queries from the node at {@code origin}
     * ({@code https://host}) through {@code http} with {@code credentials}.
     */
    ChannelHub create(RecordStore store, HttpPort http, JsonPort json, String origin, Credentials credentials);
  }
}
