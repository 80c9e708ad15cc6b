package io.runnel.sync;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.EntityRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.sync.socket.SocketLimits;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ManualClock;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** A quiet socket that beats stays up; a silent one is closed 4001; a snapshot larger than the bound arrives whole. */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SyncNodeLivenessTest {

  static final EntityRef ROWS = EntityRef.of("big_rows").key("id").columns(c -> c.int4("id").text("org").text("body"));
  static final Entity ROWS_ENTITY = Entity.of(ROWS).table("public.big_rows").tenant("org");
  static final QueryRef<NoInput> ALL = QueryRef.live("bigRows", NoInput.CODEC,
      in -> select(ROWS).orderBy(asc("id")).limit(10_000));
  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(ALL).on(ROWS_ENTITY).policy(Policy.authenticated())).build();

  final ManualClock clock = ManualClock.at(Instant.parse("2026-11-29T12:00:00Z"));
  LiveFixtureAccess fixture;
  SyncNode node;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE big_rows (id int PRIMARY KEY, org text, body text)");
    fixture = LiveFixtureAccess.start(db, "liveness", List.of(ROWS_ENTITY));
    node = SyncNode.builder().declarations(DECLARATIONS).transport(fixture.bus()).dataSource(fixture.pool())
        .authenticator(JwtAuthenticator.hs256(SyncNodeTest.SECRET).build()).clock(clock).monotonic(clock::nanos)
        .listen("127.0.0.1", 0)
        .limits(new SocketLimits(256 * 1024, 64 * 1024, 32, Duration.ofSeconds(120), Duration.ofSeconds(10)))
        .build();
    node.start();
  }

  @AfterAll
  void stop() {
    node.stop();
    fixture.close();
  }

  @Test
  void aQuietSocketThatBeatsIsAnsweredEachTimeAndOneThatStopsIsClosed4001() throws Exception {
    ProtocolClient<JsonObject> c = open("quiet", "q-org");
    CompletableFuture<Integer> closed = c.closedByNode();
    c.send("{\"t\":\"sub\",\"sid\":\"s\",\"q\":\"bigRows\",\"in\":{}}");
    assertEquals("snapshot", SyncNodeTest.t(c.next()));
    for (int beat = 0; beat < 30; beat++) {
      clock.advance(Duration.ofSeconds(10));
      c.send("{\"t\":\"hello\",\"v\":1}");
      assertEquals("hello", SyncNodeTest.t(c.next()), "beat " + beat + " answered");
    }
    assertTrue(!closed.isDone(), "300 s of beats on a quiet subscription: still open");
    clock.advance(Duration.ofSeconds(121));
    assertEquals(4001, closed.get(10, TimeUnit.SECONDS), "silent past the idle budget");
  }

  @Test
  void aFrameFloodIsRefusedWithItsCodeAndTheSocketKeepsServingAfterTheBucketRefills() throws Exception {
    ProtocolClient<JsonObject> c = open("flood", "f-org");
    for (int i = 0; i < 300; i++) {
      c.send("{\"t\":\"hello\",\"v\":1}");
    }
    int hellos = 0;
    int refusals = 0;
    for (int i = 0; i < 300; i++) {
      JsonObject f = c.next();
      if (SyncNodeTest.t(f).equals("hello")) {
        hellos++;
      } else if (SyncNodeTest.str(f, "code").equals("X_FRAME_RATE_LIMIT")) {
        refusals++;
      }
    }
    clock.advance(Duration.ofSeconds(5));
    c.send("{\"t\":\"hello\",\"v\":1}");
    JsonObject after = c.next();
    int answered = hellos;
    int refused = refusals;
    assertAll(
        () -> assertEquals(256, answered, "the burst is served"),
        () -> assertEquals(44, refused, "the rest are refused, the socket stays up"),
        () -> assertEquals("hello", SyncNodeTest.t(after), "served again once the bucket refilled"));
    c.close();
  }

  @Test
  void aSnapshotOfTenThousandRowsLargerThanTheOutboundBoundArrivesWhole() throws Exception {
    fixture.commit("INSERT INTO big_rows SELECT g, 'big-org', repeat('x', 40) FROM generate_series(1, 10000) g");
    ProtocolClient<JsonObject> c = open("big", "big-org");
    c.send("{\"t\":\"sub\",\"sid\":\"all\",\"q\":\"bigRows\",\"in\":{}}");
    JsonObject snapshot = c.next();
    assertAll(
        () -> assertEquals("snapshot", SyncNodeTest.t(snapshot)),
        () -> assertEquals(10_000, ((JsonArray) snapshot.get("records")).size()),
        () -> assertTrue(snapshot.toString().length() > 64 * 1024, "larger than the 64 KiB bound"));
    c.close();
  }

  private ProtocolClient<JsonObject> open(String actor, String org) throws Exception {
    return ProtocolClient.to(node.port()).bearer(SyncNodeTest.token(actor, org)).open(Sockets::json);
  }
}
