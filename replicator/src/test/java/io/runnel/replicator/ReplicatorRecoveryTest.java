package io.runnel.replicator;

import static io.runnel.replicator.Changes.key;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.InProcessTransport;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.server.Entity;
import io.runnel.protocol.Lsn;
import io.runnel.testing.Await;
import io.runnel.testing.DedicatedPostgres;
import io.runnel.testing.EmbeddedPostgresServer;
import io.runnel.testing.TestDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** At least once, nothing lost: across a killed WAL sender, a server restart, a refusing bus and a failover. */
class ReplicatorRecoveryTest {

  static final EntityRef ROWS = EntityRef.of("rows").key("id").columns(c -> c.int4("id").text("v"));
  static final List<Entity> ENTITIES = List.of(Entity.of(ROWS));
  static final String TABLE = "CREATE TABLE rows (id int PRIMARY KEY, v text);";

  /**
   * Collects events until every id in [from, to] has arrived, checking that a redelivered change carries the lsn
   * it had the first time (ids seen before {@code from} may arrive again); returns how many events arrived in all.
   */
  static int collect(Harness h, Map<String, String> lsnByKey, int from, int to) throws InterruptedException {
    int missing = 0;
    for (int i = from; i <= to; i++) {
      missing += lsnByKey.containsKey(Integer.toString(i)) ? 0 : 1;
    }
    int events = 0;
    while (missing > 0) {
      ChangeEvent e = h.next();
      events++;
      String before = lsnByKey.putIfAbsent(key(e), e.lsn().toString());
      if (before != null) {
        assertEquals(before, e.lsn().toString(), "a redelivered change of key " + key(e)
            + " carries the identical lsn");
      } else {
        int id = Integer.parseInt(key(e));
        missing -= id >= from && id <= to ? 1 : 0;
      }
    }
    return events;
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    await(() -> what, condition);
  }

  /** Polls until the condition holds; the failure names what it waited for, read when it fails. */
  static void await(Supplier<String> what, BooleanSupplier condition) throws InterruptedException {
    Await.until(what, Harness.WAIT, condition::getAsBoolean);
  }

  @Test
  void killingTheWalSenderMidStreamLosesNothingAndRedeliversWithTheSameLsn() throws Exception {
    try (TestDatabase db = EmbeddedPostgresServer.shared().createDatabase("kill_walsender")) {
      db.execute(TABLE);
      try (Harness h = Harness.start(db, "kill_walsender", ENTITIES).awaitStreaming()) {
        db.execute("INSERT INTO rows SELECT g, 'v' || g FROM generate_series(1, 40000) g");
        Map<String, String> seen = new HashMap<>();
        for (ChangeEvent e : h.take(1000)) {
          seen.put(key(e), e.lsn().toString());
        }
        db.execute(
            "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = 'kill_walsender'");
        int events = collect(h, seen, 1, 40_000) + 1000;
        assertAll(
            () -> assertTrue(h.replicator.stats().restarts() >= 1, "the stream was redialled"),
            () -> assertTrue(events >= 40_000, "every row, perhaps some twice: " + events));
      }
    }
  }

  @Test
  void aServerRestartMidTransactionLosesNothing(@TempDir Path dir) throws Exception {
    try (DedicatedPostgres pg = DedicatedPostgres.start(dir.resolve("pg"), Map.of())) {
      try (Connection c = pg.connect(); Statement s = c.createStatement()) {
        s.execute(TABLE);
      }
      InProcessTransport bus = InProcessTransport.create();
      try (Harness h = Harness.via(DatabaseUrl.parse("test", pg.jdbcUrl("postgres")), "restart", ENTITIES, bus, bus)) {
        h.replicator.start();
        h.awaitStreaming();
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
          s.execute("INSERT INTO rows SELECT g, 'v' || g FROM generate_series(1, 40000) g");
        }
        Map<String, String> seen = new HashMap<>();
        for (ChangeEvent e : h.take(1000)) {
          seen.put(key(e), e.lsn().toString());
        }
        pg.restart();
        collect(h, seen, 1, 40_000);
        assertTrue(h.replicator.stats().restarts() >= 1, "the stream was redialled after the restart");
      }
    }
  }

  @Test
  void whileTheBusRefusesTheSlotDoesNotAdvanceAndAfterwardsEverythingArrivesInOrder() throws Exception {
    try (TestDatabase db = EmbeddedPostgresServer.shared().createDatabase("refusing_bus")) {
      db.execute(TABLE);
      InProcessTransport bus = InProcessTransport.create();
      RefusingTransport refusing = new RefusingTransport(bus);
      try (Harness h = Harness.via(Harness.url(db), "refusing_bus", ENTITIES, bus, refusing)) {
        h.replicator.start();
        h.awaitStreaming();
        db.execute("INSERT INTO rows VALUES (1, 'accepted')");
        assertEquals("1", key(h.next()));
        await("the first commit is confirmed", () -> h.replicator.stats().confirmedLsn() != null
            && h.replicator.stats().lagBytes() == 0);
        Lsn before = slotConfirmed(db);
        refusing.refusing.set(true);
        // The slot may still move over WAL that carries nothing to publish (a keepalive confirm), but never to the
        // first refused commit: that commit ends after the insert position read here.
        Lsn firstRefused = insertLsn(db);
        for (int i = 2; i <= 50; i++) {
          db.execute("INSERT INTO rows VALUES (" + i + ", 'refused at first')");
        }
        await("the replicator tried and was refused several times", () -> h.replicator.stats().restarts() >= 3);
        assertAll(
            () -> assertTrue(slotConfirmed(db).compareTo(firstRefused) <= 0,
                "the slot did not advance past what the bus refused: " + slotConfirmed(db) + " > " + firstRefused),
            () -> assertTrue(h.events.isEmpty(), "nothing reached subscribers while refused"),
            () -> assertTrue(h.replicator.stats().lastFailure().startsWith("X_TRANSPORT_UNAVAILABLE"),
                h.replicator.stats().lastFailure()));
        refusing.refusing.set(false);
        List<ChangeEvent> rest = h.take(49);
        for (int i = 0; i < rest.size(); i++) {
          assertEquals(Integer.toString(i + 2), key(rest.get(i)), "in commit order");
        }
        await("the slot advances again", () -> slotConfirmed(db).compareTo(before) > 0);
      }
    }
  }

  @Test
  void twoReplicatorsOnOneSlotOnlyOneStreamsAndTheOtherTakesOverLosingNothing() throws Exception {
    try (TestDatabase db = EmbeddedPostgresServer.shared().createDatabase("failover")) {
      db.execute(TABLE);
      InProcessTransport bus = InProcessTransport.create();
      try (Harness a = Harness.via(Harness.url(db), "failover", ENTITIES, bus, bus);
          Harness b = Harness.via(Harness.url(db), "failover", ENTITIES, InProcessTransport.create(), bus)) {
        a.replicator.start();
        a.awaitStreaming();
        b.replicator.start();
        await("the second waits as a standby", () -> b.replicator.stats().state() == ReplicatorStats.State.STANDBY);
        db.execute("INSERT INTO rows SELECT g, 'first' FROM generate_series(1, 100) g");
        Map<String, String> seen = new HashMap<>();
        collect(a, seen, 1, 100);
        a.replicator.stop();
        db.execute("INSERT INTO rows SELECT g, 'while nobody streams' FROM generate_series(101, 200) g");
        long stopped = System.nanoTime();
        b.awaitStreaming();
        double seconds = (System.nanoTime() - stopped) / 1e9;
        collect(a, seen, 101, 200);
        assertAll(
            () -> assertTrue(seconds < 10, "the standby took over within 10 s, in " + seconds + " s"),
            () -> assertEquals(ReplicatorStats.State.STOPPED, a.replicator.stats().state()));
      }
    }
  }

  @Test
  void losingTheLockSessionStopsTheStreamAtOnceAndItResumesLosingNothing() throws Exception {
    try (TestDatabase db = EmbeddedPostgresServer.shared().createDatabase("lost_lock")) {
      db.execute(TABLE);
      try (Harness h = Harness.start(db, "lost_lock", ENTITIES).awaitStreaming()) {
        db.execute("INSERT INTO rows VALUES (1, 'a')");
        h.next();
        db.execute("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted"
            + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");
        await("the stream stopped and was redialled", () -> h.replicator.stats().restarts() >= 1);
        db.execute("INSERT INTO rows VALUES (2, 'b')");
        assertEquals("2", key(h.next()));
        assertTrue(h.replicator.stats().lastFailure() == null
            || h.replicator.stats().lastFailure().contains("advisory lock"), h.replicator.stats().lastFailure());
      }
    }
  }

  private static Lsn insertLsn(TestDatabase db) {
    try (Connection c = db.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT pg_current_wal_insert_lsn()::text")) {
      r.next();
      return Lsn.parse(r.getString(1));
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  private static Lsn slotConfirmed(TestDatabase db) {
    try (Connection c = db.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = '"
            + "refusing_bus'")) {
      r.next();
      return Lsn.parse(r.getString(1));
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

}
