/**
 * The query DSL's server-only half: {@link io.runnel.dsl.server.Entity} (table and tenancy),
 * {@link io.runnel.dsl.server.Query}, {@link io.runnel.dsl.server.Mutator} with its
 * {@link io.runnel.dsl.server.MutationContext}, {@link io.runnel.dsl.server.Channel},
 * {@link io.runnel.dsl.server.Policy}, the SQL of a select ({@link io.runnel.dsl.server.SqlRenderer}), the
 * protocol's digests ({@link io.runnel.dsl.server.QueryHash}) and the app's {@link io.runnel.dsl.server.Declarations}.
 * Each is declared on a client-safe ref from {@code io.runnel.dsl}, so every name is written once.
 */
package io.runnel.dsl.server;
