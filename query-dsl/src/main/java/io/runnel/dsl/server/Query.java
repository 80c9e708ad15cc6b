package io.runnel.dsl.server;

import io.runnel.dsl.Actor;
import io.runnel.dsl.DeclarationException;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.Select;
import io.runnel.wire.ErrorCode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The server-only half of a query: its {@link QueryRef}, the {@link Entity} it reads (table and tenancy) and its
 * {@link Policy}. Both are required; {@link Declarations} refuses a query without them.
 *
 * <pre>{@code Query.of(Board.LIVE_FEED).on(POSTS).policy(Policy.can("feed:read"))}</pre>
 *
 * @param <I> the input type
 */
public final class Query<I> {

  private final QueryRef<I> ref;
  private final @Nullable Entity entity;
  private final @Nullable Policy policy;

  private Query(QueryRef<I> ref, @Nullable Entity entity, @Nullable Policy policy) {
    this.ref = ref;
    this.entity = entity;
    this.policy = policy;
  }

  /** The server half of {@code ref}, with no entity or policy yet. */
  public static <I> Query<I> of(QueryRef<I> ref) {
    return new Query<>(Objects.requireNonNull(ref, "ref"), null, null);
  }

  /** This query reading {@code entity}. */
  public Query<I> on(Entity entity) {
    return new Query<>(ref, Objects.requireNonNull(entity, "entity"), policy);
  }

  /** This query guarded by {@code policy}. */
  public Query<I> policy(Policy policy) {
    return new Query<>(ref, entity, Objects.requireNonNull(policy, "policy"));
  }

  /** The client-safe half. */
  public QueryRef<I> ref() {
    return ref;
  }

  /** The query's name. */
  public String name() {
    return ref.name();
  }

  /**
   * The entity read.
   *
   * @throws DeclarationException when none was declared (a registered query always has one)
   */
  public Entity entity() {
    if (entity == null) {
      throw new DeclarationException(ErrorCode.X_QUERY_DECLARATION_INVALID,
          "Query '" + ref.name() + "' names no entity.", "Declare the entity it reads with .on(ENTITY).");
    }
    return entity;
  }

  /**
   * The policy.
   *
   * @throws DeclarationException when none was declared (a registered query always has one)
   */
  public Policy policy() {
    if (policy == null) {
      throw new DeclarationException(ErrorCode.X_QUERY_DECLARATION_INVALID,
          "Query '" + ref.name() + "' has no policy.",
          "Declare one with .policy(...): Policy.allowPublic() for a public query.");
    }
    return policy;
  }

  /**
   * The select for {@code input} as {@code actor} asks, checked to be over this query's entity.
   *
   * @throws DeclarationException ({@code X_QUERY_DECLARATION_INVALID}) when the source selects from another entity
   */
  public Select select(I input, Actor actor) {
    Select s = ref.select(input, actor);
    if (s.entity() != entity().ref()) {
      throw new DeclarationException(ErrorCode.X_QUERY_DECLARATION_INVALID,
          "The source of query '" + ref.name() + "' selects from '" + s.entity().name()
              + "' but the query is declared on '" + entity().name() + "'.",
          "Declare the query .on() the entity its source selects from.");
    }
    return s;
  }

  void validate() {
    entity();
    policy();
  }

  @Override
  public String toString() {
    return "Query[" + ref.name() + " on " + entity + " " + policy + "]";
  }
}
