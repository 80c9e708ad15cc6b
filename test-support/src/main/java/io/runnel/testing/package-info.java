/**
 * Test support shared by every module: one real embedded PostgreSQL 18 per test JVM (zonky, {@code
 * wal_level=logical}, {@code synchronous_commit=on}) and a fresh database per test class, dropped afterwards with
 * the replication slots the test made.
 *
 * <p>No test in Runnel uses a mock database: anything that touches SQL or WAL goes through this package.
 *
 * <p>Beside the databases: real {@code nats-server}s ({@link io.runnel.testing.NatsServer}), Debian's Chromium under
 * Playwright ({@link io.runnel.testing.Chromium}), a manual clock, the tests' one polling wait
 * ({@link io.runnel.testing.Await}), their one token maker ({@link io.runnel.testing.Tokens}) and their one client of
 * a node's {@code /v1/sync} ({@link io.runnel.testing.ProtocolClient}); and the repository's sources
 * ({@link io.runnel.testing.SourceTree}) for the tests that check a rule of the build over them.
 */
package io.runnel.testing;
