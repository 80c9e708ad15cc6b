package io.runnel.sync.http.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.protocol.Lsn;
import io.runnel.protocol.Position;
import io.runnel.sync.SyncNode;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ManualClock;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.function.Executable;

/**
 * {@code GET /v1/query} (policy, tenant and row rule, as a live subscription applies them), and what takes a node of
 * its own: CORS for configured origins, the retention of idempotency rows, the statement timeout, one key called on
 * two nodes at once; on a real PostgreSQL.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueryRouteTest {

  TestDatabase db;
  WriteFixture world;
  HttpCalls http;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    this.db = db;
    world = new WriteFixture(db, "reads",
        "INSERT INTO notes VALUES (1, 'acme', 'ada', 'a1'), (2, 'acme', 'bob', 'b2'), (3, 'globex', 'gus', 'g3');");
    http = world.http;
  }

  @AfterAll
  void stop() {
    world.close();
  }

  HttpCalls.Answer read(String query, String input, String token) {
    String q = input == null ? "" : "?input=" + URLEncoder.encode(input, StandardCharsets.UTF_8);
    return http.get("/v1/query/" + query + q, token == null ? Map.of() : Map.of("Authorization", "Bearer " + token));
  }

  static List<String> keys(HttpCalls.Answer a) {
    List<String> out = new ArrayList<>();
    for (JsonValue r : ((JsonArray) a.json().get("records")).elements()) {
      out.add(((JsonString) ((JsonObject) r).get("key")).value());
    }
    return out;
  }

  Position insertLsn() throws Exception {
    try (Connection c = db.connect();
        ResultSet r = c.createStatement().executeQuery("SELECT pg_current_wal_insert_lsn()::text")) {
      r.next();
      return Lsn.parse(r.getString(1)).point();
    }
  }

  @Test
  void aReadAnswersTheActorsTenantOnlyAtAnLsnNoLaterThanTheWalAfterIt() throws Exception {
    HttpCalls.Answer acme = read("notes", "{}", "ada@acme");
    Position after = insertLsn();
    HttpCalls.Answer globex = read("notes", null, "gus@globex");
    assertAll(
        () -> assertEquals(200, acme.status(), acme.body()),
        () -> assertEquals(List.of("1", "2"), keys(acme)),
        () -> assertEquals(List.of("3"), keys(globex), "no input means {}"),
        () -> assertTrue(acme.body().contains("\"row\":{\"id\":1,\"org\":\"acme\",\"author\":\"ada\",\"body\":\"a1\"}"),
            acme.body()),
        () -> assertTrue(acme.field("lsn").matches("[0-9a-f]{16}00000000"), acme.body()),
        () -> assertTrue(Position.parse(acme.field("lsn")).compareTo(after) <= 0,
            "read at or before the WAL position after it"));
  }

  @Test
  void aReadByKeyAnswersTheActorsOwnRecordAndAKeyNoRowHoldsIsAnEmptyRead() {
    HttpCalls.Answer own = read("note", "{\"id\":1}", "ada@acme");
    HttpCalls.Answer none = read("note", "{\"id\":99}", "ada@acme");
    assertAll(
        () -> assertEquals(200, own.status(), own.body()),
        () -> assertEquals(List.of("1"), keys(own)),
        () -> assertEquals(200, none.status(), none.body()),
        () -> assertEquals(List.of(), keys(none)));
  }

  @Test
  void theRowRuleFiltersEachActorsRecordsAndAPermissionOpensTheGate() {
    HttpCalls.Answer own = read("ownNotes", "{}", "bob@acme");
    HttpCalls.Answer admin = read("secretNotes", "{}", "root@acme+admin");
    assertAll(
        () -> assertEquals(List.of("2"), keys(own)),
        () -> assertEquals(List.of("1", "2"), keys(admin).stream().sorted().toList(), "the tenant is pinned too"));
  }

  @Test
  void everyRefusalOfTheQueryRouteHasItsStatusCodeAndFix() {
    Object[][] cases = {
        {"no credentials", read("notes", "{}", null), 401, "X_SOCKET_UNAUTHENTICATED"},
        {"an unknown query", read("nope", "{}", "ada@acme"), 404, "X_LIVE_QUERY_UNKNOWN"},
        {"the policy", read("secretNotes", "{}", "ada@acme"), 403, "X_FORBIDDEN"},
        {"another tenant named", read("notesOfOrg", "{\"org\":\"globex\"}", "ada@acme"), 403,
            "X_TENANCY_ACTOR_MISMATCH"},
        {"another tenant's record named by key", read("note", "{\"id\":3}", "ada@acme"), 403,
            "X_TENANCY_ACTOR_MISMATCH"},
        {"an actor with no org", read("notes", "{}", "nobody@"), 403, "X_TENANCY_ACTOR_ORG_REQUIRED"},
        {"input that is not JSON", read("notes", "{nope", "ada@acme"), 422, "X_INPUT_INVALID"},
        {"a wrong field", read("notesOfOrg", "{\"org\":1}", "ada@acme"), 422, "X_INPUT_INVALID"},
    };
    List<Executable> checks = new ArrayList<>();
    for (Object[] c : cases) {
      HttpCalls.Answer a = (HttpCalls.Answer) c[1];
      checks.add(() -> assertEquals(c[2], a.status(), c[0] + ": " + a.body()));
      checks.add(() -> assertEquals(c[3], a.field("code"), c[0] + ": " + a.body()));
      checks.add(() -> assertFalse(a.field("fix").isBlank(), String.valueOf(c[0])));
    }
    HttpCalls.Answer unknown = (HttpCalls.Answer) cases[1][1];
    HttpCalls.Answer wrongField = (HttpCalls.Answer) cases[7][1];
    HttpCalls.Answer byKey = (HttpCalls.Answer) cases[4][1];
    checks.add(
        () -> assertFalse(byKey.body().matches("(?s).*(globex|gus|g3).*"), "nothing of the row: " + byKey.body()));
    checks.add(() -> assertTrue(unknown.field("cause").contains("nope"), "the name is echoed"));
    checks.add(() -> assertTrue(wrongField.field("cause").contains("org"), "the field is named"));
    assertAll(checks);
  }

  @Test
  void configuredOriginsGetCorsAndAPreflightOthersGetNeither() throws Exception {
    try (SyncNode cors = world.node(b -> b.allowedOrigins(List.of("https://app.example.com")))) {
      HttpCalls calls = new HttpCalls(cors.port());
      HttpCalls.Answer preflight = calls.method("OPTIONS", "/v1/mutate/bump", Map.of("Origin",
          "https://app.example.com", "Access-Control-Request-Method", "POST",
          "Access-Control-Request-Headers", "idempotency-key, content-type"));
      HttpCalls.Answer foreignPreflight = calls.method("OPTIONS", "/v1/mutate/bump", Map.of("Origin",
          "https://evil.example", "Access-Control-Request-Method", "POST"));
      HttpCalls.Answer cookieCall = calls.mutate("bump", Map.of("Cookie", "runnel_session=ada@acme", "Origin",
          "https://app.example.com", "Idempotency-Key", UUID.randomUUID().toString()),
          "{\"input\":{\"name\":\"cors\"}}");
      HttpCalls.Answer foreignCookie = calls.mutate("bump", Map.of("Cookie", "runnel_session=ada@acme", "Origin",
          "https://evil.example", "Idempotency-Key", UUID.randomUUID().toString()), "{\"input\":{\"name\":\"cors\"}}");
      assertAll(
          () -> assertEquals(204, preflight.status(), preflight.body()),
          () -> assertEquals("https://app.example.com", preflight.header("Access-Control-Allow-Origin")),
          () -> assertTrue(preflight.header("Access-Control-Allow-Headers").contains("Idempotency-Key")),
          () -> assertEquals("true", preflight.header("Access-Control-Allow-Credentials")),
          () -> assertEquals(403, foreignPreflight.status()),
          () -> assertEquals("X_ORIGIN_REFUSED", foreignPreflight.field("code")),
          () -> assertEquals(null, foreignPreflight.header("Access-Control-Allow-Origin")),
          () -> assertEquals(200, cookieCall.status(), cookieCall.body()),
          () -> assertEquals("https://app.example.com", cookieCall.header("Access-Control-Allow-Origin")),
          () -> assertEquals(403, foreignCookie.status()),
          () -> assertEquals("X_ORIGIN_REFUSED", foreignCookie.field("code")));
    }
  }

  @Test
  void idempotencyRowsExpireAfterTheRetentionAndAreSwept() throws Exception {
    ManualClock clock = ManualClock.now();
    try (SyncNode timed = world.node(b -> b.clock(clock))) {
      HttpCalls calls = new HttpCalls(timed.port());
      String kept = UUID.randomUUID().toString();
      String swept = UUID.randomUUID().toString();
      HttpCalls.Answer first = calls.mutate("bump", "ada@acme", kept, "{\"name\":\"retained\"}");
      calls.mutate("bump", "ada@acme", swept, "{\"name\":\"other\"}");
      clock.advance(Duration.ofHours(23));
      HttpCalls.Answer withinRetention = calls.mutate("bump", "ada@acme", kept, "{\"name\":\"retained\"}");
      clock.advance(Duration.ofHours(2));
      HttpCalls.Answer afterRetention = calls.mutate("bump", "ada@acme", kept, "{\"name\":\"retained\"}");
      long deleted = timed.sweepIdempotencyRows();
      assertAll(
          () -> assertEquals(first.body(), withinRetention.body(), "a replay within 24 h answers the first answer"),
          () -> assertEquals("2", afterRetention.field("result"), "past the retention the key is new again"),
          () -> assertTrue(deleted >= 1, "the sweep deleted the expired rows (other tests leave some too)"),
          () -> assertEquals(1, count("SELECT count(*) FROM runnel.idempotency WHERE key = '" + kept + "'")),
          () -> assertEquals(0, count("SELECT count(*) FROM runnel.idempotency WHERE key = '" + swept + "'")));
    }
  }

  @Test
  void aMutatorStatementPastTheTimeoutIsCancelledAnswers504AndStoresNothing() throws Exception {
    try (SyncNode strict = world.node(b -> b.mutationTimeout(Duration.ofMillis(100)))) {
      String k = UUID.randomUUID().toString();
      HttpCalls.Answer a = new HttpCalls(strict.port()).mutate("slowBump", "ada@acme", k, "{\"name\":\"slow\"}");
      assertAll(
          () -> assertEquals(504, a.status(), a.body()),
          () -> assertEquals("X_TIMEOUT", a.field("code")),
          () -> assertEquals(0, count("SELECT count(*) FROM counters WHERE name = 'slow'"), "nothing was written"),
          () -> assertEquals(0, count("SELECT count(*) FROM runnel.idempotency WHERE key = '" + k + "'")));
    }
  }

  @Test
  void twoNodesCalledWithOneKeyAtOnceRunItOnceAndTheOtherAnswersInFlightOrTheSameAnswer() throws Exception {
    String k = UUID.randomUUID().toString();
    try (SyncNode second = world.node(b -> b)) {
      HttpCalls other = new HttpCalls(second.port());
      CompletableFuture<HttpCalls.Answer> onFirst = CompletableFuture
          .supplyAsync(() -> http.mutate("slowBump", "ada@acme", k, "{\"name\":\"two-nodes\"}"));
      CompletableFuture<HttpCalls.Answer> onSecond = CompletableFuture
          .supplyAsync(() -> other.mutate("slowBump", "ada@acme", k, "{\"name\":\"two-nodes\"}"));
      HttpCalls.Answer a = onFirst.get();
      HttpCalls.Answer b = onSecond.get();
      HttpCalls.Answer winner = a.status() == 200 ? a : b;
      HttpCalls.Answer loser = winner == a ? b : a;
      HttpCalls.Answer retried = loser.status() == 409
          ? (loser == a ? http : other).mutate("slowBump", "ada@acme", k, "{\"name\":\"two-nodes\"}") : loser;
      assertAll(
          () -> assertEquals(200, winner.status(), winner.body()),
          () -> assertTrue(loser.status() == 200 || loser.status() == 409 && "1".equals(loser.header("Retry-After"))
              && "X_IDEMPOTENCY_IN_FLIGHT".equals(loser.field("code")), loser.body()),
          () -> assertEquals(winner.body(), retried.body(), "a retry of the 409 answers the first answer"),
          () -> assertEquals(1, count("SELECT n FROM counters WHERE name = 'two-nodes'"), "the function ran once"));
    }
  }

  long count(String sql) throws Exception {
    try (Connection c = db.connect(); ResultSet r = c.createStatement().executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }
}
