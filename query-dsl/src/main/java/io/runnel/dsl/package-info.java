/**
 * The query DSL: how an app declares its data to Runnel.
 *
 * <p>Client-safe (compiled for the browser by TeaVM too): {@link io.runnel.dsl.EntityRef} (record type, key and
 * typed columns), {@link io.runnel.dsl.ColumnType}, {@link io.runnel.dsl.Select} with {@link io.runnel.dsl.Filter}
 * and {@link io.runnel.dsl.Order}, the in-process {@link io.runnel.dsl.Matcher}, {@link io.runnel.dsl.QueryRef},
 * {@link io.runnel.dsl.MutatorRef} with its local twin over {@link io.runnel.dsl.LocalTx}, and
 * {@link io.runnel.dsl.ChannelRef}.
 *
 * <p>Server-only: {@link io.runnel.dsl.Entity} (table and tenancy), {@link io.runnel.dsl.Query},
 * {@link io.runnel.dsl.Mutator}, {@link io.runnel.dsl.Channel}, {@link io.runnel.dsl.Policy},
 * {@link io.runnel.dsl.SqlRenderer}, {@link io.runnel.dsl.QueryHash} and {@link io.runnel.dsl.Declarations}. The
 * client half never references the server half.
 */
package io.runnel.dsl;
