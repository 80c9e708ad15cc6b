package io.runnel.dsl.server;

import io.runnel.dsl.DeclarationException;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Names;
import io.runnel.wire.ErrorCode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The server-only half of an entity: its {@link EntityRef}, the schema-qualified table, and an optional tenant
 * column. A live query over a tenant-scoped entity is pinned to the actor's org automatically.
 *
 * <pre>{@code static final Entity POSTS = Entity.of(Board.POSTS).table("public.posts").tenant("org_id");}</pre>
 */
public final class Entity {

  private final EntityRef ref;
  private final String schema;
  private final String table;
  private final @Nullable String tenantColumn;

  private Entity(EntityRef ref, String schema, String table, @Nullable String tenantColumn) {
    this.ref = ref;
    this.schema = schema;
    this.table = table;
    this.tenantColumn = tenantColumn;
  }

  /** The entity for {@code ref}, on table {@code public.<name>} until {@link #table} says otherwise. */
  public static Entity of(EntityRef ref) {
    Objects.requireNonNull(ref, "ref");
    return new Entity(ref, "public", ref.name(), null);
  }

  /**
   * This entity on table {@code qualifiedTable} ({@code schema.table}, or {@code table} for {@code public}).
   *
   * @throws DeclarationException ({@code X_ENTITY_DECLARATION_INVALID}) when a part is not a plain identifier
   */
  public Entity table(String qualifiedTable) {
    Objects.requireNonNull(qualifiedTable, "qualifiedTable");
    int dot = qualifiedTable.indexOf('.');
    String s = dot < 0 ? "public" : qualifiedTable.substring(0, dot);
    String t = dot < 0 ? qualifiedTable : qualifiedTable.substring(dot + 1);
    if (!Names.isIdentifier(s) || !Names.isIdentifier(t)) {
      throw new DeclarationException(ErrorCode.X_ENTITY_DECLARATION_INVALID,
          "Table '" + qualifiedTable + "' of entity '" + ref.name() + "' is not schema.table of plain identifiers.",
          "Write it as schema.table, for example public.posts.");
    }
    return new Entity(ref, s, t, tenantColumn);
  }

  /**
   * This entity scoped by tenant: {@code column} holds the org id, and every read is pinned to the actor's org; an
   * input that pins another org, or names another org's record by its whole key, is refused by the sync node with
   * {@code X_TENANCY_ACTOR_MISMATCH} (docs/live.md).
   *
   * @throws DeclarationException ({@code X_ENTITY_DECLARATION_INVALID}) when the column is not declared or cannot
   *     be compared
   */
  public Entity tenant(String column) {
    Objects.requireNonNull(column, "column");
    if (!ref.hasColumn(column) || !ref.column(column).type().comparable()) {
      throw new DeclarationException(ErrorCode.X_ENTITY_DECLARATION_INVALID,
          "Tenant column '" + column + "' of entity '" + ref.name() + "' is not a declared scalar column.",
          "Declare it on the EntityRef (text, uuid or an integer) or name another column.");
    }
    return new Entity(ref, schema, table, column);
  }

  /** The client-safe half. */
  public EntityRef ref() {
    return ref;
  }

  /** The record type clients see. */
  public String name() {
    return ref.name();
  }

  /** The table's schema. */
  public String schema() {
    return schema;
  }

  /** The table's name. */
  public String table() {
    return table;
  }

  /** {@code schema.table}, unquoted, as change events name it. */
  public String qualifiedTable() {
    return schema + "." + table;
  }

  /** The tenant column, or null when the entity is not tenant-scoped. */
  public @Nullable String tenantColumn() {
    return tenantColumn;
  }

  /**
   * Whether {@code o} declares the same thing: the same {@link EntityRef} (by identity), table and tenant column.
   * Two {@code Entity.of(POSTS)} with one table are equal; {@link Declarations} refuses unequal entities of one
   * record type.
   */
  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof Entity e && ref == e.ref && schema.equals(e.schema) && table.equals(e.table)
        && Objects.equals(tenantColumn, e.tenantColumn);
  }

  @Override
  public int hashCode() {
    return Objects.hash(System.identityHashCode(ref), schema, table, tenantColumn);
  }

  @Override
  public String toString() {
    return "Entity[" + ref.name() + " on " + qualifiedTable() + (tenantColumn == null ? "" : " tenant " + tenantColumn)
        + "]";
  }
}
