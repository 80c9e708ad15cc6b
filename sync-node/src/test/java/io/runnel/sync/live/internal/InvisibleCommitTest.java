package io.runnel.sync.live.internal;

import static io.runnel.dsl.Dsl.eq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.Actor;
import io.runnel.dsl.Select;
import io.runnel.dsl.server.Query;
import io.runnel.protocol.WireRecord;
import io.runnel.testing.EmbeddedPostgresServer;
import io.runnel.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A commit the WAL sender decoded before it became visible: PostgreSQL flushes a commit record (and a logical WAL
 * sender may decode and send it) before the committing backend makes the transaction visible to snapshots; with a
 * synchronous standby configured, the backend waits for it in between (PostgreSQL's documentation, "Synchronous
 * Replication": the commit is written locally first). A window that must refill while it receives such a
 * transaction reads without it, replays it over the read, and is left holding fewer rows than its limit while more
 * exist: that landing is not whole, and the window reads again until the commit shows.
 *
 * <p>The server-wide {@code synchronous_standby_names} names a standby that never connects for the span of the test
 * (set inside the {@code try} whose {@code finally} resets it): while it is set, every commit that writes waits, so
 * nothing else writes meanwhile; the one writing session waits until it is cancelled (its commit then stands,
 * locally).
 */
class InvisibleCommitTest {

  @Test
  void aRefillThatCannotSeeADecodedCommitReadsAgainUntilItShows() throws Exception {
    try (TestDatabase db = EmbeddedPostgresServer.shared().createDatabase("invisible_commit")) {
      db.execute("CREATE TABLE items (id int PRIMARY KEY, org text, status text, n int, title text, owner text, "
          + "big text)");
      db.execute("INSERT INTO items (id, org, status, n) SELECT g, 'x', 'open', g FROM generate_series(1, 4) g");
      try (LiveFixture fixture = new LiveFixture(db, "invisible_commit",
              List.of(LiveWindowDifferentialTest.ITEMS_ENTITY));
          LiveQueryRegistry registry = LiveQueryRegistry.builder()
              .declarations(LiveWindowDifferentialTest.DECLARATIONS).dataSource(fixture.pool).transport(fixture.bus)
              .extraRows(1).build()) {
        registry.start();
        RecordingSubscriber recorder = new RecordingSubscriber();
        LiveWindowDifferentialTest.Input input =
            new LiveWindowDifferentialTest.Input(null, null, null, "id", true, 2);
        Query<LiveWindowDifferentialTest.Input> query = LiveWindowDifferentialTest.QUERIES.getFirst();
        Actor actor = LiveWindowDifferentialTest.actor("x", 0);
        registry.subscribe(recorder, "s", actor, query.name(), LiveWindowDifferentialTest.Input.CODEC.encode(input));
        LiveFixture.await("the snapshot", () -> recorder.stream("s").snapshots == 1);
        assertEquals(List.of("4", "3"), keys(recorder.list("s")), "the window's first two rows, newest first");

        long readsBefore = registry.windowReads();
        try {
          waitForAStandbyThatNeverComes(db, true);
          CompletableFuture<Long> pid = new CompletableFuture<>();
          CompletableFuture<Long> xid = new CompletableFuture<>();
          CompletableFuture<Void> committed = CompletableFuture.runAsync(() -> {
            try (Connection c = db.connect(); Statement s = c.createStatement()) {
              c.setAutoCommit(false);
              try (ResultSet r = s.executeQuery("SELECT pg_backend_pid(), txid_current()")) {
                r.next();
                pid.complete(r.getLong(1));
                xid.complete(r.getLong(2) & 0xffffffffL);
              }
              // Both rows leave the window: it holds one row of its limit of two, and must refill.
              s.execute("UPDATE items SET org = 'y' WHERE id IN (3, 4)");
              c.commit();
            } catch (SQLException e) {
              throw new IllegalStateException(e);
            }
          });
          fixture.awaitTransaction(xid.get(10, TimeUnit.SECONDS));
          // The window applies it and refills: its first read lands without the commit (the backend still waits),
          // is not whole, and the window reads again (a second read begins once the first one landed).
          LiveFixture.await("a second read after the refill's first", () -> registry.windowReads() >= readsBefore + 2);
          assertTrue(registry.stats().refills() >= 1, "the window refilled: " + registry.stats());
          try (Connection c = db.connect(); Statement s = c.createStatement()) {
            s.execute("SELECT pg_cancel_backend(" + pid.get() + ")");
          }
          committed.get(10, TimeUnit.SECONDS);
        } finally {
          waitForAStandbyThatNeverComes(db, false);
        }
        LiveFixture.awaitSettled(registry, fixture.marker());
        Select window = query.select(input, actor).where(eq("org", "x"));
        List<WireRecord> expected = fixture.freshRead(LiveWindowDifferentialTest.ITEMS_ENTITY, window);
        assertEquals(List.of("2", "1"), keys(expected), "the database's rows");
        assertEquals(expected, recorder.list("s"), "the list equals the database once the commit shows; frames: "
            + recorder.stream("s").frames);
      }
    }
  }

  private static List<String> keys(List<WireRecord> records) {
    return records.stream().map(WireRecord::key).toList();
  }

  /** Sets (or resets) a synchronous standby that never connects, and waits until new sessions see it. */
  private static void waitForAStandbyThatNeverComes(TestDatabase db, boolean on)
      throws SQLException, InterruptedException {
    try (Connection c = db.connect(); Statement s = c.createStatement()) {
      if (on) {
        s.execute("ALTER SYSTEM SET synchronous_standby_names = 'runnel_standby_that_never_connects'");
      } else {
        s.execute("ALTER SYSTEM RESET synchronous_standby_names");
      }
      s.execute("SELECT pg_reload_conf()");
    }
    // The reload reaches other backends asynchronously; a new session reads the settings once they took.
    String standby = on ? "runnel_standby_that_never_connects" : "";
    LiveFixture.await("the server reloaded its settings", () -> {
      try (Connection c = db.connect(); Statement s = c.createStatement();
          ResultSet r = s.executeQuery("SHOW synchronous_standby_names")) {
        r.next();
        return r.getString(1).equals(standby);
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    });
  }
}
