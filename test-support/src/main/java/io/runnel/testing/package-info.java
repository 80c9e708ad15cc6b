/**
 * Test support shared by every module: one real embedded PostgreSQL 18 per test JVM (zonky, {@code
 * wal_level=logical}, {@code synchronous_commit=on}) and a fresh database per test class, dropped afterwards with
 * the replication slots the test made.
 *
 * <p>No test in Runnel uses a mock database: anything that touches SQL or WAL goes through this package.
 */
package io.runnel.testing;
