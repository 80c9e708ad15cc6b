package io.runnel.sync.channel.internal;

import io.runnel.sync.channel.ChannelException;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.Texts;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The topics a node holds, each with its claims (members plus joins in flight), under the node's cap on distinct
 * topics. A claim is a reservation: it is counted the moment it is taken, before any wait, and given back with
 * {@link #release}; a topic leaves the table with its last claim.
 */
final class TopicTable {

  private final ConcurrentHashMap<String, Topic> topics = new ConcurrentHashMap<>();
  private final AtomicInteger count = new AtomicInteger();
  private final int max;

  TopicTable(int max) {
    this.max = max;
  }

  /**
   * Claims {@code topic} for one join, creating it with {@code create} when the node does not hold it yet.
   *
   * @throws ChannelException {@code X_SUBSCRIPTION_LIMIT} when that would pass the node's cap
   */
  Topic claim(ResolvedTopic topic, Function<ResolvedTopic, Topic> create) {
    boolean[] full = {false};
    Topic t = topics.compute(topic.topic(), (name, held) -> {
      if (held != null) {
        held.claims++;
        return held;
      }
      if (count.incrementAndGet() > max) {
        count.decrementAndGet();
        full[0] = true;
        return null;
      }
      Topic created = create.apply(topic);
      created.claims = 1;
      return created;
    });
    if (full[0]) {
      throw new ChannelException(ErrorCode.X_SUBSCRIPTION_LIMIT,
          "The node holds " + max + " distinct topics, its limit; '" + Texts.echo(topic.topic(), 120)
              + "' would be one more.",
          "Join again later or through another node; the operator can raise the node's topic cap.");
    }
    return t;
  }

  /** Gives back one claim of {@code name}; the last one removes the topic and stops its listening. */
  void release(String name) {
    Topic[] removed = {null};
    topics.computeIfPresent(name, (n, t) -> {
      if (--t.claims > 0) {
        return t;
      }
      count.decrementAndGet();
      removed[0] = t;
      return null;
    });
    if (removed[0] != null) {
      removed[0].close();
    }
  }

  /** The topic named {@code name}, or null when the node does not hold it. */
  @Nullable Topic get(String name) {
    return topics.get(name);
  }

  /** Every topic held now. */
  Collection<Topic> all() {
    return topics.values();
  }

  /** How many distinct topics the node holds, claims in flight included. */
  int size() {
    return count.get();
  }
}
