package io.runnel.sync;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.select;
import static io.runnel.sync.SyncNodeTest.str;
import static io.runnel.sync.SyncNodeTest.t;
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
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.sync.socket.AdmissionLimits;
import io.runnel.testing.Await;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ManualClock;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Admission caps as reservations, over real sockets: the accept budget, sockets per node and per actor (per client
 * network when anonymous), subscriptions per socket, per actor and per tenant, and windows per node, each under a
 * burst of concurrent upgrades or of {@code sub} frames written at once. Each test starts a node of its own with the
 * caps it checks, on one PostgreSQL and one replicator; tokens are {@code user@org}, no token is anonymous.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdmissionTest {

  static final EntityRef NOTES = EntityRef.of("notes").key("id").columns(c -> c.int4("id").text("org").text("body"));
  static final Entity NOTES_ENTITY = Entity.of(NOTES).table("public.notes").tenant("org");
  static final QueryRef<NoInput> ALL = QueryRef.live("notes", NoInput.CODEC, in -> select(NOTES).orderBy(asc("id")));
  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(ALL).on(NOTES_ENTITY).policy(Policy.authenticated())).build();

  LiveFixtureAccess fixture;
  final ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE notes (id int PRIMARY KEY, org text, body text)");
    fixture = LiveFixtureAccess.start(db, "admission", List.of(NOTES_ENTITY));
  }

  @AfterAll
  void stop() {
    pool.close();
    fixture.close();
  }

  SyncNode node(AdmissionLimits limits, ManualClock clock) {
    SyncNode node = SyncNode.builder().declarations(DECLARATIONS).transport(fixture.bus()).dataSource(fixture.pool())
        .authenticator(ChannelFixture.IDENTITIES).clock(clock).monotonic(clock::nanos).admissionLimits(limits)
        .listen("127.0.0.1", 0)
        .build();
    node.start();
    return node;
  }

  static ManualClock clock() {
    return ManualClock.at(Instant.parse("2026-12-01T09:00:00Z"));
  }

  static Map<String, String> as(String token) {
    return token == null ? Map.of() : Map.of("Authorization", "Bearer " + token);
  }

  /** Runs every task at once and answers their results in order. */
  <T> List<T> together(List<Callable<T>> tasks) throws Exception {
    List<Future<T>> futures = new ArrayList<>();
    for (Callable<T> task : tasks) {
      futures.add(pool.submit(task));
    }
    List<T> out = new ArrayList<>();
    for (Future<T> f : futures) {
      out.add(f.get());
    }
    return out;
  }

  static long count(List<RawSocket.Upgrade> upgrades, int status) {
    return upgrades.stream().filter(u -> u.status() == status).count();
  }

  @Test
  void theAcceptBudgetShedsWithRetryAfterAndRefundsEveryUpgradeThatOpensNoSocket() throws Exception {
    ManualClock clock = clock();
    try (SyncNode node = node(AdmissionLimits.DEFAULTS.withAcceptBudget(1, 3), clock)) {
      List<RawSocket.Upgrade> unauthenticated = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        unauthenticated.add(RawSocket.attempt(node.port(), as("no-at-sign"), 0));
      }
      List<RawSocket.Upgrade> admitted = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        admitted.add(RawSocket.attempt(node.port(), as("u" + i + "@acme"), 0));
      }
      RawSocket.Upgrade shed = RawSocket.attempt(node.port(), as("u9@acme"), 0);
      clock.advance(Duration.ofSeconds(1));
      RawSocket.Upgrade refilled = RawSocket.attempt(node.port(), as("u9@acme"), 0);
      assertAll(
          () -> assertEquals(6, count(unauthenticated, 401), "a 401 gives its token back: six pass a budget of three"),
          () -> assertEquals(3, count(admitted, 101), "the budget's three tokens are intact"),
          () -> assertEquals(503, shed.status(), shed.body()),
          () -> assertTrue(shed.body().contains("\"code\":\"X_SOCKET_LIMIT\""), shed.body()),
          () -> assertEquals("1", shed.headers().get("retry-after"), "one token a second: retry after 1 s"),
          () -> assertEquals(101, refilled.status(), "a second later one token is back"));
      for (RawSocket.Upgrade s : admitted) {
        s.close();
      }
      refilled.close();
    }
  }

  @Test
  void socketsPerNodeHoldUnderABurstOfUpgradesAndASlotFreesWhenASocketCloses() throws Exception {
    try (SyncNode node = node(AdmissionLimits.DEFAULTS.withSockets(5, 16), clock())) {
      List<Callable<RawSocket.Upgrade>> burst = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        String token = "u" + i + "@acme";
        burst.add(() -> RawSocket.attempt(node.port(), as(token), 0));
      }
      List<RawSocket.Upgrade> upgrades = together(burst);
      RawSocket.Upgrade refused = upgrades.stream().filter(u -> u.status() != 101).findFirst().orElseThrow();
      RawSocket.Upgrade open = upgrades.stream().filter(u -> u.status() == 101).findFirst().orElseThrow();
      open.close();
      RawSocket.Upgrade again = awaitAdmitted(node, "late@acme");
      assertAll(
          () -> assertEquals(5, count(upgrades, 101), "exactly the cap opened"),
          () -> assertEquals(15, count(upgrades, 503), "the rest were shed"),
          () -> assertTrue(refused.body().contains("\"code\":\"X_SOCKET_LIMIT\""), refused.body()),
          () -> assertEquals("5", refused.headers().get("retry-after")),
          () -> assertEquals(101, again.status(), "a closed socket's slot is given back"));
      for (RawSocket.Upgrade u : upgrades) {
        u.close();
      }
      again.close();
    }
  }

  @Test
  void socketsPerActorHoldUnderABurstAndAnonymousActorsCountPerClientNetwork() throws Exception {
    try (SyncNode node = node(AdmissionLimits.DEFAULTS.withSockets(1_000, 3), clock())) {
      List<Callable<RawSocket.Upgrade>> burst = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        burst.add(() -> RawSocket.attempt(node.port(), as("ada@acme"), 0));
      }
      for (int i = 0; i < 6; i++) {
        burst.add(() -> RawSocket.attempt(node.port(), Map.of(), 0));
      }
      List<RawSocket.Upgrade> upgrades = together(burst);
      List<RawSocket.Upgrade> ada = upgrades.subList(0, 10);
      List<RawSocket.Upgrade> anonymous = upgrades.subList(10, 16);
      RawSocket.Upgrade bob = RawSocket.attempt(node.port(), as("bob@acme"), 0);
      RawSocket.Upgrade refused = ada.stream().filter(u -> u.status() != 101).findFirst().orElseThrow();
      assertAll(
          () -> assertEquals(3, count(ada, 101), "three of ada's ten"),
          () -> assertEquals(7, count(ada, 429), "the others: 429"),
          () -> assertTrue(refused.body().contains("\"code\":\"X_SOCKET_LIMIT\""), refused.body()),
          () -> assertTrue(refused.headers().containsKey("retry-after")),
          () -> assertEquals(3, count(anonymous, 101), "anonymous sockets from 127.0.0.1 share one cap"),
          () -> assertEquals(101, bob.status(), "another actor is not held back"));
      for (RawSocket.Upgrade u : upgrades) {
        u.close();
      }
      bob.close();
    }
  }

  @Test
  void subscriptionsPerSocketHoldForSubFramesWrittenAtOnceAndAnUnsubFreesASlot() throws Exception {
    try (SyncNode node = node(AdmissionLimits.DEFAULTS.withSubscriptions(5, 1_000, 100_000), clock())) {
      RawSocket c = RawSocket.open(node.port(), "ada@subs", 0);
      c.writeAll(subs("s", 10));
      List<JsonObject> answers = frames(c, 10);
      c.writeAll(List.of("{\"t\":\"unsub\",\"sid\":\"s0\"}", sub("again")));
      JsonObject again = frame(c);
      assertAll(
          () -> assertEquals(5, answers.stream().filter(f -> t(f).equals("snapshot")).count()),
          () -> assertEquals(5, answers.stream().filter(f -> t(f).equals("refuse")
              && str(f, "code").equals("X_SUBSCRIPTION_LIMIT")).count()),
          () -> assertEquals("snapshot", t(again), "the unsub gave its slot back"));
      c.close();
    }
  }

  @Test
  void subscriptionsPerActorAndPerTenantHoldAcrossSockets() throws Exception {
    try (SyncNode node = node(AdmissionLimits.DEFAULTS.withSubscriptions(128, 4, 6), clock())) {
      RawSocket ada1 = RawSocket.open(node.port(), "ada@tenant", 0);
      RawSocket ada2 = RawSocket.open(node.port(), "ada@tenant", 0);
      RawSocket bob = RawSocket.open(node.port(), "bob@tenant", 0);
      together(List.<Callable<Void>>of(() -> {
        ada1.writeAll(subs("a", 3));
        return null;
      }, () -> {
        ada2.writeAll(subs("b", 3));
        return null;
      }));
      List<JsonObject> atAda = new ArrayList<>(frames(ada1, 3));
      atAda.addAll(frames(ada2, 3));
      bob.writeAll(subs("c", 4));
      List<JsonObject> atBob = frames(bob, 4);
      assertAll(
          () -> assertEquals(4, atAda.stream().filter(f -> t(f).equals("snapshot")).count(), "ada's four"),
          () -> assertEquals(2, atAda.stream().filter(f -> t(f).equals("refuse")).count()),
          () -> assertEquals(2, atBob.stream().filter(f -> t(f).equals("snapshot")).count(),
              "the tenant's six: ada holds four, so bob gets two"),
          () -> assertTrue(atBob.stream().filter(f -> t(f).equals("refuse"))
              .allMatch(f -> str(f, "code").equals("X_SUBSCRIPTION_LIMIT")
                  && str(f, "cause").contains("organisation"))));
      ada1.close();
      ada2.close();
      bob.close();
    }
  }

  @Test
  void windowsPerNodeLetGoOfAnIdleWindowFirstAndRefuseOnlyWhenEveryWindowHasSubscribers() throws Exception {
    try (SyncNode node = node(AdmissionLimits.DEFAULTS.withWindows(2), clock())) {
      ProtocolClient<JsonObject> a = Sockets.open(node.port(), as("ada@w1"));
      ProtocolClient<JsonObject> b = Sockets.open(node.port(), as("bob@w2"));
      ProtocolClient<JsonObject> c = Sockets.open(node.port(), as("cy@w3"));
      a.send("{\"t\":\"sub\",\"sid\":\"s\",\"q\":\"notes\",\"in\":{}}");
      JsonObject first = a.next();
      b.send("{\"t\":\"sub\",\"sid\":\"s\",\"q\":\"notes\",\"in\":{}}");
      JsonObject second = b.next();
      c.send("{\"t\":\"sub\",\"sid\":\"s\",\"q\":\"notes\",\"in\":{}}");
      JsonObject third = c.next();
      a.send("{\"t\":\"unsub\",\"sid\":\"s\"}");
      ChannelFixture.until(a);
      c.send("{\"t\":\"sub\",\"sid\":\"s2\",\"q\":\"notes\",\"in\":{}}");
      JsonObject afterIdle = c.next();
      assertAll(
          () -> assertEquals("snapshot", t(first)),
          () -> assertEquals("snapshot", t(second)),
          () -> assertEquals("refuse", t(third), "a third tenant's window passes the cap of two"),
          () -> assertEquals("X_SUBSCRIPTION_LIMIT", str(third, "code")),
          () -> assertEquals("snapshot", t(afterIdle), "w1's window, idle now, made room"),
          () -> assertEquals(2, node.stats().live().windows()));
      a.close();
      b.close();
      c.close();
    }
  }

  @Test
  void windowsPerNodeHoldForSubFramesOfManyTenantsWrittenAtOnceAndAnUnsubGivesTheSlotBack() throws Exception {
    int n = 8;
    try (SyncNode node = node(AdmissionLimits.DEFAULTS.withWindows(2), clock())) {
      List<RawSocket> sockets = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        sockets.add(RawSocket.open(node.port(), "u" + i + "@burst" + i, 0));
      }
      CyclicBarrier start = new CyclicBarrier(n);
      List<Callable<JsonObject>> burst = new ArrayList<>();
      for (RawSocket s : sockets) {
        burst.add(() -> {
          start.await(30, TimeUnit.SECONDS);
          s.send(sub("s"));
          return frame(s);
        });
      }
      List<JsonObject> answers = together(burst);
      int windowsAfterBurst = node.stats().live().windows();
      int admitted = indexOf(answers, "snapshot");
      int refused = indexOf(answers, "refuse");
      sockets.get(admitted).writeAll(List.of("{\"t\":\"unsub\",\"sid\":\"s\"}", "{\"t\":\"hello\",\"v\":1}"));
      JsonObject unsubbed = frame(sockets.get(admitted));
      sockets.get(refused).send(sub("s"));
      JsonObject again = frame(sockets.get(refused));
      RawSocket other = sockets.get(indexOf(answers.subList(refused + 1, n), "refuse") + refused + 1);
      other.send(sub("s"));
      JsonObject stillFull = frame(other);
      assertAll(
          () -> assertEquals(2, answers.stream().filter(f -> t(f).equals("snapshot")).count(),
              "exactly the cap of two tenants' windows opened: " + answers),
          () -> assertEquals(n - 2, answers.stream().filter(f -> t(f).equals("refuse")
              && str(f, "code").equals("X_SUBSCRIPTION_LIMIT")).count(), "the rest were refused: " + answers),
          () -> assertEquals(2, windowsAfterBurst, "a refused sub leaves no window behind"),
          () -> assertEquals("hello", t(unsubbed), "the unsub is answered by nothing but the hello after it"),
          () -> assertEquals("snapshot", t(again), "the unsubscribed tenant's window, idle now, made room"),
          () -> assertEquals("X_SUBSCRIPTION_LIMIT", str(stillFull, "code"), "one slot came back, not more"),
          () -> assertEquals(2, node.stats().live().windows()));
      for (RawSocket s : sockets) {
        s.close();
      }
    }
  }

  /** The index of the first frame of kind {@code kind} in {@code frames}; fails when there is none. */
  static int indexOf(List<JsonObject> frames, String kind) {
    for (int i = 0; i < frames.size(); i++) {
      if (t(frames.get(i)).equals(kind)) {
        return i;
      }
    }
    throw new AssertionError("no " + kind + " among " + frames);
  }

  /**
   * Upgrades as {@code token} until admitted (a closed socket's slot comes back when the node sees the close), for at
   * most 20 s; answers the last attempt, admitted or not.
   */
  static RawSocket.Upgrade awaitAdmitted(SyncNode node, String token) throws Exception {
    RawSocket.Upgrade[] last = {null};
    try {
      Await.until(() -> token + " is admitted, last answered " + last[0].status() + " " + last[0].body(),
          Duration.ofSeconds(20), Duration.ofMillis(20), () -> {
            last[0] = RawSocket.attempt(node.port(), as(token), 0);
            return last[0].status() == 101;
          });
    } catch (AssertionError notAdmitted) {
      // The last refusal goes back to the caller, whose assertions report it beside the others.
    }
    return last[0];
  }

  static String sub(String sid) {
    return "{\"t\":\"sub\",\"sid\":\"" + sid + "\",\"q\":\"notes\",\"in\":{}}";
  }

  /** {@code n} {@code sub} frames of the query {@code notes}, sids {@code prefix0…}. */
  static List<String> subs(String prefix, int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(sub(prefix + i));
    }
    return out;
  }

  static JsonObject frame(RawSocket c) throws IOException {
    return (JsonObject) Json.parse(c.read());
  }

  static List<JsonObject> frames(RawSocket c, int n) throws IOException {
    List<JsonObject> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(frame(c));
    }
    return out;
  }
}
