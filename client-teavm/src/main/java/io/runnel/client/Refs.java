package io.runnel.client;

import io.runnel.client.channel.internal.ChannelHub;
import io.runnel.client.channel.internal.Channels;
import io.runnel.dsl.ChannelRef;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.QueryRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The app's client-safe declarations that a bundle carries, by name: entities (to read records), query refs (to
 * encode inputs and place optimistic records), mutator refs (so {@code mutate("likePost", …)} finds the local
 * twin) and channel refs (so {@code channel("org", …)} finds the topic's params and catch-up query). An app's bundle
 * fills one at start; the runtime alone has an empty one.
 */
public final class Refs {

  private final Map<String, EntityRef> entities = new LinkedHashMap<>();
  private final Map<String, QueryRef<?>> queries = new LinkedHashMap<>();
  private final Map<String, MutatorRef<?>> mutators = new LinkedHashMap<>();
  private final Map<String, ChannelRef> channels = new LinkedHashMap<>();
  private ChannelHub.@Nullable Factory hubs;

  /**
   * Registers an entity.
   *
   * @throws IllegalArgumentException when another entity of that name is registered
   */
  public Refs entity(EntityRef entity) {
    put(entities, entity.name(), Objects.requireNonNull(entity, "entity"), "entity");
    return this;
  }

  /**
   * Registers a query ref.
   *
   * @throws IllegalArgumentException when another query of that name is registered
   */
  public Refs query(QueryRef<?> query) {
    put(queries, query.name(), Objects.requireNonNull(query, "query"), "query");
    return this;
  }

  /**
   * Registers a mutator ref.
   *
   * @throws IllegalArgumentException when another mutator of that name is registered
   */
  public Refs mutator(MutatorRef<?> mutator) {
    put(mutators, mutator.name(), Objects.requireNonNull(mutator, "mutator"), "mutator");
    return this;
  }

  /**
   * Registers a channel ref. The first one also brings the client's channel support: a bundle whose app registers
   * no channel links none of it.
   *
   * @throws IllegalArgumentException when another channel of that name is registered
   */
  public Refs channel(ChannelRef channel) {
    put(channels, channel.name(), Objects.requireNonNull(channel, "channel"), "channel");
    if (hubs == null) {
      hubs = Channels.factory();
    }
    return this;
  }

  /** What makes the page's channel hub, or null when no channel is registered. */
  ChannelHub.@Nullable Factory hubs() {
    return hubs;
  }

  private static <T> void put(Map<String, T> map, String name, T ref, String kind) {
    T old = map.get(name);
    if (old != null && old != ref) {
      throw new IllegalArgumentException("Another " + kind + " named '" + name + "' is already registered");
    }
    map.put(name, ref);
  }

  /** The entity named {@code name}, or null. */
  public @Nullable EntityRef entity(String name) {
    return entities.get(name);
  }

  /** The query named {@code name}, or null. */
  public @Nullable QueryRef<?> query(String name) {
    return queries.get(name);
  }

  /** The mutator named {@code name}, or null. */
  public @Nullable MutatorRef<?> mutator(String name) {
    return mutators.get(name);
  }

  /** The channel named {@code name}, or null. */
  public @Nullable ChannelRef channel(String name) {
    return channels.get(name);
  }

  /** The registered entities, in registration order. */
  public List<EntityRef> entities() {
    return List.copyOf(new ArrayList<>(entities.values()));
  }

  /** The registered queries, in registration order. */
  public List<QueryRef<?>> queries() {
    return List.copyOf(new ArrayList<>(queries.values()));
  }

  /** The registered mutators, in registration order. */
  public List<MutatorRef<?>> mutators() {
    return List.copyOf(new ArrayList<>(mutators.values()));
  }

  /** The registered channels, in registration order. */
  public List<ChannelRef> channels() {
    return List.copyOf(new ArrayList<>(channels.values()));
  }
}
