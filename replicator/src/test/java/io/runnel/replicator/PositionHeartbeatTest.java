package io.runnel.replicator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.EntityRef;
import io.runnel.dsl.server.Entity;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The position heartbeat on real WAL: once the stream is idle, the bus hears how far the WAL was read, past a write's
 * answer LSN ({@code pg_current_wal_insert_lsn()} right after its COMMIT), in the same gapless sequence as the
 * changes.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PositionHeartbeatTest {

  static final EntityRef NOTES = EntityRef.of("notes").key("id").columns(c -> c.int4("id").text("body"));
  /** A write's client waits at most this long for the position past its answer. */
  static final Duration SETTLE = Duration.ofSeconds(10);

  TestDatabase db;
  Harness h;
  int nextId;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    this.db = db;
    db.execute("""
        CREATE TABLE notes (id int PRIMARY KEY, body text);
        CREATE TABLE scratch (id serial PRIMARY KEY, v text);
        """);
    h = Harness.start(db, "heartbeat", List.of(Entity.of(NOTES))).awaitStreaming();
  }

  @AfterAll
  void stop() {
    h.close();
  }

  /** Runs {@code sql} in one transaction; returns {@code pg_current_wal_insert_lsn()} read right after its COMMIT. */
  private Lsn commitAndAnswerLsn(String sql) throws SQLException {
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      s.execute(sql);
      c.commit();
      c.setAutoCommit(true);
      try (ResultSet r = s.executeQuery("SELECT pg_current_wal_insert_lsn()::text")) {
        r.next();
        return Lsn.parse(r.getString(1));
      }
    }
  }

  /** Takes heartbeats off the bus until one reaches {@code answer}; returns every one taken, that one last. */
  private List<PositionEvent> awaitPositionReaching(Lsn answer) throws InterruptedException {
    List<PositionEvent> taken = new ArrayList<>();
    long deadline = System.nanoTime() + SETTLE.toNanos();
    while (taken.isEmpty() || taken.getLast().through().compareTo(answer) < 0) {
      PositionEvent p = h.positions.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (p == null) {
        throw new AssertionError("no position reached " + answer + " within " + SETTLE + "; last: "
            + (taken.isEmpty() ? "none" : taken.getLast()) + "; replicator: " + h.replicator.stats());
      }
      taken.add(p);
    }
    return taken;
  }

  @Test
  void aTransactionOnAnUnpublishedTableIsFollowedByAPositionAtOrPastItsAnswerLsn() throws Exception {
    Lsn answer = commitAndAnswerLsn("INSERT INTO scratch (v) VALUES ('nobody subscribes to this')");
    PositionEvent reached = awaitPositionReaching(answer).getLast();
    assertAll(
        () -> assertTrue(reached.point().compareTo(answer.point()) >= 0, reached.point() + " >= " + answer.point()),
        () -> assertTrue(reached.point().endsWith("00000000"), "a point, not a row"));
  }

  @Test
  void aPublishedTransactionIsFollowedByAPositionAtOrPastItsAnswerLsnAfterItsChanges() throws Exception {
    int id = ++nextId;
    Lsn answer = commitAndAnswerLsn("INSERT INTO notes VALUES (" + id + ", 'seen')");
    ChangeEvent change = h.next();
    PositionEvent reached = awaitPositionReaching(answer).getLast();
    assertAll(
        () -> assertEquals(Integer.toString(id), change.key()),
        () -> assertTrue(Lsn.ofPosition(change.lsn()).compareTo(reached.through()) < 0,
            "the change's commit " + change.lsn() + " is below the position " + reached.point()),
        () -> assertTrue(h.messages.indexOf(change) < h.messages.indexOf(reached), "the change went first"));
  }

  @Test
  void changesAndPositionsShareOneGaplessSequenceAndNoChangeBelowAPositionFollowsIt() throws Exception {
    Lsn last = null;
    for (int i = 0; i < 40; i++) {
      last = i % 3 == 0
          ? commitAndAnswerLsn("INSERT INTO notes VALUES (" + (++nextId) + ", 'mixed')")
          : commitAndAnswerLsn("INSERT INTO scratch (v) VALUES ('mixed')");
    }
    awaitPositionReaching(last);
    List<BusMessage> stream = List.copyOf(h.messages);
    List<String> problems = new ArrayList<>();
    Lsn highestPosition = Lsn.ZERO;
    for (int i = 0; i < stream.size(); i++) {
      BusMessage m = stream.get(i);
      if (i > 0 && (m.seq() != stream.get(i - 1).seq() + 1 || !m.producer().equals(stream.get(i - 1).producer()))) {
        problems.add("seq " + stream.get(i - 1).seq() + " then " + m.seq());
      }
      switch (m) {
        case PositionEvent p -> {
          if (p.through().compareTo(highestPosition) <= 0) {
            problems.add("position " + p.point() + " did not advance past " + highestPosition.point());
          }
          highestPosition = p.through();
        }
        case ChangeEvent c -> {
          if (Lsn.ofPosition(c.lsn()).compareTo(highestPosition) < 0) {
            problems.add("change " + c.lsn() + " came after position " + highestPosition.point());
          }
        }
      }
    }
    assertAll(
        () -> assertTrue(problems.isEmpty(), String.join("; ", problems)),
        () -> assertTrue(stream.stream().filter(PositionEvent.class::isInstance).count() >= 1),
        () -> assertTrue(stream.stream().filter(ChangeEvent.class::isInstance).count() >= 14));
  }

  @Test
  void heartbeatsAreAtMostOneEveryTenMillisecondsHoweverFastTheWalMoves() throws Exception {
    h.positions.clear();
    long started = System.nanoTime();
    Lsn last = null;
    for (int i = 0; i < 200; i++) {
      last = commitAndAnswerLsn("INSERT INTO scratch (v) VALUES ('fast')");
    }
    List<PositionEvent> taken = awaitPositionReaching(last);
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    // Two more than the time allows: one published just before the clear, and the first of the window.
    assertTrue(taken.size() <= elapsedMillis / 10 + 2,
        taken.size() + " heartbeats in " + elapsedMillis + " ms for 200 commits");
  }
}
