package io.runnel.sync.live.internal;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.eq;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.runnel.dsl.EntityRef;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.Select;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.protocol.Position;
import io.runnel.protocol.WireRecord;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonObject;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Invariant 3b, the read joins the stream: a transaction whose commit record is in the WAL before the read's
 * position but which is not yet visible to the read's snapshot is applied exactly once; and the plain orders.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SnapshotRaceTest {

  static final EntityRef ROWS = EntityRef.of("race_rows").key("id").columns(c -> c.int4("id").text("grp"));
  static final Entity ENTITY = Entity.of(ROWS).table("public.race_rows");
  record In(String grp) {
    static final JsonCodec<In> CODEC = JsonCodec.object(r -> new In(r.text("grp")),
        (in, w) -> w.put("grp", in.grp()));
  }
  static final QueryRef<In> BY_GROUP = QueryRef.live("byGroup", In.CODEC,
      in -> select(ROWS).where(eq("grp", in.grp())).orderBy(asc("id")));
  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(BY_GROUP).on(ENTITY).policy(Policy.allowPublic())).build();

  TestDatabase db;
  LiveFixture fixture;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    this.db = db;
    db.execute("CREATE TABLE race_rows (id int PRIMARY KEY, grp text)");
    fixture = new LiveFixture(db, "race", List.of(ENTITY));
  }

  @AfterAll
  void stop() {
    fixture.close();
  }

  private LiveQueryRegistry registry() {
    return fixture.registry(DECLARATIONS);
  }

  private void assertListEqualsFreshRead(RecordingSubscriber rec, String grp) throws Exception {
    Select window = BY_GROUP.select(new In(grp), LiveFixture.actor("x"));
    List<WireRecord> expected = fixture.freshRead(ENTITY, window);
    RecordingSubscriber.Stream s = rec.stream(grp);
    assertAll(
        () -> assertNull(s.error, "frames well formed: " + s.frames),
        () -> assertEquals(expected, rec.list(grp), "frames: " + s.frames));
  }

  @Test
  void aCommitDecodedButNotYetVisibleToTheReadIsAppliedExactlyOnce() throws Exception {
    try (LiveQueryRegistry registry = registry()) {
      RecordingSubscriber rec = new RecordingSubscriber();
      fixture.commit("INSERT INTO race_rows VALUES (1, 'race')");
      CompletableFuture<Void> blocked;
      int pid;
      long xid;
      try (Connection admin = db.connect(); Statement s = admin.createStatement()) {
        s.execute("ALTER SYSTEM SET synchronous_standby_names = 'ghost'");
        s.execute("SELECT pg_reload_conf()");
        Connection writer = db.connect();
        try (Statement w = writer.createStatement(); ResultSet r = w.executeQuery("SELECT pg_backend_pid()")) {
          r.next();
          pid = r.getInt(1);
        }
        writer.setAutoCommit(false);
        try (Statement w = writer.createStatement(); ResultSet r = w.executeQuery("SELECT txid_current()")) {
          r.next();
          xid = r.getLong(1) & 0xffffffffL;
        }
        try (Statement w = writer.createStatement()) {
          w.execute("INSERT INTO race_rows VALUES (2, 'race')");
        }
        // The commit record is flushed and decoded at once; the commit itself waits for the ghost standby.
        blocked = CompletableFuture.runAsync(() -> {
          try (writer) {
            writer.commit();
          } catch (SQLException e) {
            // Cancelling the wait ends it with a warning or an error; the commit is durable either way.
          }
        });
        try {
          Position lsn = fixture.awaitTransaction(xid);
          LiveFixture.awaitSettled(registry, lsn);
          try (ResultSet r = s.executeQuery("SELECT count(*) FROM race_rows WHERE id = 2")) {
            r.next();
            assertEquals(0, r.getInt(1), "the transaction is decoded but not yet visible");
          }
          registry.subscribe(rec, "race", LiveFixture.actor("x"), "byGroup",
              JsonObject.builder().put("grp", "race").build());
          LiveFixture.await("the snapshot", () -> rec.stream("race").snapshots == 1);
        } finally {
          s.execute("SELECT pg_cancel_backend(" + pid + ")");
          blocked.get(30, TimeUnit.SECONDS);
          s.execute("ALTER SYSTEM RESET synchronous_standby_names");
          s.execute("SELECT pg_reload_conf()");
        }
      }
      LiveFixture.awaitSettled(registry, fixture.marker());
      assertListEqualsFreshRead(rec, "race");
      assertEquals(List.of("1", "2"), rec.list("race").stream().map(WireRecord::key).toList(), "row 2 once");
    }
  }

  @Test
  void aCommitBeforeTheReadIsInTheSnapshotAndOneAfterItArrivesAsAPatch() throws Exception {
    try (LiveQueryRegistry registry = registry()) {
      RecordingSubscriber rec = new RecordingSubscriber();
      fixture.commit("INSERT INTO race_rows VALUES (10, 'plain')");
      registry.subscribe(rec, "plain", LiveFixture.actor("x"), "byGroup",
          JsonObject.builder().put("grp", "plain").build());
      LiveFixture.await("the snapshot", () -> rec.stream("plain").snapshots == 1);
      assertEquals(List.of("10"), rec.list("plain").stream().map(WireRecord::key).toList());
      LiveFixture.awaitSettled(registry, fixture.commit("INSERT INTO race_rows VALUES (11, 'plain')"));
      assertListEqualsFreshRead(rec, "plain");
      assertEquals(1, rec.stream("plain").patches, "the later commit came as one patch");
    }
  }

}
