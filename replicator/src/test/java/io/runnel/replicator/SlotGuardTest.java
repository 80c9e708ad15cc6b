package io.runnel.replicator;

import static io.runnel.replicator.Changes.key;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.runnel.bus.InProcessTransport;
import io.runnel.dsl.server.Entity;
import io.runnel.testing.DedicatedPostgres;
import io.runnel.testing.EmbeddedPostgresServer;
import io.runnel.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replicator's slot identity and retention on real PostgreSQL: the slot it creates is recorded in
 * {@code runnel.replication_slots}; a restart on its own slot is no loss; a slot moved past what it confirmed is one;
 * {@code max_slot_wal_keep_size} and {@code safe_wal_size} are watched and warned about with their codes.
 */
class SlotGuardTest {

  static final List<Entity> ENTITIES = ReplicatorRecoveryTest.ENTITIES;

  /** The state row of {@code slot}: created_lsn, producer, published_lsn (each as text, the first may be null). */
  static List<String> stateRow(Connection c, String slot) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT created_lsn::text, producer, published_lsn::text "
        + "FROM runnel.replication_slots WHERE slot_name = ?")) {
      s.setString(1, slot);
      try (ResultSet r = s.executeQuery()) {
        assertTrue(r.next(), "a state row for slot " + slot);
        return Arrays.asList(r.getString(1), r.getString(2), r.getString(3));
      }
    }
  }

  @Test
  void theSlotAReplicatorCreatesIsRecordedAndARestartOnItIsNoLoss() throws Exception {
    try (TestDatabase db = EmbeddedPostgresServer.shared().createDatabase("slot_identity")) {
      db.execute(ReplicatorRecoveryTest.TABLE);
      try (Harness h = Harness.start(db, "identity", ENTITIES).awaitStreaming()) {
        db.execute("INSERT INTO rows VALUES (1, 'a')");
        ChangeEvent first = h.next();
        List<String> row;
        try (Connection c = db.connect()) {
          row = stateRow(c, "identity");
        }
        h.replicator.stop();
        db.execute("INSERT INTO rows VALUES (2, 'b')");
        h.replicator.start();
        ChangeEvent second = h.next();
        ReplicatorStats stats = h.replicator.stats();
        assertAll(
            () -> assertNotNull(row.get(0), "the slot's identity: the position it was created at"),
            () -> assertEquals(first.producer(), row.get(1), "the producer that streams it"),
            () -> assertEquals("2", key(second), "the row committed while stopped arrives"),
            () -> assertEquals(first.producer(), second.producer(), "the same producer: nothing was lost"),
            () -> assertEquals(0, stats.slotLost()),
            () -> assertTrue(stats.warnings().stream().anyMatch(w -> w.startsWith("X_WAL_RETENTION_UNBOUNDED:")
                && w.contains("max_slot_wal_keep_size")), "the shared server keeps WAL unbounded: "
                + stats.warnings()),
            () -> assertNotNull(stats.retention(), "the retention read at the stream's start"),
            () -> assertNull(stats.retention().safeWalBytes(), "unlimited: no safe size"),
            () -> assertTrue(!stats.retentionLow(), "unlimited is not low"));
      }
    }
  }

  @Test
  void aSlotAdvancedPastWhatTheReplicatorConfirmedIsLostAndStartsANewProducer() throws Exception {
    try (TestDatabase db = EmbeddedPostgresServer.shared().createDatabase("slot_advanced")) {
      db.execute(ReplicatorRecoveryTest.TABLE);
      try (Harness h = Harness.start(db, "advanced", ENTITIES).awaitStreaming()) {
        db.execute("INSERT INTO rows VALUES (1, 'a')");
        ChangeEvent first = h.next();
        h.replicator.stop();
        db.execute("INSERT INTO rows VALUES (2, 'skipped by the advance')");
        db.execute("SELECT pg_replication_slot_advance('advanced', pg_current_wal_lsn())");
        h.replicator.start();
        db.execute("INSERT INTO rows VALUES (3, 'after')");
        ChangeEvent next = h.next();
        assertAll(
            () -> assertEquals("3", key(next), "the skipped row never arrives: the WAL it was in is behind the slot"),
            () -> assertNotEquals(first.producer(), next.producer(), "a new producer, so every consumer sees a gap"),
            () -> assertEquals(1, h.replicator.stats().slotLost()));
      }
    }
  }

  @Test
  void retentionBelowTheMinimumIsWarnedAndMetered(@TempDir Path dir) throws Exception {
    try (DedicatedPostgres pg = DedicatedPostgres.start(dir.resolve("data"),
        Map.of("max_slot_wal_keep_size", "64MB"))) {
      try (Connection c = pg.connect(); Statement s = c.createStatement()) {
        s.execute(ReplicatorRecoveryTest.TABLE);
      }
      InProcessTransport bus = InProcessTransport.create();
      MeterRegistry registry = new SimpleMeterRegistry();
      Replicator r = Replicator.builder().database(DatabaseUrl.parse("test", pg.jdbcUrl("postgres"))).slot("kept")
          .publication("kept").entities(ENTITIES).transport(bus).meters(registry).walSafeMinBytes(1L << 40).build();
      try {
        r.start();
        new Harness.StateWait(r).until(ReplicatorStats.State.STREAMING);
        ReplicatorStats stats = r.stats();
        assertAll(
            () -> assertNotNull(stats.retention()),
            () -> assertTrue(stats.retention().safeWalBytes() != null && stats.retention().safeWalBytes() > 0,
                "a bounded max_slot_wal_keep_size gives a safe size: " + stats.retention()),
            () -> assertTrue(stats.retentionLow(), "64 MB is under the 1 TiB asked for"),
            () -> assertTrue(stats.warnings().stream().anyMatch(w -> w.startsWith("X_WAL_RETENTION_LOW:")
                && w.contains("RUNNEL_WAL_SAFE_MIN_BYTES")), stats.warnings().toString()),
            () -> assertTrue(stats.warnings().stream().noneMatch(w -> w.startsWith("X_WAL_RETENTION_UNBOUNDED")),
                "bounded: no unbounded warning"),
            () -> assertEquals(1.0, ReplicatorMetersTest.gauge(registry, "runnel_replicator_slot_wal_status", "status",
                "reserved")),
            () -> assertEquals(0.0, ReplicatorMetersTest.gauge(registry, "runnel_replicator_slot_wal_status", "status",
                "lost")),
            () -> assertTrue(ReplicatorMetersTest.gauge(registry, "runnel_replicator_slot_safe_wal_bytes") > 0),
            () -> assertTrue(ReplicatorMetersTest.gauge(registry, "runnel_replicator_slot_retained_bytes") >= 0),
            () -> assertEquals(0.0, ReplicatorMetersTest.counter(registry, "runnel_replicator_slot_lost")));
      } finally {
        r.stop();
        bus.close();
        try (Connection c = DriverManager.getConnection(pg.jdbcUrl("postgres")); Statement s = c.createStatement()) {
          s.execute("SELECT pg_drop_replication_slot('kept')");
        }
      }
    }
  }
}
