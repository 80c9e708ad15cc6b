package io.runnel.sync;

import static io.runnel.sync.SyncNodeTest.str;
import static io.runnel.sync.SyncNodeTest.t;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.runnel.bus.InProcessTransport;
import io.runnel.protocol.Lsn;
import io.runnel.protocol.Position;
import io.runnel.replicator.DatabaseUrl;
import io.runnel.replicator.Replicator;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.sync.live.internal.LossyTransport;
import io.runnel.testing.Await;
import io.runnel.testing.DedicatedPostgres;
import io.runnel.testing.EmbeddedPostgresServer;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.SystemPostgres;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lost replication slot is a gap, never silent staleness. Peers had this outage: a slot lost, lists served stale for
 * a day and a half, every health check green. Here the slot is dropped under a running replicator (its WAL sender
 * terminated, rows committed while the slot is gone), or invalidated by PostgreSQL past a tiny
 * {@code max_slot_wal_keep_size} while the bus is down; afterwards every window is read again and equals its SQL,
 * every records topic hears {@code gap}, the replicator logs {@code X_REPLICATION_SLOT_LOST} and counts
 * {@code runnel_replicator_slot_lost_total}. Each runs on the embedded PostgreSQL 18 and on the machine's PostgreSQL
 * (15 here) in a cluster of the test's own, which must be installed when {@code CI} is set.
 */
class SlotLossTest {

  static final String SLOT = "lossy";

  @Test
  void aSlotDroppedUnderARunningReplicatorReReadsEveryWindowOnTheEmbeddedPostgres18() throws Exception {
    try (TestDatabase db = EmbeddedPostgresServer.shared().createDatabase("slot_dropped")) {
      dropped(db.jdbcUrl());
    }
  }

  @Test
  void aSlotDroppedUnderARunningReplicatorReReadsEveryWindowOnTheMachinesPostgres(@TempDir Path dir)
      throws Exception {
    try (SystemPostgres pg = SystemPostgres.start(machinePostgres(), dir.resolve("pg"))) {
      dropped(pg.jdbcUrl("postgres"));
    }
  }

  @Test
  void aSlotInvalidatedPastMaxSlotWalKeepSizeReReadsEveryWindowOnTheEmbeddedPostgres18(@TempDir Path dir)
      throws Exception {
    try (DedicatedPostgres pg = DedicatedPostgres.start(dir.resolve("data"), Map.of("max_slot_wal_keep_size", "1MB"))) {
      invalidated(pg.jdbcUrl("postgres"));
    }
  }

  @Test
  void aSlotInvalidatedPastMaxSlotWalKeepSizeReReadsEveryWindowOnTheMachinesPostgres(@TempDir Path dir)
      throws Exception {
    try (SystemPostgres pg = SystemPostgres.start(machinePostgres(), dir.resolve("pg"),
        Map.of("max_slot_wal_keep_size", "1MB"))) {
      invalidated(pg.jdbcUrl("postgres"));
    }
  }

  /** The machine's PostgreSQL install; without one the test fails under {@code CI} and is skipped elsewhere. */
  static Path machinePostgres() {
    Path bin = SystemPostgres.find().orElse(null);
    if (bin == null) {
      String why = "no PostgreSQL install under /usr/lib/postgresql (Debian's postgresql package)";
      if (System.getenv("CI") != null) {
        fail(why + ", and CI is set: install it (apt-get install postgresql)");
      }
      Assumptions.abort(why);
    }
    return bin;
  }

  /**
   * Drops the slot under the running replicator: the replicator's state table is locked first, so it cannot open
   * a slot again until the test lets it, the WAL sender is terminated, the slot dropped, and rows committed while it
   * is gone.
   */
  static void dropped(String jdbcUrl) throws Exception {
    try (World w = World.start(jdbcUrl)) {
      w.sql("INSERT INTO cards VALUES (1, 'acme', 'before')");
      w.subscribeAndJoin();
      try (Connection lock = w.connect()) {
        lock.setAutoCommit(false);
        try (Statement s = lock.createStatement()) {
          s.execute("LOCK TABLE runnel.replication_slots IN ACCESS EXCLUSIVE MODE");
        }
        w.dropSlot();
        w.sql("INSERT INTO cards VALUES (2, 'acme', 'while gone')");
        w.sql("UPDATE cards SET title = 'changed while gone' WHERE id = 1");
        w.lostWrite = w.insertLsn();
        lock.commit();
      }
      w.recovers("was missing (dropped)");
    }
  }

  /**
   * Stalls the replicator (the bus refuses every publish, so nothing is confirmed), writes WAL of a table Runnel does
   * not publish past {@code max_slot_wal_keep_size} with checkpoints until PostgreSQL invalidates the slot, commits a
   * row the lost WAL holds, and brings the bus back.
   */
  static void invalidated(String jdbcUrl) throws Exception {
    try (World w = World.start(jdbcUrl)) {
      w.sql("CREATE TABLE filler (id int8, pad text)");
      w.sql("INSERT INTO cards VALUES (1, 'acme', 'before')");
      w.subscribeAndJoin();
      w.bus.down = true;
      w.sql("INSERT INTO cards VALUES (2, 'acme', 'in the lost WAL')");
      // The state table is locked while the WAL is written, as in dropped(): a replicator redialing through the
      // outage could otherwise make the slot again between the checkpoint that invalidates it and this loop's next
      // look, and the loop would go on to invalidate the new slot too (two losses where the test makes one).
      try (Connection lock = w.connect()) {
        lock.setAutoCommit(false);
        try (Statement s = lock.createStatement()) {
          s.execute("LOCK TABLE runnel.replication_slots IN ACCESS EXCLUSIVE MODE");
        }
        String[] walStatus = {null};
        Await.until(() -> "PostgreSQL invalidates the slot, wal_status " + walStatus[0], Duration.ofSeconds(60),
            Duration.ZERO, () -> {
              walStatus[0] = w.walStatus();
              if ("lost".equals(walStatus[0])) {
                return true;
              }
              w.sql("INSERT INTO filler SELECT g, repeat('x', 200) FROM generate_series(1, 20000) g");
              w.sql("SELECT pg_switch_wal()");
              w.sql("CHECKPOINT");
              return false;
            });
        w.sql("UPDATE cards SET title = 'changed in the lost WAL' WHERE id = 1");
        w.lostWrite = w.insertLsn();
        lock.commit();
      }
      w.bus.down = false;
      w.recovers("was invalidated by PostgreSQL");
    }
  }

  /** A replicator, a node and one socket subscribed to {@code boardCards} of {@code acme} and joined to its topic. */
  static final class World implements AutoCloseable {
    final String jdbcUrl;
    final LossyTransport bus;
    final InProcessTransport inner = InProcessTransport.create();
    final HikariDataSource pool;
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final Replicator replicator;
    final SyncNode node;
    final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    final Handler handler = new Handler() {
      @Override
      public void publish(LogRecord r) {
        logged.add(r);
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    final Logger replicatorLog = Logger.getLogger(Replicator.class.getName());
    ProtocolClient<JsonObject> ada;
    /** A write's answer LSN inside the lost range (the insert position right after its commit), or null. */
    Lsn lostWrite;
    /** Every frame ada received since she joined, in order. */
    final List<JsonObject> frames = new ArrayList<>();

    private World(String jdbcUrl) throws Exception {
      this.jdbcUrl = jdbcUrl;
      replicatorLog.addHandler(handler);
      sql(RecordsChannelsTest.CARDS_TABLE);
      bus = new LossyTransport(inner, "cards");
      pool = TestPools.of(jdbcUrl, 4);
      replicator = Replicator.builder().database(DatabaseUrl.parse("test", jdbcUrl)).slot(SLOT).publication(SLOT)
          .entities(List.of(RecordsChannelsTest.CARDS_ENTITY)).transport(bus).meters(registry)
          .backoff(Duration.ofMillis(50), Duration.ofMillis(500)).flushDeadline(Duration.ofSeconds(2)).build();
      replicator.start();
      LiveFixtureAccess.await("the replicator streams",
          () -> replicator.stats().state() == ReplicatorStats.State.STREAMING);
      node = SyncNode.builder().declarations(RecordsChannelsTest.DECLARATIONS).transport(bus).dataSource(pool)
          .authenticator(ChannelFixture.IDENTITIES).channelTicker(new ManualTicker()).listen("127.0.0.1", 0)
          .replicator(replicator::stats).build();
      node.start();
    }

    static World start(String jdbcUrl) throws Exception {
      return new World(jdbcUrl);
    }

    Connection connect() throws SQLException {
      return DriverManager.getConnection(jdbcUrl, "postgres", "postgres");
    }

    void sql(String statements) throws SQLException {
      try (Connection c = connect(); Statement s = c.createStatement()) {
        s.execute(statements);
      }
    }

    /** {@code pg_current_wal_insert_lsn()} now: after a commit, the answer LSN a mutate would carry. */
    Lsn insertLsn() throws SQLException {
      try (Connection c = connect(); Statement s = c.createStatement();
          ResultSet r = s.executeQuery("SELECT pg_current_wal_insert_lsn()::text")) {
        r.next();
        return Lsn.parse(r.getString(1));
      }
    }

    String walStatus() throws SQLException {
      try (Connection c = connect(); PreparedStatement s = c.prepareStatement(
          "SELECT wal_status FROM pg_replication_slots WHERE slot_name = ?")) {
        s.setString(1, SLOT);
        try (ResultSet r = s.executeQuery()) {
          return r.next() ? r.getString(1) : "missing";
        }
      }
    }

    /** Subscribes ada to the acme board's cards and joins its records topic; waits for the window and the join. */
    void subscribeAndJoin() throws Exception {
      ada = Sockets.open(node.port(), Map.of("Authorization", "Bearer ada@acme"));
      ada.send("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"boardCards\",\"in\":{\"orgId\":\"acme\"}}");
      JsonObject snapshot = ada.next();
      assertEquals("snapshot", t(snapshot), snapshot.toString());
      frames.add(snapshot);
      List<JsonObject> joined = RecordsChannelsTest.joined(ada, "board.acme", null);
      assertEquals(List.of("presence", "gap"), RecordsChannelsTest.kinds(joined), joined.toString());
    }

    /** Terminates the slot's WAL sender and drops the slot, retrying while the sender still holds it. */
    void dropSlot() throws Exception {
      SQLException[] inUse = {null};
      try (Connection c = connect()) {
        Await.until("the slot's WAL sender lets go of it and the slot is dropped", Duration.ofSeconds(30),
            Duration.ofMillis(20), () -> {
              try (PreparedStatement s = c.prepareStatement("SELECT pg_terminate_backend(active_pid) "
                  + "FROM pg_replication_slots WHERE slot_name = ? AND active_pid IS NOT NULL")) {
                s.setString(1, SLOT);
                s.execute();
              }
              try (PreparedStatement s = c.prepareStatement("SELECT pg_drop_replication_slot(?)")) {
                s.setString(1, SLOT);
                s.execute();
                return true;
              } catch (SQLException e) {
                if (!"55006".equals(e.getSQLState())) { // 55006 object_in_use: the sender still holds the slot
                  throw e;
                }
                inUse[0] = e;
                return false;
              }
            });
      } catch (AssertionError timedOut) {
        SQLException last = inUse[0];
        if (last != null) {
          last.addSuppressed(timedOut);
          throw last; // PostgreSQL's last refusal, as before the wait gave up
        }
        throw timedOut;
      }
    }

    /**
     * After the loss: the replicator streams again having counted and logged it under a new producer; ada's list
     * was read again and equals SQL, her topic heard {@code gap}, and a row committed afterwards arrives.
     */
    void recovers(String what) throws Exception {
      LiveFixtureAccess.await("the replicator counts the lost slot and streams again",
          () -> replicator.stats().slotLost() == 1 && replicator.stats().state() == ReplicatorStats.State.STREAMING);
      sql("INSERT INTO cards VALUES (3, 'acme', 'after')");
      Lsn after = insertLsn();
      LiveFixtureAccess.await("the node holds every change through " + after,
          () -> node.settledThrough(after.point()));
      List<JsonObject> since = new ArrayList<>();
      JsonObject[] hello = {null};
      // The window's re-read lands on its lane after the gap: read on until the list holds the row after the loss,
      // asking hello every 100 ms (well under the frame rate limit) while the re-read lands.
      BooleanSupplier caughtUp = () -> list(frames).containsKey("3")
          && since.stream().anyMatch(f -> t(f).equals("snapshot"));
      Await.until(() -> "ada's list catches up: " + since, Duration.ofSeconds(30), Duration.ofMillis(100), () -> {
        if (caughtUp.getAsBoolean()) {
          return true;
        }
        ada.send("{\"t\":\"hello\",\"v\":1}");
        for (JsonObject f = ada.next(); ; f = ada.next()) {
          if (t(f).equals("hello")) {
            hello[0] = f;
            break;
          }
          since.add(f);
          frames.add(f);
        }
        return caughtUp.getAsBoolean();
      });
      JsonObject lastHello = hello[0];
      Map<String, String> database = RecordsChannelsTest.cards(jdbcUrl, "acme");
      String scrape = registry.scrape();
      List<LogRecord> lost = logged.stream()
          .filter(r -> r.getMessage() != null && r.getMessage().startsWith("X_REPLICATION_SLOT_LOST")).toList();
      assertAll(
          () -> assertEquals(database, list(frames), "ada's list equals its SQL: " + frames),
          () -> assertTrue(database.get("2") != null && database.get("1").contains("changed"),
              "the rows committed in the lost range are in it: " + database),
          () -> assertTrue(since.stream().anyMatch(f -> t(f).equals("snapshot") && str(f, "sid").equals("s1")),
              "the window was read again and its subscriber re-snapshotted: " + since),
          () -> assertTrue(since.stream().anyMatch(f -> t(f).equals("gap") && str(f, "topic").equals("board.acme")),
              "the records topic heard gap: " + since),
          () -> assertEquals(1, lost.size(), "one coded log line: " + logged.stream().map(LogRecord::getMessage)
              .toList()),
          () -> assertEquals(Level.SEVERE, lost.get(0).getLevel()),
          () -> assertTrue(lost.get(0).getMessage().contains(what), lost.get(0).getMessage()),
          () -> assertTrue(lost.get(0).getMessage().matches("(?s).*between \\S+ and [0-9A-F]+/[0-9A-F]+ may never.*"),
              "the cause names the range that may be missing: " + lost.get(0).getMessage()),
          () -> assertTrue(lost.get(0).getMessage().contains("max_slot_wal_keep_size"),
              "the fix says how to size max_slot_wal_keep_size"),
          () -> assertTrue(scrape.contains("runnel_replicator_slot_lost_total 1.0"), scrape),
          () -> assertTrue(lastHello.get("lagMs") instanceof JsonNumber, "hello says the lag: " + lastHello),
          () -> assertTrue(Position.parse(str(lastHello, "lsn")).compareTo(lostWrite.point()) >= 0,
              "a write committed in the lost range settles: hello's lsn " + str(lastHello, "lsn")
                  + " passed its answer " + lostWrite.point()),
          () -> assertTrue(lastHello.get("asOf") instanceof JsonNumber, "hello says as of when: " + lastHello),
          () -> assertNotEquals(0, node.stats().live().gaps(), "the node saw the new producer as a gap"));
    }

    /** Ada's list of {@code s1} from her frames: each snapshot replaces it, each patch applies; key to title. */
    static Map<String, String> list(List<JsonObject> frames) {
      Map<String, String> rows = new TreeMap<>();
      for (JsonObject f : frames) {
        if (f.get("sid") == null || !str(f, "sid").equals("s1")) {
          continue;
        }
        if (t(f).equals("snapshot")) {
          rows.clear();
          for (JsonValue v : ((JsonArray) f.get("records")).elements()) {
            JsonObject record = (JsonObject) v;
            rows.put(str(record, "key"), str((JsonObject) record.get("row"), "title"));
          }
        } else if (t(f).equals("patch")) {
          RecordsChannelsTest.apply(rows, f);
        }
      }
      return rows;
    }

    @Override
    public void close() {
      replicatorLog.removeHandler(handler);
      if (ada != null) {
        ada.close();
      }
      node.stop();
      replicator.stop();
      inner.close();
      pool.close();
      try (Connection c = connect(); Statement s = c.createStatement()) {
        s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '" + SLOT
            + "' AND active_pid IS NULL");
      } catch (SQLException e) {
        // The database goes away with its test.
      }
    }
  }
}
