package io.runnel.sync.live.internal;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.eq;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.Actor;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.Select;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.protocol.ReadAnswer;
import io.runnel.protocol.WireRecord;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import io.runnel.wire.RunnelException;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Windows per qid@tenant: sharing, tenancy, refusals, routing by pinned value and by key. */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiveQueryRegistryTest {

  static final EntityRef TASKS = EntityRef.of("tasks").key("id")
      .columns(c -> c.int4("id").text("org_id").text("status").text("owner").int4("rank"));
  static final Entity TASKS_ENTITY = Entity.of(TASKS).table("public.tasks").tenant("org_id");
  static final EntityRef NOTES = EntityRef.of("notes").key("id").columns(c -> c.int4("id").text("topic"));
  static final Entity NOTES_ENTITY = Entity.of(NOTES).table("public.notes");

  record ByStatus(String status, @Nullable String orgId) {
    static final JsonCodec<ByStatus> CODEC = JsonCodec.object(
        r -> new ByStatus(r.text("status"), r.optionalText("orgId")),
        (in, w) -> w.put("status", in.status()).put("orgId", in.orgId()));
  }

  static final QueryRef<ByStatus> BY_STATUS = QueryRef.live("byStatus", ByStatus.CODEC, in -> {
    Select s = select(TASKS).where(eq("status", in.status())).orderBy(asc("rank"));
    return in.orgId() == null ? s : s.where(eq("org_id", in.orgId()));
  });
  static final QueryRef<NoInput> MINE = QueryRef.live("mine", NoInput.CODEC,
      (in, actor) -> select(TASKS).where(eq("owner", actor.id())));
  static final QueryRef<NoInput> SECRET = QueryRef.live("secret", NoInput.CODEC, in -> select(TASKS));
  static final QueryRef<NoInput> ONCE = QueryRef.once("once", NoInput.CODEC, in -> select(TASKS));
  static final QueryRef<NoInput> ALL_NOTES = QueryRef.live("allNotes", NoInput.CODEC, in -> select(NOTES));

  record ById(int id) {
    static final JsonCodec<ById> CODEC = JsonCodec.object(r -> new ById(r.int4("id")), (in, w) -> w.put("id", in.id()));
  }

  static final QueryRef<ById> TASK = QueryRef.live("task", ById.CODEC, in -> select(TASKS).where(eq("id", in.id())));
  static final QueryRef<ById> KEYED_TASK = QueryRef.live("keyedTask", ById.CODEC,
      in -> select(TASKS).where(eq("id", in.id())).where(eq("status", "keyed")));
  static final QueryRef<ById> NOTE = QueryRef.live("note", ById.CODEC, in -> select(NOTES).where(eq("id", in.id())));

  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(BY_STATUS).on(TASKS_ENTITY).policy(Policy.authenticated()))
      .query(Query.of(MINE).on(TASKS_ENTITY).policy(Policy.authenticated()))
      .query(Query.of(SECRET).on(TASKS_ENTITY).policy(Policy.can("tasks:admin")))
      .query(Query.of(ONCE).on(TASKS_ENTITY).policy(Policy.authenticated()))
      .query(Query.of(ALL_NOTES).on(NOTES_ENTITY).policy(Policy.allowPublic()))
      .query(Query.of(TASK).on(TASKS_ENTITY).policy(Policy.authenticated()))
      .query(Query.of(KEYED_TASK).on(TASKS_ENTITY).policy(Policy.authenticated()))
      .query(Query.of(NOTE).on(NOTES_ENTITY).policy(Policy.allowPublic()))
      .build();

  TestDatabase db;
  LiveFixture fixture;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    this.db = db;
    db.execute("CREATE TABLE tasks (id int PRIMARY KEY, org_id text, status text, owner text, rank int);"
        + "CREATE TABLE notes (id int PRIMARY KEY, topic text)");
    fixture = new LiveFixture(db, "registry", List.of(TASKS_ENTITY, NOTES_ENTITY));
  }

  @AfterAll
  void stop() {
    fixture.close();
  }

  private LiveQueryRegistry registry(Duration readTimeout) {
    LiveQueryRegistry r = LiveQueryRegistry.builder().declarations(DECLARATIONS).dataSource(fixture.pool)
        .transport(fixture.bus).readTimeout(readTimeout).build();
    r.start();
    return r;
  }

  private static JsonValue status(String status) {
    return ByStatus.CODEC.encode(new ByStatus(status, null));
  }

  @Test
  void aHundredSubscribersArrivingAtOnceShareOneRead() throws Exception {
    fixture.commit("INSERT INTO tasks VALUES (1, 'acme', 'open', 'ada', 1)");
    try (LiveQueryRegistry registry = registry(Duration.ofSeconds(10))) {
      RecordingSubscriber rec = new RecordingSubscriber();
      CountDownLatch go = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(16);
      List<Future<LiveSubscription>> subs = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        String sid = "s" + i;
        subs.add(pool.submit(() -> {
          go.await();
          return registry.subscribe(rec, sid, Actor.user("u" + sid).inOrg("acme"), "byStatus", status("open"));
        }));
      }
      go.countDown();
      List<WindowId> ids = new ArrayList<>();
      for (Future<LiveSubscription> f : subs) {
        ids.add(f.get().window());
      }
      pool.shutdown();
      for (int i = 0; i < 100; i++) {
        String sid = "s" + i;
        LiveFixture.await(sid + " snapshot", () -> rec.stream(sid).snapshots == 1);
      }
      assertAll(
          () -> assertEquals(1, ids.stream().distinct().count(), "one window"),
          () -> assertEquals(1, registry.stats().firstReads(), "exactly one read"),
          () -> assertTrue(ids.get(0).toString().matches("byStatus:[0-9a-f]{16}@acme"), ids.get(0).toString()),
          () -> assertEquals(List.of("1"), rec.list("s99").stream().map(WireRecord::key).toList()));
    }
  }

  /** Regression (found by the socket differential): two sockets using one sid on one window both get patches. */
  @Test
  void twoSubscribersWithTheSameSidOnOneWindowBothGetEveryPatch() throws Exception {
    try (LiveQueryRegistry registry = registry(Duration.ofSeconds(10))) {
      RecordingSubscriber one = new RecordingSubscriber();
      RecordingSubscriber two = new RecordingSubscriber();
      Actor ada = Actor.user("ada").inOrg("acme");
      LiveSubscription first = registry.subscribe(one, "s", ada, "byStatus", status("same-sid"));
      registry.subscribe(two, "s", ada, "byStatus", status("same-sid"));
      LiveFixture.await("snapshots", () -> one.stream("s").snapshots == 1 && two.stream("s").snapshots == 1);
      LiveFixture.awaitSettled(registry, fixture.commit("INSERT INTO tasks VALUES (60, 'acme', 'same-sid', 'x', 1)"));
      first.close();
      LiveFixture.awaitSettled(registry, fixture.commit("INSERT INTO tasks VALUES (61, 'acme', 'same-sid', 'x', 2)"));
      assertAll(
          () -> assertEquals(List.of("60"), one.list("s").stream().map(WireRecord::key).toList(),
              "the first got the patch before it left"),
          () -> assertEquals(List.of("60", "61"), two.list("s").stream().map(WireRecord::key).toList(),
              "the second got both, and the first leaving did not end it"));
    }
  }

  @Test
  void tenancyIsPinnedToTheActorsOrgAndRefusedOtherwise() throws Exception {
    fixture.commit("INSERT INTO tasks VALUES (20, 'acme', 'tenancy', 'ada', 1), (21, 'globex', 'tenancy', 'bob', 1)");
    try (LiveQueryRegistry registry = registry(Duration.ofSeconds(10))) {
      RecordingSubscriber rec = new RecordingSubscriber();
      Actor ada = Actor.user("ada").inOrg("acme");
      registry.subscribe(rec, "mine", ada, "byStatus", status("tenancy"));
      LiveFixture.await("snapshot", () -> rec.stream("mine").snapshots == 1);
      RunnelException mismatch = assertThrows(RunnelException.class, () -> registry.subscribe(rec, "other", ada,
          "byStatus", ByStatus.CODEC.encode(new ByStatus("tenancy", "globex"))));
      RunnelException noOrg = assertThrows(RunnelException.class,
          () -> registry.subscribe(rec, "noorg", Actor.user("lone"), "byStatus", status("tenancy")));
      assertAll(
          () -> assertEquals(List.of("20"), rec.list("mine").stream().map(WireRecord::key).toList(),
              "globex's row never reaches acme's window"),
          () -> assertEquals(ErrorCode.X_TENANCY_ACTOR_MISMATCH, mismatch.code()),
          () -> assertTrue(mismatch.cause().contains("globex"), mismatch.cause()),
          () -> assertEquals(ErrorCode.X_TENANCY_ACTOR_ORG_REQUIRED, noOrg.code()),
          () -> registry.subscribe(rec, "own", ada, "byStatus",
              ByStatus.CODEC.encode(new ByStatus("tenancy", "acme"))).close());
    }
  }

  @Test
  void anInputNamingAnotherTenantsRecordByKeyIsRefusedAndAKeyNoRowHoldsReadsEmpty() throws Exception {
    fixture.commit("INSERT INTO tasks VALUES (70, 'acme', 'keyed', 'ada', 1), (71, 'globex', 'x', 'gus', 1),"
        + " (74, 'acme', 'unkeyed', 'ada', 1); INSERT INTO notes VALUES (72, 'public')");
    try (LiveQueryRegistry registry = registry(Duration.ofSeconds(10))) {
      RecordingSubscriber rec = new RecordingSubscriber();
      Actor gus = Actor.user("gus").inOrg("globex");
      RunnelException subscribed = assertThrows(RunnelException.class,
          () -> registry.subscribe(rec, "acme", gus, "task", ById.CODEC.encode(new ById(70))));
      RunnelException read = assertThrows(RunnelException.class,
          () -> registry.read(gus, "task", ById.CODEC.encode(new ById(70))));
      RunnelException filtered = assertThrows(RunnelException.class,
          () -> registry.read(gus, "keyedTask", ById.CODEC.encode(new ById(70))));
      ReadAnswer unmatched = registry.read(gus, "keyedTask", ById.CODEC.encode(new ById(74)));
      int windowsAfterRefusals = registry.windowCount();
      registry.subscribe(rec, "own", gus, "task", ById.CODEC.encode(new ById(71)));
      registry.subscribe(rec, "none", gus, "task", ById.CODEC.encode(new ById(79)));
      registry.subscribe(rec, "note", gus, "note", ById.CODEC.encode(new ById(72)));
      ReadAnswer none = registry.read(gus, "task", ById.CODEC.encode(new ById(79)));
      LiveFixture.await("snapshots", () -> rec.stream("own").snapshots == 1 && rec.stream("none").snapshots == 1
          && rec.stream("note").snapshots == 1);
      assertAll(
          () -> assertEquals(ErrorCode.X_TENANCY_ACTOR_MISMATCH, subscribed.code(), "a subscription"),
          () -> assertEquals(ErrorCode.X_TENANCY_ACTOR_MISMATCH, read.code(), "a one-shot read"),
          () -> assertEquals(ErrorCode.X_TENANCY_ACTOR_MISMATCH, filtered.code(),
              "a by-key select with more filters, which the other tenant's record matches"),
          () -> assertEquals(List.of(), unmatched.records(),
              "another tenant's record the select would not read anyway (unkeyed) is not named: empty"),
          () -> assertTrue(subscribed.cause().contains("'task'"), subscribed.cause()),
          () -> assertTrue(!(subscribed.cause() + subscribed.fix()).matches("(?s).*(acme|ada).*"),
              "the refusal names no data of the row: " + subscribed.cause()),
          () -> assertTrue(rec.stream("acme").frames.isEmpty() && rec.stream("acme").refusal == null,
              "a refused subscription gets nothing on its port"),
          () -> assertEquals(0, windowsAfterRefusals, "no refused subscription opened a window"),
          () -> assertEquals(List.of("71"), rec.list("own").stream().map(WireRecord::key).toList(), "its own record"),
          () -> assertEquals(List.of(), rec.list("none"), "a key no row holds: an empty snapshot"),
          () -> assertEquals(List.of(), none.records(), "a key no row holds: an empty read"),
          () -> assertEquals(List.of("72"), rec.list("note").stream().map(WireRecord::key).toList(),
              "an entity with no tenant column is read by key as ever"));
    }
  }

  @Test
  void unknownForbiddenAndInvalidSubscriptionsAreRefusedWithTheirCodes() throws Exception {
    try (LiveQueryRegistry registry = registry(Duration.ofSeconds(10))) {
      RecordingSubscriber rec = new RecordingSubscriber();
      Actor ada = Actor.user("ada").inOrg("acme");
      RunnelException unknown = assertThrows(RunnelException.class,
          () -> registry.subscribe(rec, "a", ada, "nope", JsonObject.EMPTY));
      RunnelException once = assertThrows(RunnelException.class,
          () -> registry.subscribe(rec, "b", ada, "once", JsonObject.EMPTY));
      RunnelException forbidden = assertThrows(RunnelException.class,
          () -> registry.subscribe(rec, "c", ada, "secret", JsonObject.EMPTY));
      InputInvalidException invalid = assertThrows(InputInvalidException.class,
          () -> registry.subscribe(rec, "d", ada, "byStatus", JsonObject.builder().put("status", 7).build()));
      InputInvalidException missing = assertThrows(InputInvalidException.class,
          () -> registry.subscribe(rec, "e", ada, "byStatus", JsonObject.EMPTY));
      assertAll(
          () -> assertEquals(ErrorCode.X_LIVE_QUERY_UNKNOWN, unknown.code()),
          () -> assertTrue(unknown.cause().contains("'nope'"), "the name is echoed: " + unknown.cause()),
          () -> assertEquals(ErrorCode.X_LIVE_QUERY_UNKNOWN, once.code(), "a one-shot query cannot be subscribed"),
          () -> assertEquals(ErrorCode.X_FORBIDDEN, forbidden.code()),
          () -> assertEquals("status", invalid.path()),
          () -> assertEquals("status", missing.path()),
          () -> assertEquals(0, registry.stats().windows(), "no refused subscription opened a window"));
    }
  }

  @Test
  void aSourceReadingTheActorMakesAWindowPerActor() throws Exception {
    fixture.commit("INSERT INTO tasks VALUES (30, 'acme', 'x', 'ada', 1), (31, 'acme', 'x', 'bob', 1)");
    try (LiveQueryRegistry registry = registry(Duration.ofSeconds(10))) {
      RecordingSubscriber rec = new RecordingSubscriber();
      WindowId ada = registry.subscribe(rec, "ada", Actor.user("ada").inOrg("acme"), "mine", JsonObject.EMPTY).window();
      WindowId bob = registry.subscribe(rec, "bob", Actor.user("bob").inOrg("acme"), "mine", JsonObject.EMPTY).window();
      LiveFixture.await("snapshots", () -> rec.stream("ada").snapshots == 1 && rec.stream("bob").snapshots == 1);
      assertAll(
          () -> assertNotEquals(ada, bob),
          () -> assertEquals("acme/ada", ada.tenant()),
          () -> assertEquals(List.of("30"), rec.list("ada").stream().map(WireRecord::key).toList()),
          () -> assertEquals(List.of("31"), rec.list("bob").stream().map(WireRecord::key).toList()));
    }
  }

  @Test
  void aRowLeavingAPinnedValueUnderReplicaIdentityDefaultLeavesEveryWindowThatHeldIt() throws Exception {
    fixture.commit("INSERT INTO tasks VALUES (40, 'acme', 'open', 'ada', 1), (41, 'acme', 'open', 'ada', 2)");
    try (LiveQueryRegistry registry = registry(Duration.ofSeconds(10))) {
      RecordingSubscriber rec = new RecordingSubscriber();
      registry.subscribe(rec, "open", Actor.user("ada").inOrg("acme"), "byStatus", status("open"));
      registry.subscribe(rec, "mine", Actor.user("ada").inOrg("acme"), "mine", JsonObject.EMPTY);
      LiveFixture.await("snapshots", () -> rec.stream("open").snapshots == 1 && rec.stream("mine").snapshots == 1);
      LiveFixture.awaitSettled(registry, fixture.commit("UPDATE tasks SET status = 'closed' WHERE id = 40;"
          + "UPDATE tasks SET org_id = 'globex' WHERE id = 41"));
      assertAll(
          () -> assertTrue(rec.list("open").stream().noneMatch(r -> r.key().equals("40")), "left status open"),
          () -> assertTrue(rec.list("open").stream().noneMatch(r -> r.key().equals("41")), "left tenant acme"),
          () -> assertTrue(rec.list("mine").stream().noneMatch(r -> r.key().equals("41")), "left tenant acme"),
          () -> assertTrue(rec.list("mine").stream().anyMatch(r -> r.key().equals("40")), "still ada's, still acme"));
    }
  }

  @Test
  void aKeyOnlyDeleteReachesExactlyTheWindowsHoldingTheRow() throws Exception {
    fixture.commit("INSERT INTO tasks VALUES (50, 'acme', 'del-a', 'x', 1), (51, 'acme', 'del-b', 'x', 1)");
    try (LiveQueryRegistry registry = registry(Duration.ofSeconds(10))) {
      RecordingSubscriber rec = new RecordingSubscriber();
      Actor ada = Actor.user("ada").inOrg("acme");
      registry.subscribe(rec, "a", ada, "byStatus", status("del-a"));
      registry.subscribe(rec, "b", ada, "byStatus", status("del-b"));
      LiveFixture.await("snapshots", () -> rec.stream("a").snapshots == 1 && rec.stream("b").snapshots == 1);
      long before = registry.stats().deliveries();
      LiveFixture.awaitSettled(registry, fixture.commit("DELETE FROM tasks WHERE id = 50"));
      assertAll(
          () -> assertEquals(1, registry.stats().deliveries() - before, "one window got the delete"),
          () -> assertEquals(List.of(), rec.list("a")),
          () -> assertEquals(List.of("51"), rec.list("b").stream().map(WireRecord::key).toList()),
          () -> assertEquals(0, rec.stream("b").patches, "the other window heard nothing"));
    }
  }

  @Test
  void aReadPastItsDeadlineIsATimeoutToEverySubscriberWaitingOnIt() throws Exception {
    try (LiveQueryRegistry registry = registry(Duration.ofMillis(300));
        Connection locker = db.connect(); Statement s = locker.createStatement()) {
      locker.setAutoCommit(false);
      s.execute("LOCK TABLE notes IN ACCESS EXCLUSIVE MODE");
      RecordingSubscriber rec = new RecordingSubscriber();
      registry.subscribe(rec, "one", Actor.anonymous(), "allNotes", JsonObject.EMPTY);
      registry.subscribe(rec, "two", Actor.anonymous(), "allNotes", JsonObject.EMPTY);
      LiveFixture.await("both refused", () -> rec.stream("one").refusal != null && rec.stream("two").refusal != null);
      locker.rollback();
      assertAll(
          () -> assertEquals(ErrorCode.X_TIMEOUT, rec.stream("one").refusal.code()),
          () -> assertEquals(ErrorCode.X_TIMEOUT, rec.stream("two").refusal.code()),
          () -> assertEquals(0, rec.stream("one").snapshots),
          () -> assertEquals(0, registry.stats().windows(), "the failed window is gone; a new subscribe reads again"));
      // A fresh read, under the same 300 ms deadline: on a busy machine it may itself time out, so it is asked again
      // (each time a new window) until one is read.
      String fresh = null;
      for (int i = 1; fresh == null; i++) {
        String sid = "three-" + i;
        registry.subscribe(rec, sid, Actor.anonymous(), "allNotes", JsonObject.EMPTY);
        LiveFixture.await("an answer to " + sid, () -> rec.stream(sid).snapshots + (rec.stream(sid).refusal == null
            ? 0 : 1) > 0);
        if (rec.stream(sid).snapshots == 1) {
          fresh = sid;
        } else {
          assertEquals(ErrorCode.X_TIMEOUT, rec.stream(sid).refusal.code(), sid);
          assertTrue(i < 5, "five fresh reads in a row past 300 ms");
        }
      }
      assertNull(rec.stream(fresh).refusal);
    }
  }
}
