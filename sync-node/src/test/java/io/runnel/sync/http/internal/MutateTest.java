package io.runnel.sync.http.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.server.QueryHash;
import io.runnel.protocol.Position;
import io.runnel.sync.Sockets;
import io.runnel.sync.SyncNode;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.function.Executable;

/** {@code POST /v1/mutate}: exactly-once effects under idempotency keys, on a real PostgreSQL, through real HTTP. */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MutateTest {

  TestDatabase db;
  WriteFixture world;
  SyncNode node;
  HttpCalls http;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    this.db = db;
    world = new WriteFixture(db, "writes", "");
    node = world.node;
    http = world.http;
  }

  @AfterAll
  void stop() {
    world.close();
  }

  int counter(String name) throws Exception {
    try (Connection c = db.connect();
        PreparedStatement s = c.prepareStatement("SELECT n FROM counters WHERE name = ?")) {
      s.setString(1, name);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? r.getInt(1) : 0;
      }
    }
  }

  long count(String sql) throws Exception {
    try (Connection c = db.connect(); ResultSet r = c.createStatement().executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }

  static String key() {
    return UUID.randomUUID().toString();
  }

  @Test
  void aThousandReplaysOfOneCallLeaveExactlyOneEffectAndAnswerTheFirstAnswer() throws Exception {
    String k = key();
    HttpCalls.Answer first = http.mutate("bump", "ada@acme", k, "{\"name\":\"replayed\"}");
    List<HttpCalls.Answer> replays = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      replays.add(http.mutate("bump", "ada@acme", k, "{\"name\":\"replayed\"}"));
    }
    assertAll(
        () -> assertEquals(200, first.status(), first.body()),
        () -> assertEquals("1", first.field("result")),
        () -> assertTrue(first.field("lsn").matches("[0-9a-f]{16}00000000"), first.body()),
        () -> assertTrue(replays.stream().allMatch(r -> r.status() == 200 && r.body().equals(first.body())),
            "every replay answers the first answer, byte for byte"),
        () -> assertEquals(1, counter("replayed"), "the function ran once"));
  }

  @Test
  void fiftyConcurrentCallsWithOneKeyRunOnceAndAllGetTheSameAnswer() throws Exception {
    String k = key();
    List<Future<HttpCalls.Answer>> calls = new ArrayList<>();
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 50; i++) {
        calls.add(pool.submit(() -> {
          HttpCalls.Answer a = http.mutate("slowBump", "ada@acme", k, "{\"name\":\"concurrent\"}");
          for (int retry = 0; a.status() == 409 && retry < 100; retry++) {
            assertEquals("X_IDEMPOTENCY_IN_FLIGHT", a.field("code"));
            assertNotNull(a.header("Retry-After"), "a 409 in flight says when to retry");
            a = http.mutate("slowBump", "ada@acme", k, "{\"name\":\"concurrent\"}");
          }
          return a;
        }));
      }
    }
    Set<String> bodies = new HashSet<>();
    for (Future<HttpCalls.Answer> f : calls) {
      HttpCalls.Answer a = f.get();
      assertEquals(200, a.status(), a.body());
      bodies.add(a.body());
    }
    assertAll(
        () -> assertEquals(1, bodies.size(), "all fifty got the same answer: " + bodies),
        () -> assertEquals(1, counter("concurrent"), "the function ran once"));
  }

  @Test
  void theSameKeyWithAnotherInputIs422AndRunsNothing() throws Exception {
    String k = key();
    HttpCalls.Answer first = http.mutate("bump", "ada@acme", k, "{\"name\":\"reuse-a\"}");
    HttpCalls.Answer other = http.mutate("bump", "ada@acme", k, "{\"name\":\"reuse-b\"}");
    HttpCalls.Answer otherMutator = http.mutate("slowBump", "ada@acme", k, "{\"name\":\"reuse-a\"}");
    HttpCalls.Answer same = http.mutate("bump", "ada@acme", k, "{ \"name\" : \"reuse-a\" }");
    assertAll(
        () -> assertEquals(200, first.status()),
        () -> assertEquals(422, other.status()),
        () -> assertEquals("X_IDEMPOTENCY_KEY_REUSED", other.field("code")),
        () -> assertFalse(other.field("fix").isBlank()),
        () -> assertEquals(422, otherMutator.status(), "the mutator's name is part of the input hash"),
        () -> assertEquals(first.body(), same.body(), "the same input spelled otherwise is the same call (RFC 8785)"),
        () -> assertEquals(1, counter("reuse-a")),
        () -> assertEquals(0, counter("reuse-b"), "the other input never ran"));
  }

  @Test
  void aKeyBelongsToItsActorAndNeverCrossesToAnother() throws Exception {
    String k = key();
    HttpCalls.Answer ada = http.mutate("bump", "ada@acme", k, "{\"name\":\"crossing\"}");
    HttpCalls.Answer bob = http.mutate("bump", "bob@acme", k, "{\"name\":\"crossing\"}");
    assertAll(
        () -> assertEquals(200, ada.status()),
        () -> assertEquals(200, bob.status()),
        () -> assertEquals("1", ada.field("result")),
        () -> assertEquals("2", bob.field("result"), "bob's call is bob's own: it ran"),
        () -> assertNotEquals(ada.field("write"), bob.field("write")),
        () -> assertEquals(2, counter("crossing")));
  }

  @Test
  void theWriteDigestIsTheFirst32HexOfSha256OverActorNewlineKeyAndNeverTheKey() throws Exception {
    String k = "key-" + key();
    HttpCalls.Answer a = http.mutate("bump", "ada@acme", k, "{\"name\":\"digest\"}");
    String expected = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
        .digest(("ada\n" + k).getBytes(StandardCharsets.UTF_8))).substring(0, 32);
    assertAll(
        () -> assertEquals(expected, a.field("write")),
        () -> assertEquals(expected, QueryHash.writeDigest("ada", k)),
        () -> assertFalse(a.field("write").contains(k)),
        () -> assertFalse(a.body().contains(k), "the answer never carries the key"));
  }

  @Test
  void aFailingFunctionLeavesNoRowNoIdempotencyRecordAndA500WithAnErrorIdButNoTrace() throws Exception {
    String k = key();
    int before = WriteDeclarations.EXPLODE_RUNS.get();
    HttpCalls.Answer a = http.mutate("explode", "ada@acme", k, "{\"id\":900,\"body\":\"x\"}");
    HttpCalls.Answer again = http.mutate("explode", "ada@acme", k, "{\"id\":900,\"body\":\"x\"}");
    assertAll(
        () -> assertEquals(500, a.status()),
        () -> assertEquals("X_INTERNAL", a.field("code")),
        () -> assertTrue(a.field("errorId").matches("[0-9a-f-]{36}"), a.body()),
        () -> assertTrue(a.field("cause").contains(a.field("errorId")), "the cause names the errorId"),
        () -> assertFalse(a.body().contains("secret internal detail"), "no exception text leaks"),
        () -> assertFalse(a.body().contains("at io.runnel"), "no stack trace"),
        () -> assertEquals(0, count("SELECT count(*) FROM notes WHERE id = 900"), "the effect was rolled back"),
        () -> assertEquals(0, count("SELECT count(*) FROM runnel.idempotency WHERE key = '" + k + "'"),
            "a 5xx is not stored"),
        () -> assertEquals(500, again.status()),
        () -> assertEquals(before + 2, WriteDeclarations.EXPLODE_RUNS.get(), "a 5xx may be retried: it ran again"));
  }

  @Test
  void aRefusalIsAnAnswerStoredUnderTheKeyAndReplayedWithoutRunningTheFunctionAgain() throws Exception {
    String k = key();
    int before = WriteDeclarations.CLAIM_RUNS.get();
    HttpCalls.Answer refused = http.mutate("claim", "ada@acme", k, "{\"id\":901,\"body\":\"x\"}");
    HttpCalls.Answer replayed = http.mutate("claim", "ada@acme", k, "{\"id\":901,\"body\":\"x\"}");
    assertAll(
        () -> assertEquals(409, refused.status()),
        () -> assertEquals("X_NOTE_TAKEN", refused.field("code")),
        () -> assertEquals("Note 901 is already claimed.", refused.field("cause")),
        () -> assertEquals("Claim another note.", refused.field("fix")),
        () -> assertEquals(409, replayed.status()),
        () -> assertEquals(refused.body(), replayed.body()),
        () -> assertEquals(before + 1, WriteDeclarations.CLAIM_RUNS.get(), "the replay ran nothing"),
        () -> assertEquals(0, count("SELECT count(*) FROM notes WHERE id = 901"), "the refused effect rolled back"),
        () -> assertEquals(1, count("SELECT count(*) FROM runnel.idempotency WHERE key = '" + k + "' AND status = 409"),
            "only the stored answer committed"));
  }

  @Test
  void aSerializationFailureIsRetriedAndCommitsOnce() throws Exception {
    try (Connection c = db.connect()) {
      c.createStatement().execute("INSERT INTO counters VALUES ('serial', 0)");
    }
    HttpCalls.Answer a = http.mutate("serialBump", "ada@acme", key(), "{\"name\":\"serial\"}");
    assertAll(
        () -> assertEquals(200, a.status(), a.body()),
        () -> assertEquals(2, WriteDeclarations.SERIAL_RUNS.get(), "the first attempt failed with 40001, one retry"),
        () -> assertEquals("2", a.field("result"), "the retry saw the other session's bump"),
        () -> assertEquals(2, counter("serial"), "one bump by the other session, one by the call: committed once"));
  }

  @Test
  void everyRefusalOfTheRouteHasItsStatusCodeAndFix() throws Exception {
    String big = "{\"input\":{\"name\":\"" + "x".repeat(HttpApi.MAX_BODY_BYTES) + "\"}}";
    Map<String, String> json = Map.of("Content-Type", "application/json");
    List<Object[]> cases = List.of(
        new Object[] {"no credentials", http.mutate("bump", Map.of("Idempotency-Key", key()), "{\"input\":{}}"),
            401, "X_SOCKET_UNAUTHENTICATED"},
        new Object[] {"no key", http.mutate("bump", Map.of("Authorization", "Bearer ada@acme"), "{\"input\":{}}"),
            400, "X_IDEMPOTENCY_KEY_REQUIRED"},
        new Object[] {"a key of 129 characters", http.mutate("bump", "ada@acme", "k".repeat(129), "{\"name\":\"r\"}"),
            400, "X_IDEMPOTENCY_KEY_REQUIRED"},
        new Object[] {"a key with a space", http.mutate("bump", "ada@acme", "a b", "{\"name\":\"r\"}"),
            400, "X_IDEMPOTENCY_KEY_REQUIRED"},
        new Object[] {"an unknown mutator", http.mutate("nope", "ada@acme", key(), "{}"), 404, "X_MUTATOR_UNKNOWN"},
        new Object[] {"the policy", http.mutate("adminOnly", "ada@acme", key(), "{}"), 403, "X_FORBIDDEN"},
        new Object[] {"a wrong field type", http.mutate("bump", "ada@acme", key(), "{\"name\":5}"),
            422, "X_INPUT_INVALID"},
        new Object[] {"an unknown field", http.mutate("bump", "ada@acme", key(), "{\"name\":\"a\",\"extra\":1}"),
            422, "X_INPUT_INVALID"},
        new Object[] {"a body that is not JSON", http.mutate("bump", Map.of("Authorization", "Bearer ada@acme",
            "Idempotency-Key", key()), "{not json"), 422, "X_INPUT_INVALID"},
        new Object[] {"a body without input", http.mutate("bump", Map.of("Authorization", "Bearer ada@acme",
            "Idempotency-Key", key()), "{\"name\":\"r\"}"), 422, "X_INPUT_INVALID"},
        new Object[] {"a body over 1 MiB", http.mutate("bump", Map.of("Authorization", "Bearer ada@acme",
            "Idempotency-Key", key()), big), 413, "X_PAYLOAD_TOO_LARGE"});
    List<Executable> checks = new ArrayList<>();
    for (Object[] c : cases) {
      HttpCalls.Answer a = (HttpCalls.Answer) c[1];
      checks.add(() -> assertEquals(c[2], a.status(), c[0] + ": " + a.body()));
      checks.add(() -> assertEquals(c[3], a.field("code"), c[0] + ": " + a.body()));
      checks.add(() -> assertFalse(a.field("cause").isBlank() || a.field("fix").isBlank(), c[0] + ": " + a.body()));
    }
    HttpCalls.Answer wrongType = (HttpCalls.Answer) cases.get(6)[1];
    checks.add(() -> assertTrue(wrongType.field("cause").contains("name"), "the field is named: " + wrongType.body()));
    assertAll(checks);
    assertEquals(0, counter("r"), "no refused call ran");
    assertTrue(json.containsKey("Content-Type"));
  }

  @Test
  void aCookieAuthenticatedPostFromAForeignOriginIsRefusedButABearerCallIsNot() throws Exception {
    String host = "127.0.0.1:" + node.port();
    HttpCalls.Answer foreignCookie = http.mutate("bump", Map.of("Cookie", "runnel_session=ada@acme",
        "Idempotency-Key", key(), "Origin", "https://evil.example"), "{\"input\":{\"name\":\"origin\"}}");
    HttpCalls.Answer sameOriginCookie = http.mutate("bump", Map.of("Cookie", "runnel_session=ada@acme",
        "Idempotency-Key", key(), "Origin", "http://" + host), "{\"input\":{\"name\":\"origin\"}}");
    HttpCalls.Answer foreignBearer = http.mutate("bump", Map.of("Authorization", "Bearer ada@acme",
        "Idempotency-Key", key(), "Origin", "https://evil.example"), "{\"input\":{\"name\":\"origin\"}}");
    HttpCalls.Answer foreignTicket = http.method("POST", "/v1/tickets", Map.of("Cookie", "runnel_session=ada@acme",
        "Origin", "https://evil.example"));
    assertAll(
        () -> assertEquals(403, foreignCookie.status()),
        () -> assertEquals("X_ORIGIN_REFUSED", foreignCookie.field("code")),
        () -> assertEquals(200, sameOriginCookie.status(), sameOriginCookie.body()),
        () -> assertEquals(200, foreignBearer.status(), "a bearer call is not cookie-bound"),
        () -> assertEquals(403, foreignTicket.status(), "nor is a ticket handed to a foreign page by cookie"),
        () -> assertNotNull(foreignTicket.field("fix")),
        () -> assertEquals(null, foreignBearer.header("Access-Control-Allow-Origin"), "CORS only for configured"),
        () -> assertEquals(2, counter("origin")));
  }
  @Test
  void aPatchNamesExactlyTheWriteThatMadeItAndNoOtherCallsDigest() throws Exception {
    ProtocolClient<JsonObject> ada = Sockets.open(node.port(), Map.of("Authorization", "Bearer ada@echo"));
    ada.send("{\"t\":\"sub\",\"sid\":\"s\",\"q\":\"notes\",\"in\":{}}");
    assertEquals("snapshot", str(ada.next(), "t"));
    String k1 = key();
    HttpCalls.Answer mine = http.mutate("addNote", "ada@echo", k1, "{\"id\":1001,\"body\":\"mine\"}");
    JsonObject first = ada.next();
    HttpCalls.Answer bobs = http.mutate("addNote", "bob@echo", key(), "{\"id\":1002,\"body\":\"bob's\"}");
    JsonObject second = ada.next();
    HttpCalls.Answer hidden = http.mutate("addNote", "eve@elsewhere", key(), "{\"id\":1003,\"body\":\"x\"}");
    HttpCalls.Answer untouched = http.mutate("bump", "ada@echo", key(), "{\"name\":\"echo\"}");
    HttpCalls.Answer last = http.mutate("addNote", "ada@echo", key(), "{\"id\":1004,\"body\":\"last\"}");
    JsonObject third = ada.next();
    assertAll(
        () -> assertEquals(200, mine.status(), mine.body()),
        () -> assertEquals(200, hidden.status(), hidden.body()),
        () -> assertEquals(200, untouched.status(), untouched.body()),
        () -> assertEquals("patch", str(first, "t")),
        () -> assertEquals(List.of(mine.field("write")), strings(first, "writes")),
        () -> assertEquals(List.of(bobs.field("write")), strings(second, "writes")),
        () -> assertEquals(List.of(last.field("write")), strings(third, "writes"),
            "the next patch is the next visible write: another tenant's and an unseen write sent nothing"),
        () -> assertTrue(third.toString().contains("\"key\":\"1004\""), third.toString()),
        () -> assertFalse(first.toString().contains(k1), "the key never travels on the socket"));
    ada.close();
  }

  @Test
  void aWriteThatChangesNothingASocketSeesIsSettledByTheHelloLsnReachingItsAnswerLsn() throws Exception {
    ProtocolClient<JsonObject> ada = Sockets.open(node.port(), Map.of("Authorization", "Bearer ada@settle"));
    ada.send("{\"t\":\"sub\",\"sid\":\"s\",\"q\":\"notes\",\"in\":{}}");
    assertEquals("snapshot", str(ada.next(), "t"));
    HttpCalls.Answer a = http.mutate("bump", "ada@settle", key(), "{\"name\":\"unseen\"}");
    String lsn = a.field("lsn");
    LiveFixtureAccess.await("the node delivers through " + lsn,
        () -> node.stats().delivered().compareTo(Position.parse(lsn)) >= 0);
    ada.send("{\"t\":\"hello\",\"v\":1}");
    JsonObject hello = ada.next();
    assertAll(
        () -> assertEquals("hello", str(hello, "t"), "no patch came: the write changed nothing ada sees"),
        () -> assertTrue(str(hello, "lsn").compareTo(lsn) >= 0, "hello " + hello + " settles the answer at " + lsn));
    ada.close();
  }

  @Test
  void metricsCountCallsByMutatorAndOutcomeAndRefusalsByCode() throws Exception {
    String k = key();
    http.mutate("bump", "ada@acme", k, "{\"name\":\"metered\"}");
    http.mutate("bump", "ada@acme", k, "{\"name\":\"metered\"}");
    http.mutate("bump", "ada@acme", k, "{\"name\":\"other\"}");
    http.mutate("nope", "ada@acme", key(), "{}");
    String metrics = http.get("/metrics", Map.of()).body();
    assertAll(
        () -> assertTrue(metrics.contains("runnel_mutations_seconds_count{mutator=\"bump\",outcome=\"ok\"}"), metrics),
        () -> assertTrue(metrics.contains("runnel_mutations_seconds_count{mutator=\"bump\",outcome=\"replayed\"}")),
        () -> assertTrue(metrics.contains("runnel_mutations_seconds_count{mutator=\"bump\",outcome=\"reused\"}")),
        () -> assertTrue(metrics.contains("runnel_refusals_total{code=\"X_MUTATOR_UNKNOWN\"}"), metrics));
  }

  static String str(JsonObject frame, String field) {
    return ((JsonString) frame.get(field)).value();
  }

  static List<String> strings(JsonObject frame, String field) {
    List<String> out = new ArrayList<>();
    for (JsonValue v : ((JsonArray) frame.get(field)).elements()) {
      out.add(((JsonString) v).value());
    }
    return out;
  }
}
