package io.runnel.dsl.server;

import io.runnel.dsl.ChannelRef;
import io.runnel.dsl.DeclarationException;
import io.runnel.wire.ErrorCode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The server-only half of a channel: its {@link ChannelRef}, the entities whose changes it carries (each with the
 * columns that name the topic's params), the broadcast events it allows, whether it tracks presence, and its
 * policy, which is required.
 *
 * <pre>{@code
 * Channel.of(Board.ORG).records(POSTS, "org_id").presence().events("typing").policy(Policy.memberOfParam("orgId"))
 * }</pre>
 */
public final class Channel {

  /**
   * An entity a records channel carries, with the column for each of the channel's params, in param order.
   *
   * @param entity the entity
   * @param paramColumns the column holding each param's value
   */
  public record Records(Entity entity, List<String> paramColumns) {
    /** Copies the columns. */
    public Records {
      Objects.requireNonNull(entity, "entity");
      paramColumns = List.copyOf(paramColumns);
    }
  }

  private final ChannelRef ref;
  private final List<Records> records;
  private final Set<String> events;
  private final boolean presence;
  private final @Nullable Policy policy;

  private Channel(ChannelRef ref, List<Records> records, Set<String> events, boolean presence,
      @Nullable Policy policy) {
    this.ref = ref;
    this.records = records;
    this.events = events;
    this.presence = presence;
    this.policy = policy;
  }

  /** The server half of {@code ref}: no records, events or presence, and no policy yet. */
  public static Channel of(ChannelRef ref) {
    return new Channel(Objects.requireNonNull(ref, "ref"), List.of(), Set.of(), false, null);
  }

  /**
   * This channel carrying the changes of {@code entity}; {@code paramColumns} name the entity's column for each
   * param, in param order (omitted: the columns are named like the params).
   *
   * @throws DeclarationException ({@code X_CHANNEL_DECLARATION_INVALID}) when the count differs from the params or
   *     a column is not declared on the entity
   */
  public Channel records(Entity entity, String... paramColumns) {
    Objects.requireNonNull(entity, "entity");
    List<String> columns = paramColumns.length == 0 ? ref.params() : List.of(paramColumns);
    if (columns.size() != ref.params().size()) {
      throw invalid("Channel '" + ref.name() + "' has params " + ref.params() + " but records of '" + entity.name()
          + "' name " + columns.size() + " columns.",
          "Name one column of '" + entity.name() + "' per param, in order.");
    }
    for (String c : columns) {
      if (!entity.ref().hasColumn(c)) {
        throw invalid("Entity '" + entity.name() + "' has no column '" + c + "' for channel '" + ref.name() + "'.",
            "Name the column that holds the param's value.");
      }
    }
    List<Records> next = new ArrayList<>(records);
    next.add(new Records(entity, columns));
    return new Channel(ref, Collections.unmodifiableList(next), events, presence, policy);
  }

  /**
   * This channel allowing broadcast events named {@code names} ({@code [a-z][a-z0-9_-]*}).
   *
   * @throws DeclarationException ({@code X_CHANNEL_DECLARATION_INVALID}) for a bad event name
   */
  public Channel events(String... names) {
    Set<String> next = new LinkedHashSet<>(events);
    for (String n : names) {
      if (!n.matches("[a-z][a-z0-9_-]*") || n.length() > 64) {
        throw invalid("Event name '" + n + "' of channel '" + ref.name() + "' is not valid.",
            "Use lower-case letters, digits, '_' and '-', starting with a letter.");
      }
      next.add(n);
    }
    return new Channel(ref, records, Collections.unmodifiableSet(next), presence, policy);
  }

  /** This channel tracking presence. */
  public Channel presence() {
    return new Channel(ref, records, events, true, policy);
  }

  /** This channel guarded by {@code policy}: who may join, given the topic's params. */
  public Channel policy(Policy policy) {
    return new Channel(ref, records, events, presence, Objects.requireNonNull(policy, "policy"));
  }

  /** The client-safe half. */
  public ChannelRef ref() {
    return ref;
  }

  /** The channel's name. */
  public String name() {
    return ref.name();
  }

  /** The entities it carries. */
  public List<Records> records() {
    return records;
  }

  /** The broadcast events it allows. */
  public Set<String> events() {
    return events;
  }

  /** Whether it tracks presence. */
  public boolean hasPresence() {
    return presence;
  }

  /** The policy. @throws DeclarationException ({@code X_CHANNEL_DECLARATION_INVALID}) when none was declared */
  public Policy policy() {
    if (policy == null) {
      throw invalid("Channel '" + ref.name() + "' has no policy.",
          "Declare who may join with .policy(...), for example Policy.memberOfParam(\"orgId\").");
    }
    return policy;
  }

  void validate() {
    policy();
    if (!records.isEmpty() && ref.catchUpQuery() == null) {
      throw invalid("Channel '" + ref.name() + "' carries records but names no catch-up query.",
          "Declare .catchUp(QUERY) on its ChannelRef, so a client that misses frames can re-read.");
    }
  }

  private static DeclarationException invalid(String cause, String fix) {
    return new DeclarationException(ErrorCode.X_CHANNEL_DECLARATION_INVALID, cause, fix);
  }

  @Override
  public String toString() {
    return "Channel[" + ref.name() + " " + policy + "]";
  }
}
