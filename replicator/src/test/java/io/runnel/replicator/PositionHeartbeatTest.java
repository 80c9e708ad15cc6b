package io.runnel.replicator;

import static io.runnel.replicator.Changes.key;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.EntityRef;
import io.runnel.dsl.server.Entity;
import io.runnel.protocol.Lsn;
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
 * changes; and PostgreSQL's time through which it holds every change, which keeps moving while the database is idle.
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
        () -> assertTrue(reached.point().toString().endsWith("00000000"), "a point, not a row"));
  }

  @Test
  void aPublishedTransactionIsFollowedByAPositionAtOrPastItsAnswerLsnAfterItsChanges() throws Exception {
    int id = ++nextId;
    Lsn answer = commitAndAnswerLsn("INSERT INTO notes VALUES (" + id + ", 'seen')");
    ChangeEvent change = h.next();
    PositionEvent reached = awaitPositionReaching(answer).getLast();
    assertAll(
        () -> assertEquals(Integer.toString(id), key(change)),
        () -> assertTrue(change.lsn().lsn().compareTo(reached.through()) < 0,
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
    long lastAt = 0;
    for (int i = 0; i < stream.size(); i++) {
      BusMessage m = stream.get(i);
      if (i > 0 && (m.seq() != stream.get(i - 1).seq() + 1 || !m.producer().equals(stream.get(i - 1).producer()))) {
        problems.add("seq " + stream.get(i - 1).seq() + " then " + m.seq());
      }
      switch (m) {
        case PositionEvent p -> {
          int order = p.through().compareTo(highestPosition);
          if (order < 0 || (order == 0 && p.at() <= lastAt)) {
            problems.add("position " + p.point() + " at " + p.at() + " moved neither past " + highestPosition.point()
                + " nor past its time " + lastAt);
          }
          highestPosition = p.through();
          lastAt = Math.max(lastAt, p.at());
        }
        case ChangeEvent c -> {
          if (c.lsn().lsn().compareTo(highestPosition) < 0) {
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

  /** PostgreSQL's clock now, epoch ms. */
  private long serverMillis() throws SQLException {
    try (Connection c = db.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::int8")) {
      r.next();
      return r.getLong(1);
    }
  }

  @Test
  void anIdleDatabaseHearsAHeartbeatAboutEverySecondWhoseTimeFollowsPostgresClock() throws Exception {
    Lsn answer = commitAndAnswerLsn("INSERT INTO scratch (v) VALUES ('then quiet')");
    awaitPositionReaching(answer);
    h.positions.clear();
    long deadline = System.nanoTime() + SETTLE.toNanos();
    List<PositionEvent> idle = new ArrayList<>();
    while (idle.size() < 3) {
      PositionEvent p = h.positions.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (p == null) {
        throw new AssertionError("an idle stream sent " + idle.size() + " heartbeats in " + SETTLE + ": " + idle);
      }
      idle.add(p);
    }
    long now = serverMillis();
    assertAll(
        () -> assertTrue(idle.get(0).at() < idle.get(1).at() && idle.get(1).at() < idle.get(2).at(),
            "each later than the last: " + idle),
        () -> assertTrue(idle.get(2).at() - idle.get(0).at() >= 1_000, "about one a second, not more: " + idle),
        () -> assertTrue(idle.get(2).at() <= now && idle.get(2).at() > now - 5_000,
            "the time is PostgreSQL's clock, recent: " + idle.get(2).at() + " vs " + now),
        () -> assertTrue(idle.stream().allMatch(p -> p.through().compareTo(answer) >= 0), idle.toString()));
  }

  @Test
  void aHeartbeatTimedAfterACommitIsAtOrPastItsAnswerLsn() throws Exception {
    h.positions.clear();
    Lsn answer = commitAndAnswerLsn("INSERT INTO notes VALUES (" + (++nextId) + ", 'timed')");
    long committed = serverMillis();
    long deadline = System.nanoTime() + SETTLE.toNanos();
    PositionEvent p;
    do {
      p = h.positions.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (p == null) {
        throw new AssertionError("no heartbeat timed at or after " + committed);
      }
      assertTrue(p.at() < committed || p.through().compareTo(answer) >= 0,
          "a heartbeat at " + p.at() + " (after the commit at " + committed + ") holds every change before it, so "
              + "its position " + p.point() + " is at or past the answer " + answer.point());
    } while (p.at() < committed);
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
