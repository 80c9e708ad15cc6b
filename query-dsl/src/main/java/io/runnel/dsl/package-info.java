/**
 * The query DSL's client-safe half: how an app declares its data, compiled for the JVM and, by TeaVM, for the
 * browser.
 *
 * <p>{@link io.runnel.dsl.EntityRef} (record type, key and typed columns), {@link io.runnel.dsl.ColumnType},
 * {@link io.runnel.dsl.Select} with {@link io.runnel.dsl.Filter} and {@link io.runnel.dsl.Order} (or all of them
 * through {@link io.runnel.dsl.Dsl}), the in-process {@link io.runnel.dsl.Matcher}, {@link io.runnel.dsl.QueryRef},
 * {@link io.runnel.dsl.MutatorRef} with its local twin over {@link io.runnel.dsl.LocalTx}, and
 * {@link io.runnel.dsl.ChannelRef}.
 *
 * <p>The server-only half (tables, tenancy, policies, SQL, server functions) is {@code io.runnel.dsl.server}. No
 * class here references it, nor {@code java.sql} or {@code java.security}, so TeaVM never pulls a JDBC call into a
 * bundle; a test scans the compiled classes to keep it so.
 */
package io.runnel.dsl;
