package io.runnel.sync.live.internal;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.Transport;
import io.runnel.bus.TransportMessage;
import io.runnel.dsl.Actor;
import io.runnel.dsl.ColumnType;
import io.runnel.dsl.Dsl;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.protocol.Cursor;
import io.runnel.protocol.Position;
import io.runnel.protocol.ResumeCursor;
import io.runnel.protocol.WireRecord;
import io.runnel.replicator.ChangeEnvelope;
import io.runnel.replicator.ChangeEvent;
import io.runnel.sync.live.LiveStats;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Policy isolation, resume from cursors, and bus gaps and duplicates. */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PolicyResumeGapTest {

  static final EntityRef DOCS = EntityRef.of("docs").key("id")
      .columns(c -> c.text("id").text("org").text("owner").int4("rank"));
  static final Entity DOCS_ENTITY = Entity.of(DOCS).table("public.docs").tenant("org");
  static final QueryRef<NoInput> MY_DOCS = QueryRef.live("myDocs", NoInput.CODEC,
      in -> select(DOCS).orderBy(asc("rank")));
  static final QueryRef<NoInput> FRAGILE = QueryRef.live("fragile", NoInput.CODEC,
      in -> select(DOCS).orderBy(asc("rank")));
  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(MY_DOCS).on(DOCS_ENTITY)
          .policy(Policy.authenticated().visible((actor, row) -> actor.id().equals(row.get("owner")))))
      .query(Query.of(FRAGILE).on(DOCS_ENTITY).policy(Policy.authenticated().visible((actor, row) -> {
        if ((Integer) row.get("rank") < 0) {
          throw new IllegalStateException("this rule cannot judge negative ranks");
        }
        return true;
      })))
      .build();

  static final Actor ADA = Actor.user("ada").inOrg("acme");
  static final Actor GLOBEX = Actor.user("ada").inOrg("globex");

  TestDatabase db;
  LiveFixture fixture;
  final AtomicInteger ids = new AtomicInteger();

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    this.db = db;
    db.execute("CREATE TABLE docs (id text PRIMARY KEY, org text, owner text, rank int)");
    fixture = new LiveFixture(db, "policy", List.of(DOCS_ENTITY));
  }

  @AfterAll
  void stop() {
    fixture.close();
  }

  private LiveQueryRegistry registry(Transport transport, long ringBytes) {
    LiveQueryRegistry r = LiveQueryRegistry.builder().declarations(DECLARATIONS).dataSource(fixture.pool)
        .transport(transport).ringBytes(ringBytes).grace(Duration.ofMinutes(5)).build();
    r.start();
    return r;
  }

  /** A fresh id prefix per test, so tests do not see each other's rows. */
  private String prefix() {
    return "t" + ids.incrementAndGet() + "-";
  }

  private List<WireRecord> expected(Actor actor) throws Exception {
    List<WireRecord> out = new ArrayList<>();
    for (WireRecord r : fixture.freshRead(DOCS_ENTITY,
        MY_DOCS.select(NoInput.INSTANCE, actor).where(Dsl.eq("org", actor.orgId())))) {
      if (actor.id().equals(DOCS.rowFromJson(r.row(), "row").get("owner"))) {
        out.add(r);
      }
    }
    return out;
  }

  private static void subscribeAndWait(LiveQueryRegistry r, RecordingSubscriber rec, String sid, Actor actor,
      ResumeCursor cursor) throws InterruptedException {
    r.subscribe(rec, sid, actor, "myDocs", JsonObject.EMPTY, cursor);
    LiveFixture.await(sid + " answered", () -> rec.stream(sid).snapshots + rec.stream(sid).patches > 0);
  }

  @Test
  void noFrameCarriesAKeyRowOrAfterOfARowTheSubscriberMayNotSeeDeletesIncluded() throws Exception {
    String p = prefix();
    try (LiveQueryRegistry r = registry(fixture.bus, 64L << 20)) {
      RecordingSubscriber rec = new RecordingSubscriber();
      subscribeAndWait(r, rec, "ada", ADA, null);
      LiveFixture.awaitSettled(r, fixture.commit("INSERT INTO docs VALUES ('" + p + "ada1', 'acme', 'ada', 2),"
          + "('" + p + "bob1', 'acme', 'bob', 3), ('" + p + "glx1', 'globex', 'ada', 1)"));
      LiveFixture.awaitSettled(r, fixture.commit("INSERT INTO docs VALUES ('" + p + "ada2', 'acme', 'ada', 4)"));
      int before = rec.stream("ada").patches;
      LiveFixture.awaitSettled(r, fixture.commit("UPDATE docs SET rank = 9 WHERE id = '" + p + "bob1'"));
      LiveFixture.awaitSettled(r, fixture.commit("DELETE FROM docs WHERE id = '" + p + "bob1'"));
      LiveFixture.awaitSettled(r, fixture.commit("INSERT INTO docs VALUES ('" + p + "bob2', 'acme', 'bob', 0)"));
      int quiet = rec.stream("ada").patches - before;
      LiveFixture.awaitSettled(r, fixture.commit("UPDATE docs SET owner = 'bob' WHERE id = '" + p + "ada1'"));
      RecordingSubscriber.Stream s = rec.stream("ada");
      String frames = String.join("\n", s.frames);
      assertAll(
          () -> assertEquals(0, quiet, "changes to bob's rows sent ada nothing, not even an empty patch"),
          () -> assertFalse(frames.contains(p + "bob"), "no frame names bob's rows: " + frames),
          () -> assertFalse(frames.contains(p + "glx"), "no frame names another tenant's row: " + frames),
          () -> assertTrue(frames.contains("Place[record=WireRecord[type=docs, key=" + p + "ada2") && frames.contains(
              "after=" + p + "ada1"), "ada2 goes after ada1, her nearest visible predecessor: " + frames),
          () -> assertTrue(frames.contains("Del[type=docs, key=" + p + "ada1]"), "a row leaving her rule is a del"),
          () -> assertNull(s.error, frames),
          () -> assertEquals(expected(ADA), rec.list("ada")));
    }
  }

  @Test
  void aCursorInsideTheRingResumesAsADeltaWithNoReadIncludingARowThatLeftTheRule() throws Exception {
    String p = prefix();
    try (LiveQueryRegistry r = registry(fixture.bus, 64L << 20)) {
      RecordingSubscriber rec = new RecordingSubscriber();
      LiveSubscription sub = r.subscribe(rec, "first", ADA, "myDocs", JsonObject.EMPTY);
      LiveFixture.await("snapshot", () -> rec.stream("first").snapshots == 1);
      LiveFixture.awaitSettled(r, fixture.commit("INSERT INTO docs VALUES ('" + p + "a', 'acme', 'ada', 1), ('" + p
          + "b', 'acme', 'ada', 2)"));
      List<WireRecord> held = rec.list("first");
      Cursor cursor = rec.stream("first").cursor;
      sub.close();
      LiveFixture.awaitSettled(r, fixture.commit("UPDATE docs SET owner = 'bob' WHERE id = '" + p + "a'"));
      LiveFixture.awaitSettled(r, fixture.commit("INSERT INTO docs VALUES ('" + p + "c', 'acme', 'ada', 0)"));
      LiveStats before = r.stats();
      rec.holding("again", held);
      subscribeAndWait(r, rec, "again", ADA, new ResumeCursor(cursor.qid(), cursor.lsn(), cursor.at(),
          held.stream().map(WireRecord::key).toList()));
      LiveFixture.awaitSettled(r, fixture.marker());
      LiveStats after = r.stats();
      assertAll(
          () -> assertEquals(before.reads(), after.reads(), "zero window reads"),
          () -> assertEquals(before.resumesDelta() + 1, after.resumesDelta()),
          () -> assertEquals(0, rec.stream("again").snapshots, "patches only"),
          () -> assertNull(rec.stream("again").error, String.join("\n", rec.stream("again").frames)),
          () -> assertEquals(expected(ADA), rec.list("again"), "a left her rule while she was away"));
    }
  }

  @Test
  void aResumeWithNothingToReplayAnswersOneEmptyPatch() throws Exception {
    try (LiveQueryRegistry r = registry(fixture.bus, 64L << 20)) {
      RecordingSubscriber rec = new RecordingSubscriber();
      r.subscribe(rec, "first", ADA, "myDocs", JsonObject.EMPTY);
      LiveFixture.await("snapshot", () -> rec.stream("first").snapshots == 1);
      Cursor c = rec.stream("first").cursor;
      List<WireRecord> held = rec.list("first");
      rec.holding("again", held);
      subscribeAndWait(r, rec, "again", ADA, new ResumeCursor(c.qid(), c.lsn(), c.at(),
          held.stream().map(WireRecord::key).toList()));
      assertAll(
          () -> assertEquals(1, rec.stream("again").patches),
          () -> assertEquals("patch [] @" + c.lsn(), rec.stream("again").frames.get(0)),
          () -> assertEquals(held, rec.list("again")));
    }
  }

  @Test
  void aCursorBelowTheFloorFromAnotherTenantOrTooOldGetsOneCorrectSnapshot() throws Exception {
    String p = prefix();
    try (LiveQueryRegistry r = registry(fixture.bus, 1)) {
      RecordingSubscriber rec = new RecordingSubscriber();
      r.subscribe(rec, "first", ADA, "myDocs", JsonObject.EMPTY);
      LiveFixture.await("snapshot", () -> rec.stream("first").snapshots == 1);
      Cursor old = rec.stream("first").cursor;
      LiveFixture.awaitSettled(r, fixture.commit("INSERT INTO docs VALUES ('" + p + "a', 'acme', 'ada', 1)"));
      LiveFixture.awaitSettled(r, fixture.commit("INSERT INTO docs VALUES ('" + p + "b', 'acme', 'ada', 2)"));
      Cursor recent = rec.stream("first").cursor;
      subscribeAndWait(r, rec, "below", ADA, new ResumeCursor(old.qid(), old.lsn(), old.at(), List.of()));
      subscribeAndWait(r, rec, "tenant", GLOBEX, new ResumeCursor(recent.qid(), recent.lsn(), recent.at(), List.of()));
      subscribeAndWait(r, rec, "old", ADA, new ResumeCursor(recent.qid(), recent.lsn(),
          recent.at() - Duration.ofMinutes(11).toMillis(), List.of()));
      assertAll(
          () -> assertEquals(1, rec.stream("below").snapshots, "the 1-byte ring evicted everything"),
          () -> assertEquals(expected(ADA), rec.list("below")),
          () -> assertEquals(1, rec.stream("tenant").snapshots, "another tenant's cursor"),
          () -> assertEquals(expected(GLOBEX), rec.list("tenant")),
          () -> assertEquals(1, rec.stream("old").snapshots, "older than maxLag"),
          () -> assertEquals(3, r.stats().resumesSnapshot()));
    }
  }

  @Test
  void aRuleThatThrowsIsAGateFailureCountedAndReSnapshottedNeverGrantingTheRow() throws Exception {
    String p = prefix();
    Actor zed = Actor.user("zed").inOrg("zeta");
    try (LiveQueryRegistry r = registry(fixture.bus, 64L << 20)) {
      RecordingSubscriber rec = new RecordingSubscriber();
      LiveFixture.awaitSettled(r, fixture.commit("INSERT INTO docs VALUES ('" + p + "ok', 'zeta', 'x', 1)"));
      r.subscribe(rec, "zed", zed, "fragile", JsonObject.EMPTY);
      LiveFixture.await("snapshot", () -> rec.stream("zed").snapshots == 1);
      long failures = r.stats().gateFailures();
      LiveFixture.awaitSettled(r, fixture.commit("INSERT INTO docs VALUES ('" + p + "bad', 'zeta', 'x', -1)"));
      LiveFixture.await("a re-snapshot", () -> rec.stream("zed").snapshots >= 2);
      assertAll(
          () -> assertTrue(r.stats().gateFailures() > failures, "counted"),
          () -> assertEquals(List.of(p + "ok"), rec.list("zed").stream().map(WireRecord::key).toList(),
              "the undecidable row is withheld, not granted"),
          () -> assertNull(rec.stream("zed").error));
    }
  }

  /**
   * Found by the hostile-input storm: a rule that throws logged a trace per subscriber and commit, so one client's
   * subscriptions to such a query could flood the node's log; and it logged the sid, text the client chose.
   */
  @Test
  void aRuleThatThrowsIsLoggedOncePerWindowHoweverManySubscribersAndCommitsAndNeverWithTheSid() throws Exception {
    String p = prefix();
    Actor yan = Actor.user("yan").inOrg("ypsilon");
    List<LogRecord> logged = new CopyOnWriteArrayList<>();
    Logger log = Logger.getLogger(WindowSubscribers.class.getName());
    Handler handler = new Handler() {
      @Override
      public void publish(LogRecord record) {
        logged.add(record);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    log.addHandler(handler);
    try (LiveQueryRegistry r = registry(fixture.bus, 64L << 20)) {
      RecordingSubscriber rec = new RecordingSubscriber();
      LiveFixture.awaitSettled(r, fixture.commit("INSERT INTO docs VALUES ('" + p + "ok', 'ypsilon', 'x', 1)"));
      for (int i = 0; i < 5; i++) {
        r.subscribe(rec, "sid-\n-" + i, yan, "fragile", JsonObject.EMPTY);
      }
      LiveFixture.await("five snapshots", () -> IntStream.range(0, 5)
          .allMatch(i -> rec.stream("sid-\n-" + i).snapshots == 1));
      long failures = r.stats().gateFailures();
      for (int i = 0; i < 3; i++) {
        LiveFixture.awaitSettled(r, fixture.commit("INSERT INTO docs VALUES ('" + p + "bad" + i
            + "', 'ypsilon', 'x', -1)"));
      }
      assertAll(
          () -> assertEquals(1, logged.size(), "one warning for the window, not one per subscriber and commit"),
          () -> assertTrue(logged.stream().noneMatch(l -> l.getMessage().contains("sid-")), "the sid is not logged"),
          () -> assertTrue(r.stats().gateFailures() - failures >= 15, "every failure is counted: "
              + (r.stats().gateFailures() - failures)));
    } finally {
      log.removeHandler(handler);
    }
  }

  @Test
  void theDeliveredPositionReachesEveryTransactionTheWindowsHandled() throws Exception {
    try (LiveQueryRegistry r = registry(fixture.bus, 64L << 20)) {
      RecordingSubscriber rec = new RecordingSubscriber();
      subscribeAndWait(r, rec, "ada", ADA, null);
      Position lsn = fixture.commit("INSERT INTO docs VALUES ('" + prefix() + "d', 'acme', 'ada', 5)");
      LiveFixture.awaitSettled(r, lsn);
      assertTrue(r.deliveredPosition().compareTo(lsn) >= 0, r.deliveredPosition() + " reaches " + lsn);
    }
  }

  @Test
  void aSeqHoleReSnapshotsEverySubscriberCorrectlyWithNoFurtherChange() throws Exception {
    String p = prefix();
    LossyTransport lossy = new LossyTransport(fixture.bus, "docs");
    try (LiveQueryRegistry r = registry(lossy, 64L << 20)) {
      RecordingSubscriber rec = new RecordingSubscriber();
      subscribeAndWait(r, rec, "ada", ADA, null);
      // The node has read the producer's stream before (a sequence check starts at the first message it sees).
      LiveFixture.awaitSettled(r, fixture.marker());
      lossy.loseNext = true;
      Position lsn = fixture.commit("INSERT INTO docs VALUES ('" + p + "lost', 'acme', 'ada', 1), ('" + p
          + "kept', 'acme', 'ada', 2)");
      try {
        LiveFixture.await("a gap was seen and the window re-read", () -> r.stats().gaps() >= 1
            && rec.stream("ada").snapshots >= 2 && r.settledThrough(lsn));
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + ": " + r.stats() + " frames " + rec.stream("ada").frames, e);
      }
      assertEquals(expected(ADA), rec.list("ada"), "the lost row arrived by the re-read");
      assertTrue(rec.list("ada").stream().anyMatch(x -> x.key().equals(p + "lost")));
    }
  }

  @Test
  void aRedeliveredChangeChangesNothingAndANewProducerCausesAReRead() throws Exception {
    String p = prefix();
    LossyTransport lossy = new LossyTransport(fixture.bus, "docs");
    try (LiveQueryRegistry r = registry(lossy, 64L << 20)) {
      RecordingSubscriber rec = new RecordingSubscriber();
      subscribeAndWait(r, rec, "ada", ADA, null);
      LiveFixture.awaitSettled(r, fixture.commit("INSERT INTO docs VALUES ('" + p + "x', 'acme', 'ada', 1)"));
      TransportMessage docs = lossy.seen.stream().filter(m -> m.subject().endsWith(".docs")).reduce((a, b) -> b)
          .orElseThrow();
      int patches = rec.stream("ada").patches;
      long reads = r.stats().reads();
      // The same bytes again: the same producer, seq and LSN.
      fixture.bus.publish(docs.subject(), docs.payload());
      LiveFixture.awaitSettled(r, fixture.marker());
      assertAll(
          () -> assertEquals(patches, rec.stream("ada").patches, "a duplicate sends nothing"),
          () -> assertEquals(reads, r.stats().reads(), "and reads nothing"),
          () -> assertEquals(0, r.stats().gaps()));
      ChangeEvent e = ChangeEnvelope.decode(docs.payload(), n -> "docs".equals(n) ? DOCS : null);
      String restart = "a-restarted-process";
      ChangeEvent restarted = switch (e) {
        case ChangeEvent.Insert i -> new ChangeEvent.Insert(i.table(), i.entity(), i.key(), i.row(), i.omitted(), false,
            i.lsn(), i.xid(), i.last(), i.commitTime(), i.write(), restart, 1);
        case ChangeEvent.Update u -> new ChangeEvent.Update(u.table(), u.entity(), u.key(), u.row(), u.old(),
            u.omitted(), false, u.lsn(), u.xid(), u.last(), u.commitTime(), u.write(), restart, 1);
        case ChangeEvent.Delete d -> new ChangeEvent.Delete(d.table(), d.entity(), d.key(), d.old(), d.omitted(), false,
            d.lsn(), d.xid(), d.last(), d.commitTime(), d.write(), restart, 1);
        case ChangeEvent.Truncate t -> new ChangeEvent.Truncate(t.table(), t.entity(), t.lsn(), t.xid(), t.last(),
            t.commitTime(), t.write(), restart, 1);
      };
      Map<String, ColumnType> types = new LinkedHashMap<>();
      DOCS.columns().forEach(c -> types.put(c.name(), c.type()));
      fixture.bus.publish(docs.subject(), ChangeEnvelope.encode(restarted, types));
      LiveFixture.await("a new producer re-reads", () -> r.stats().gaps() == 1 && rec.stream("ada").snapshots == 2);
      assertEquals(expected(ADA), rec.list("ada"));
    }
  }
}
