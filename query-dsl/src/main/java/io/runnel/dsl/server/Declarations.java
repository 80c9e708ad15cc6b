package io.runnel.dsl.server;

import io.runnel.dsl.DeclarationException;
import io.runnel.wire.ErrorCode;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An app's declarations: its queries, mutators and channels by name, each checked when added (a policy on every
 * one, an entity on every query, a server function on every mutator, a duplicate name refused), the entities they
 * read (one declaration per record type and per table), and across declarations when built (a channel's catch-up
 * query must be declared). A bad app stops at boot.
 */
public final class Declarations {

  private final Map<String, Query<?>> queries;
  private final Map<String, Mutator<?>> mutators;
  private final Map<String, Channel> channels;
  private final Map<String, Entity> entities;

  private Declarations(Builder b) {
    this.queries = Collections.unmodifiableMap(new LinkedHashMap<>(b.queries));
    this.mutators = Collections.unmodifiableMap(new LinkedHashMap<>(b.mutators));
    this.channels = Collections.unmodifiableMap(new LinkedHashMap<>(b.channels));
    this.entities = Collections.unmodifiableMap(new LinkedHashMap<>(b.entities));
  }

  /** A new, empty builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** The query named {@code name}. */
  public Optional<Query<?>> query(String name) {
    return Optional.ofNullable(queries.get(name));
  }

  /** The mutator named {@code name}. */
  public Optional<Mutator<?>> mutator(String name) {
    return Optional.ofNullable(mutators.get(name));
  }

  /** The channel named {@code name}. */
  public Optional<Channel> channel(String name) {
    return Optional.ofNullable(channels.get(name));
  }

  /** Every query, in declaration order. */
  public Collection<Query<?>> queries() {
    return queries.values();
  }

  /** Every mutator, in declaration order. */
  public Collection<Mutator<?>> mutators() {
    return mutators.values();
  }

  /** Every channel, in declaration order. */
  public Collection<Channel> channels() {
    return channels.values();
  }

  /**
   * Every entity the queries read and the channels carry, each once, in the order first declared: the tables whose
   * changes Runnel follows. No two share a record type name or a table.
   */
  public Collection<Entity> entities() {
    return entities.values();
  }

  /** Collects declarations; each {@code add} checks the declaration at once. */
  public static final class Builder {
    private final Map<String, Query<?>> queries = new LinkedHashMap<>();
    private final Map<String, Mutator<?>> mutators = new LinkedHashMap<>();
    private final Map<String, Channel> channels = new LinkedHashMap<>();
    private final Map<String, Entity> entities = new LinkedHashMap<>();
    private final Map<String, Entity> entitiesByTable = new LinkedHashMap<>();

    private Builder() {}

    /**
     * Adds a query.
     *
     * @throws DeclarationException ({@code X_QUERY_DECLARATION_INVALID}) without an entity or policy;
     *     ({@code X_DECLARATION_DUPLICATE}) for a name already declared, or an entity that conflicts with one
     *     already declared (another declaration of its record type, or another record type on its table)
     */
    public Builder query(Query<?> query) {
      Objects.requireNonNull(query, "query").validate();
      checkEntity(query.entity(), "query '" + query.name() + "'");
      put(queries, query.name(), query, "query");
      entity(query.entity());
      return this;
    }

    /**
     * Adds a mutator.
     *
     * @throws DeclarationException ({@code X_MUTATOR_NOT_IDEMPOTENT}) when declared not idempotent;
     *     ({@code X_MUTATOR_DECLARATION_INVALID}) without a policy or server function;
     *     ({@code X_DECLARATION_DUPLICATE}) for a name already declared
     */
    public Builder mutator(Mutator<?> mutator) {
      Objects.requireNonNull(mutator, "mutator").validate();
      put(mutators, mutator.name(), mutator, "mutator");
      return this;
    }

    /**
     * Adds a channel.
     *
     * @throws DeclarationException ({@code X_CHANNEL_DECLARATION_INVALID}) without a policy, or carrying records
     *     without a catch-up query; ({@code X_DECLARATION_DUPLICATE}) for a name already declared, or an entity
     *     that conflicts with one already declared
     */
    public Builder channel(Channel channel) {
      Objects.requireNonNull(channel, "channel").validate();
      for (Channel.Records r : channel.records()) {
        checkEntity(r.entity(), "channel '" + channel.name() + "'");
      }
      put(channels, channel.name(), channel, "channel");
      channel.records().forEach(r -> entity(r.entity()));
      return this;
    }

    /**
     * The declarations.
     *
     * @throws DeclarationException ({@code X_CHANNEL_DECLARATION_INVALID}) when a channel's catch-up query is not
     *     declared
     */
    public Declarations build() {
      for (Channel c : channels.values()) {
        String q = c.ref().catchUpQuery();
        if (q != null && !queries.containsKey(q)) {
          throw new DeclarationException(ErrorCode.X_CHANNEL_DECLARATION_INVALID,
              "Channel '" + c.name() + "' catches up with query '" + q + "', which is not declared.",
              "Declare the query, or name a declared one in .catchUp(...).");
        }
      }
      return new Declarations(this);
    }

    /**
     * Refuses {@code e} when another entity already declares its record type (a second {@code Entity.of} of one
     * ref with another table or tenant, or another ref of that name) or its table (two record types over one
     * table would split its changes): one record type, one table, one tenancy.
     */
    private void checkEntity(Entity e, String usedBy) {
      Entity sameName = entities.get(e.name());
      if (sameName != null && !sameName.equals(e)) {
        throw new DeclarationException(ErrorCode.X_DECLARATION_DUPLICATE,
            "Record type '" + e.name() + "' of " + usedBy + " is declared twice: " + sameName + " and " + e + ".",
            "Declare each entity once, in a constant, and use that constant in every query and channel.");
      }
      Entity sameTable = entitiesByTable.get(e.qualifiedTable());
      if (sameTable != null && !sameTable.name().equals(e.name())) {
        throw new DeclarationException(ErrorCode.X_DECLARATION_DUPLICATE,
            "Table '" + e.qualifiedTable() + "' of " + usedBy + " backs two record types, '" + sameTable.name()
                + "' and '" + e.name() + "'.",
            "Declare one entity per table and use it in every query and channel over that table.");
      }
    }

    private void entity(Entity e) {
      entities.putIfAbsent(e.name(), e);
      entitiesByTable.putIfAbsent(e.qualifiedTable(), e);
    }

    private static <T> void put(Map<String, T> map, String name, T value, String kind) {
      if (map.putIfAbsent(name, value) != null) {
        throw new DeclarationException(ErrorCode.X_DECLARATION_DUPLICATE,
            "Two " + kind + " declarations are named '" + name + "'.", "Give each " + kind + " its own name.");
      }
    }
  }
}
