package io.runnel.sync.live.internal;

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
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A query as one actor asks it: the input decoded and checked, the policy's gate passed, a tenant-scoped entity
 * pinned to the actor's org, and the identity of the window that serves it. Live subscriptions and one-shot reads
 * resolve a query the same way, so both refuse the same requests with the same codes.
 *
 * <p>A select over a tenant-scoped entity that names one record by its whole key (an {@code eq} on every key
 * column, as {@code post(id)} does) and does not pin the tenant itself carries an {@link #otherTenant() probe}: the
 * same select with the tenant column <em>not</em> the actor's org, limit 1. Before it reads, the registry runs the
 * probe, and a row found means the input names another tenant's record ({@code X_TENANCY_ACTOR_MISMATCH}), the
 * same refusal as an input naming another tenant outright. The pin, not the probe, is what keeps other tenants'
 * rows out; the probe only turns a silent empty answer into a coded one. A key that no row holds reads as empty.
 *
 * @param query the declared query
 * @param select the select to read, its tenant pinned
 * @param org the tenant pinned, or null
 * @param id the window's identity
 * @param otherTenant the probe for another tenant's record named by key, or null when the select names none
 */
record ResolvedQuery(Query<?> query, Select select, @Nullable String org, WindowId id, @Nullable Select otherTenant) {

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
    Select otherTenant = null;
    String tenantColumn = entity.tenantColumn();
    if (tenantColumn != null) {
      org = actor.orgId();
      if (org == null) {
        throw new LiveQueryException(ErrorCode.X_TENANCY_ACTOR_ORG_REQUIRED,
            "'" + q.name() + "' reads '" + entity.name() + "', which is scoped by org, and the actor has none.",
            "Sign in as an actor that belongs to an org.");
      }
      Object orgValue = orgValue(entity, tenantColumn, org);
      otherTenant = otherTenantProbe(entity, select, tenantColumn, orgValue);
      select = pinTenant(q, entity, select, tenantColumn, orgValue);
    }
    WindowId id = WindowId.of(QueryHash.of(q.ref(), input), org, q.ref().readsActor(), actor);
    return new ResolvedQuery(q, select, org, id, otherTenant);
  }

  /** The refusal of a query whose {@linkplain #otherTenant() probe} found a row: it names no data of that row. */
  LiveQueryException otherTenantsRecord() {
    return new LiveQueryException(ErrorCode.X_TENANCY_ACTOR_MISMATCH,
        "'" + query.name() + "' names by key a '" + entity().name()
            + "' record of another tenant than the actor's org.",
        "Ask for records of the actor's own org; another org's records are never read.");
  }

  /** The entity read. */
  Entity entity() {
    return query.entity();
  }

  private static Object orgValue(Entity entity, String tenantColumn, String org) {
    Column column = entity.ref().column(tenantColumn);
    try {
      return column.type().coerce(org);
    } catch (ValueInvalidException e) {
      throw new LiveQueryException(ErrorCode.X_TENANCY_ACTOR_MISMATCH,
          "The actor's org '" + org + "' is not a valid " + column.type().sqlName() + " for " + entity.name() + "."
              + tenantColumn + ".", "Give actors org ids of the tenant column's type.");
    }
  }

  /**
   * The probe of a select that names one record by its whole key and leaves the tenant unpinned: the select, limited
   * to 1, with {@code NOT (tenant = org)}; null for any other select.
   */
  private static @Nullable Select otherTenantProbe(Entity entity, Select select, String tenantColumn,
      Object orgValue) {
    Map<String, Object> pins = select.routingKey();
    if (pins.containsKey(tenantColumn) || !pins.keySet().containsAll(entity.ref().key())) {
      return null;
    }
    return select.where(Filter.not(Filter.eq(tenantColumn, orgValue))).limit(1);
  }

  private static Select pinTenant(Query<?> q, Entity entity, Select select, String tenantColumn, Object orgValue) {
    Column column = entity.ref().column(tenantColumn);
    Object named = select.routingKey().get(tenantColumn);
    if (named != null && !named.equals(column.type().routingValue(orgValue))) {
      throw new LiveQueryException(ErrorCode.X_TENANCY_ACTOR_MISMATCH,
          "'" + q.name() + "' names tenant '" + column.type().format(named) + "', which is not the actor's org.",
          "Subscribe with the actor's own org, or leave the tenant out: it is pinned to the actor's org.");
    }
    return select.where(Filter.eq(tenantColumn, orgValue));
  }
}
