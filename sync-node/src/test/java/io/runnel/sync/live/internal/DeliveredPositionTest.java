package io.runnel.sync.live.internal;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.Subjects;
import io.runnel.dsl.Actor;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.protocol.Lsn;
import io.runnel.protocol.Position;
import io.runnel.sync.live.LiveStats;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonObject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The node's delivered position (the {@code hello} answer's {@code lsn}) on real WAL: it reaches a write's answer
 * LSN ({@code pg_current_wal_insert_lsn()} right after its COMMIT) with nothing published after the write, whether
 * the write touched a declared table or not, never goes backwards, and the replicator's position heartbeats that
 * carry it are neither gaps nor reasons to read.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeliveredPositionTest {

  static final EntityRef NOTES = EntityRef.of("notes").key("id").columns(c -> c.int4("id").text("body"));
  static final Entity NOTES_ENTITY = Entity.of(NOTES).table("public.notes");
  static final QueryRef<NoInput> ALL_NOTES = QueryRef.live("allNotes", NoInput.CODEC,
      in -> select(NOTES).orderBy(asc("id")));
  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(ALL_NOTES).on(NOTES_ENTITY).policy(Policy.allowPublic()))
      .build();
  /** How long a client may wait for the position past its write's answer. */
  static final Duration SETTLE = Duration.ofSeconds(10);

  TestDatabase db;
  LiveFixture fixture;
  final AtomicInteger ids = new AtomicInteger();

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    this.db = db;
    db.execute("CREATE TABLE notes (id int PRIMARY KEY, body text); CREATE TABLE scratch (id serial PRIMARY KEY)");
    fixture = new LiveFixture(db, "delivered", List.of(NOTES_ENTITY));
  }

  @AfterAll
  void stop() {
    fixture.close();
  }

  private LiveQueryRegistry registry() {
    return fixture.registry(DECLARATIONS);
  }

  private static RecordingSubscriber subscribed(LiveQueryRegistry r) throws InterruptedException {
    RecordingSubscriber rec = new RecordingSubscriber();
    r.subscribe(rec, "all", Actor.user("ada"), "allNotes", JsonObject.EMPTY);
    LiveFixture.await("the snapshot", () -> rec.stream("all").snapshots == 1);
    return rec;
  }

  /**
   * Runs {@code sql} in one transaction and returns, as a protocol point, {@code pg_current_wal_insert_lsn()} read
   * right after its COMMIT on the same connection: the {@code lsn} a mutate answer carries.
   */
  private Position commitAndAnswerLsn(String sql) throws SQLException {
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.execute(sql);
      c.commit();
      c.setAutoCommit(true);
      try (ResultSet r = s.executeQuery("SELECT pg_current_wal_insert_lsn()::text")) {
        r.next();
        return Lsn.parse(r.getString(1)).point();
      }
    }
  }

  private static void awaitDelivered(LiveQueryRegistry r, Position answer) throws InterruptedException {
    LiveFixture.await("the delivered position " + r.deliveredPosition() + " reaches " + answer, SETTLE,
        () -> r.deliveredPosition().compareTo(answer) >= 0);
  }

  @Test
  void aWriteToADeclaredTableIsDeliveredThroughItsAnswerLsnWithNothingPublishedAfterIt() throws Exception {
    try (LiveQueryRegistry r = registry()) {
      RecordingSubscriber rec = subscribed(r);
      int id = ids.incrementAndGet();
      Position answer = commitAndAnswerLsn("INSERT INTO notes VALUES (" + id + ", 'seen')");
      awaitDelivered(r, answer);
      assertAll(
          () -> assertTrue(rec.list("all").stream().anyMatch(x -> x.key().equals(Integer.toString(id))),
              "the patch was queued before the position passed the write"),
          () -> assertTrue(r.settledThrough(answer), "settled through the answer too"));
    }
  }

  @Test
  void aWriteToAnUnpublishedTableIsDeliveredThroughItsAnswerLsn() throws Exception {
    try (LiveQueryRegistry r = registry()) {
      RecordingSubscriber rec = subscribed(r);
      int patches = rec.stream("all").patches;
      Position answer = commitAndAnswerLsn("INSERT INTO scratch DEFAULT VALUES");
      awaitDelivered(r, answer);
      assertAll(
          () -> assertEquals(patches, rec.stream("all").patches, "nothing this subscriber sees changed"),
          () -> assertTrue(answer.toString().endsWith("00000000")));
    }
  }

  @Test
  void theDeliveredPositionNeverGoesBackAndHeartbeatsAreNeitherGapsNorReads() throws Exception {
    try (LiveQueryRegistry r = registry()) {
      RecordingSubscriber rec = subscribed(r);
      LiveStats before = r.stats();
      long reads = r.windowReads();
      List<String> backwards = new CopyOnWriteArrayList<>();
      AtomicBoolean sampling = new AtomicBoolean(true);
      Thread sampler = Thread.ofPlatform().name("delivered-sampler").start(() -> {
        Position last = Position.ZERO;
        while (sampling.get()) {
          Position now = r.deliveredPosition();
          if (now.compareTo(last) < 0) {
            backwards.add(last + " -> " + now);
          }
          last = now;
          Thread.onSpinWait();
        }
      });
      Position answer = Position.ZERO;
      try {
        for (int i = 0; i < 30; i++) {
          answer = i % 3 == 0
              ? commitAndAnswerLsn("INSERT INTO notes VALUES (" + ids.incrementAndGet() + ", 'mixed')")
              : commitAndAnswerLsn("INSERT INTO scratch DEFAULT VALUES");
        }
        awaitDelivered(r, answer);
      } finally {
        sampling.set(false);
        sampler.join();
      }
      LiveStats after = r.stats();
      assertAll(
          () -> assertTrue(backwards.isEmpty(), "went backwards: " + backwards),
          () -> assertEquals(before.gaps(), after.gaps(), "no heartbeat was a hole in the sequence"),
          () -> assertEquals(before.rereads(), after.rereads()),
          () -> assertEquals(reads, r.windowReads(), "and none caused a read"),
          () -> assertEquals(1, rec.stream("all").snapshots),
          () -> assertEquals(10, after.deliveries() - before.deliveries(), "one delivery per published write"));
    }
  }

  @Test
  void aMalformedHeartbeatIsDroppedWithAWarningAndTheNodeKeepsGoing() throws Exception {
    List<LogRecord> warnings = new CopyOnWriteArrayList<>();
    Handler handler = new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
          warnings.add(record);
        }
      }

      @Override
      public void flush() {
      }

      @Override
      public void close() {
      }
    };
    Logger log = Logger.getLogger(ChangeDispatcher.class.getName());
    log.addHandler(handler);
    try (LiveQueryRegistry r = registry()) {
      subscribed(r);
      awaitDelivered(r, commitAndAnswerLsn("INSERT INTO scratch DEFAULT VALUES"));
      fixture.bus.publish(Subjects.POSITION, ("{\"v\":1,\"kind\":\"position\",\"lsn\":\"ffffffffffffffff00000001\","
          + "\"producer\":\"forged\",\"seq\":1}").getBytes(StandardCharsets.UTF_8));
      fixture.bus.publish(Subjects.POSITION, "{\"v\":1,\"kind\":\"position\"".getBytes(StandardCharsets.UTF_8));
      Position answer = commitAndAnswerLsn("INSERT INTO scratch DEFAULT VALUES");
      awaitDelivered(r, answer);
      assertAll(
          () -> assertEquals(2, warnings.stream().filter(w -> w.getMessage().contains("undecodable")).count(),
              "each was logged: " + warnings.stream().map(LogRecord::getMessage).toList()),
          () -> assertFalse(r.deliveredPosition().toString().startsWith("ffffffff"),
              "the forged position was not taken"),
          () -> assertEquals(0, r.stats().gaps(), "nor counted in any sequence"));
    } finally {
      log.removeHandler(handler);
    }
  }

  @Test
  void aHeartbeatWaitsBehindATransactionStillBeingHandledAndNeverLowersThePosition() {
    DeliveredPosition d = new DeliveredPosition();
    Position row = Position.parse("00000000000001a000000002");
    Position point = Position.parse("00000000000001b000000000");
    d.dispatched(row, 1, 0);
    d.passed(point, 0);
    Position waiting = d.position();
    d.passed(Position.parse("00000000000001c000000000"), 0);
    d.done(row);
    Position through = d.position();
    d.passed(point, 0);
    d.dispatched(Position.parse("00000000000001a000000009"), 0, 0);
    assertAll(
        () -> assertEquals(Position.ZERO, waiting, "a window still handles the transaction before the heartbeat"),
        () -> assertEquals(Position.parse("00000000000001c000000000"), through, "then the latest heartbeat, at once"),
        () -> assertEquals(Position.parse("00000000000001c000000000"), d.position(),
            "an older position or row never lowers it"),
        () -> assertTrue(point.compareTo(Position.parse("00000000000001b000000001")) < 0,
            "a point sorts before its commit's rows"));
  }

  @Test
  void windowsFinishingOutOfOrderAndARedeliveryHoldThePositionUntilAllAreHandled() {
    DeliveredPosition d = new DeliveredPosition();
    Position a = Position.parse("00000000000002a000000003");
    Position b = Position.parse("00000000000002b000000001");
    d.dispatched(a, 2, 0);
    d.dispatched(b, 1, 0);
    d.dispatched(a, 1, 0);
    d.done(b);
    Position afterB = d.position();
    d.done(a);
    d.done(a);
    Position afterTwoOfA = d.position();
    d.done(a);
    assertAll(
        () -> assertEquals(Position.ZERO, afterB, "b is handled, but a, before it, is not"),
        () -> assertEquals(Position.ZERO, afterTwoOfA,
            "a was handed out again: its first entry waits for all three windows"),
        () -> assertEquals(b, d.position(), "then both, at once"));
  }
}
