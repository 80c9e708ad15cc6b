package io.runnel.sync.live;

import io.runnel.dsl.Actor;
import io.runnel.dsl.Column;
import io.runnel.dsl.Filter;
import io.runnel.dsl.Select;
import io.runnel.dsl.ValueInvalidException;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Query;
import io.runnel.dsl.server.QueryHash;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonLimits;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Nullable;

/**
 * A query as one actor asks it: the input decoded and checked, the policy's gate passed, a tenant-scoped entity
 * pinned to the actor's org, and the identity of the window that serves it. Live subscriptions and one-shot reads
 * resolve a query the same way, so both refuse the same requests with the same codes.
 *
 * @param query the declared query
 * @param select the select to read, its tenant pinned
 * @param org the tenant pinned, or null
 * @param id the window's identity
 */
record ResolvedQuery(Query<?> query, Select select, @Nullable String org, WindowId id) {

  /**
   * Resolves {@code q} for {@code actor} with {@code json} as input.
   *
   * @throws io.runnel.wire.InputInvalidException naming the input field at fault
   * @throws LiveQueryException {@code X_FORBIDDEN}, {@code X_TENANCY_ACTOR_ORG_REQUIRED} or
   *     {@code X_TENANCY_ACTOR_MISMATCH}
   */
  static <I> ResolvedQuery resolve(Query<I> q, Actor actor, JsonValue json, JsonLimits limits) {
    I input = q.ref().decodeInput(json, limits);
    if (!q.policy().admits(actor)) {
      throw new LiveQueryException(ErrorCode.X_FORBIDDEN, "The policy of '" + q.name() + "' refuses this actor.",
          "Sign in as an actor the query's policy admits.");
    }
    Select select = q.select(input, actor);
    Entity entity = q.entity();
    String org = null;
    String tenantColumn = entity.tenantColumn();
    if (tenantColumn != null) {
      org = actor.orgId();
      if (org == null) {
        throw new LiveQueryException(ErrorCode.X_TENANCY_ACTOR_ORG_REQUIRED,
            "'" + q.name() + "' reads '" + entity.name() + "', which is scoped by org, and the actor has none.",
            "Sign in as an actor that belongs to an org.");
      }
      select = pinTenant(q, entity, select, tenantColumn, org);
    }
    WindowId id = WindowId.of(QueryHash.of(q.ref(), input), org, q.ref().readsActor(), actor);
    return new ResolvedQuery(q, select, org, id);
  }

  /** The entity read. */
  Entity entity() {
    return query.entity();
  }

  private static Select pinTenant(Query<?> q, Entity entity, Select select, String tenantColumn, String org) {
    Column column = entity.ref().column(tenantColumn);
    Object orgValue;
    try {
      orgValue = column.type().coerce(org);
    } catch (ValueInvalidException e) {
      throw new LiveQueryException(ErrorCode.X_TENANCY_ACTOR_MISMATCH,
          "The actor's org '" + org + "' is not a valid " + column.type().sqlName() + " for " + entity.name() + "."
              + tenantColumn + ".", "Give actors org ids of the tenant column's type.");
    }
    Object named = select.routingKey().get(tenantColumn);
    if (named != null && !named.equals(column.type().routingValue(orgValue))) {
      throw new LiveQueryException(ErrorCode.X_TENANCY_ACTOR_MISMATCH,
          "'" + q.name() + "' names tenant '" + column.type().format(named) + "', which is not the actor's org.",
          "Subscribe with the actor's own org, or leave the tenant out: it is pinned to the actor's org.");
    }
    return select.where(Filter.eq(tenantColumn, orgValue));
  }
}
