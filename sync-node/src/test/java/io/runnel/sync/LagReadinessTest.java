package io.runnel.sync;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import io.runnel.bus.InProcessTransport;
import io.runnel.replicator.DatabaseUrl;
import io.runnel.replicator.Replicator;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Lag has consequences and an idle database has none: with the replicator's heartbeats a quiet node stays near 0
 * lag and is not degraded; a replicator that stops leaves the node's asOf behind, its lag grows past
 * {@code lagDegraded}, {@code /readyz} stays 200 and lists {@code "replication_lag"}, the {@code hello} answer says
 * the lag, and once the replicator streams again the lag falls and the flag clears.
 */
@FreshDatabase
class LagReadinessTest {

  /**
   * Above an idle node's largest lag: the replicator probes PostgreSQL's clock every 500 ms and an idle heartbeat
   * carries the last probe's time once a second, so an idle node's lag reaches 1.5 s plus scheduling (1,505 ms was
   * seen on a loaded machine with a 1.5 s threshold).
   */
  static final Duration THRESHOLD = Duration.ofMillis(2500);
  final HttpClient http = HttpClient.newHttpClient();

  JsonObject readyz(SyncNode node) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port()
        + "/readyz")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), "degraded or not, the node stays ready: " + r.body());
    return (JsonObject) Json.parse(r.body());
  }

  static List<String> degraded(JsonObject body) {
    return ((JsonArray) body.get("degraded")).elements().stream().map(v -> ((JsonString) v).value()).toList();
  }

  static long number(JsonObject body, String name) {
    return ((JsonNumber) body.get(name)).longValueExact();
  }

  @Test
  void anIdleNodeIsNotDegradedAndAStoppedReplicatorTurnsItDegradedUntilItStreamsAgain(TestDatabase db)
      throws Exception {
    db.execute("CREATE TABLE notes (id int PRIMARY KEY, org text, body text)");
    InProcessTransport bus = InProcessTransport.create();
    HikariDataSource pool = TestPools.of(db.jdbcUrl(), 4);
    Replicator replicator = Replicator.builder().database(DatabaseUrl.parse("test", db.jdbcUrl())).slot("lagging")
        .publication("lagging").entities(List.of(SyncNodeTest.NOTES_ENTITY)).transport(bus).build();
    replicator.start();
    SyncNode node = SyncNode.builder().declarations(SyncNodeTest.DECLARATIONS).transport(bus).dataSource(pool)
        .authenticator(JwtAuthenticator.hs256(SyncNodeTest.SECRET).build()).listen("127.0.0.1", 0)
        .replicator(replicator::stats).lagDegraded(THRESHOLD).build();
    node.start();
    try {
      LiveFixtureAccess.await("the replicator streams",
          () -> replicator.stats().state() == ReplicatorStats.State.STREAMING);
      db.execute("INSERT INTO notes VALUES (1, 'acme', 'then quiet')");
      LiveFixtureAccess.await("the node has an asOf", () -> node.stats().asOf().isPresent());
      // Quiet for twice the threshold: heartbeats keep the asOf moving.
      long quietUntil = System.nanoTime() + THRESHOLD.multipliedBy(2).toNanos();
      JsonObject idle = readyz(node);
      while (System.nanoTime() < quietUntil) {
        idle = readyz(node);
        assertEquals(List.of(), degraded(idle), "an idle database with heartbeats is not degraded: " + idle);
        Thread.sleep(100);
      }
      long serverNow;
      try (Connection c = db.connect(); Statement s = c.createStatement();
          ResultSet r = s.executeQuery("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::int8")) {
        r.next();
        serverNow = r.getLong(1);
      }
      JsonObject quiet = idle;
      assertAll(
          () -> assertTrue(number(quiet, "lagMs") < THRESHOLD.toMillis(), quiet.toString()),
          () -> assertTrue(number(quiet, "asOf") > serverNow - 3_000 && number(quiet, "asOf") <= serverNow,
              "asOf is PostgreSQL's recent time: " + quiet + " vs " + serverNow));

      replicator.stop();
      LiveFixtureAccess.await("the stopped replicator's lag turns the node degraded",
          () -> {
            try {
              return degraded(readyz(node)).equals(List.of("replication_lag"));
            } catch (Exception e) {
              throw new AssertionError(e);
            }
          });
      ProtocolClient<JsonObject> c = Sockets.open(node.port(), Map.of("Authorization", "Bearer "
          + SyncNodeTest.token("ada", "acme")));
      c.send("{\"t\":\"hello\",\"v\":1}");
      JsonObject hello = c.next();
      c.close();
      JsonObject behind = readyz(node);
      assertAll(
          () -> assertEquals("hello", SyncNodeTest.t(hello)),
          () -> assertTrue(number(hello, "lagMs") > THRESHOLD.toMillis(), "hello says the lag: " + hello),
          () -> assertEquals(number(quiet, "asOf") <= number(hello, "asOf"), true, "asOf never goes back"),
          () -> assertTrue(number(behind, "lagMs") > THRESHOLD.toMillis(), behind.toString()),
          () -> assertEquals(true, ((JsonBoolean) behind.get("ready")).value(), behind.toString()));

      replicator.start();
      LiveFixtureAccess.await("the lag falls below half the threshold and the flag clears",
          () -> {
            try {
              return degraded(readyz(node)).isEmpty();
            } catch (Exception e) {
              throw new AssertionError(e);
            }
          });
      assertTrue(number(readyz(node), "lagMs") < THRESHOLD.toMillis(), "caught up");
    } finally {
      node.stop();
      replicator.stop();
      bus.close();
      pool.close();
    }
  }

  @Test
  void aNodeThatNeverHearsAReplicatorIsDegradedOnceItWaitedPastTheThreshold(TestDatabase db) throws Exception {
    InProcessTransport bus = InProcessTransport.create();
    HikariDataSource pool = TestPools.of(db.jdbcUrl(), 2);
    SyncNode node = SyncNode.builder().declarations(SyncNodeTest.DECLARATIONS).transport(bus).dataSource(pool)
        .authenticator(JwtAuthenticator.hs256(SyncNodeTest.SECRET).build()).listen("127.0.0.1", 0)
        .lagDegraded(Duration.ofMillis(300)).build();
    node.start();
    try {
      LiveFixtureAccess.await("a node with no position for longer than the threshold is degraded", () -> {
        try {
          return degraded(readyz(node)).equals(List.of("replication_lag"));
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      });
      JsonObject body = readyz(node);
      assertAll(
          () -> assertEquals(null, body.get("lagMs"), "no position: no lag to say, " + body),
          () -> assertEquals(true, ((JsonBoolean) body.get("ready")).value(), "degraded, still ready"));
    } finally {
      node.stop();
      bus.close();
      pool.close();
    }
  }

  @Test
  void theDegradedFlagTurnsOnPastTheThresholdAndOffOnlyBelowHalfOfIt() {
    assertAll(
        () -> assertEquals(false, Degraded.lagging(false, 5_000, 5_000), "at the threshold: not yet"),
        () -> assertEquals(true, Degraded.lagging(false, 5_001, 5_000), "past it"),
        () -> assertEquals(true, Degraded.lagging(true, 2_500, 5_000), "still, at half"),
        () -> assertEquals(false, Degraded.lagging(true, 2_499, 5_000), "cleared below half"),
        () -> assertEquals(false, Degraded.lagging(false, 3_000, 5_000), "never on below the threshold"));
  }
}
