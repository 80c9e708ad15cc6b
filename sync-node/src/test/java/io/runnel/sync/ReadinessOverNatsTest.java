package io.runnel.sync;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.runnel.bus.NatsConfig;
import io.runnel.bus.NatsTransport;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.NatsServer;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code /readyz} of a sync-only node over a real nats-server: ready while the bus is up, 503 with
 * {@code "bus": "down"} while it is stopped, ready again once the transport reconnects, which
 * {@code runnel_bus_reconnects_total} counts.
 */
@FreshDatabase
class ReadinessOverNatsTest {

  private final HttpClient client = HttpClient.newHttpClient();

  record Reading(int status, JsonObject body) {
    String text(String field) {
      return body.get(field) == null ? null : body.get(field).toString();
    }
  }

  Reading readyz(SyncNode node) throws Exception {
    HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port()
        + "/readyz")).build(), HttpResponse.BodyHandlers.ofString());
    return new Reading(r.statusCode(), (JsonObject) Json.parse(r.body()));
  }

  String metrics(SyncNode node) throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port() + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  @Test
  void aNodeIsReadyOnlyWhileItsBusIsConnectedAndCountsTheReconnect(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE IF NOT EXISTS notes (id int PRIMARY KEY, org text, body text)");
    Path dir = Files.createTempDirectory("readyz-nats");
    try (LiveFixtureAccess fixture = LiveFixtureAccess.start(db, "readyz", List.of(SyncNodeTest.NOTES_ENTITY));
        NatsServer nats = NatsServer.start(dir, Map.of());
        NatsTransport bus = NatsTransport.connect(NatsConfig.parse("test", nats.url()))) {
      SyncNode node = SyncNode.builder().declarations(SyncNodeTest.DECLARATIONS).transport(bus)
          .dataSource(fixture.pool()).authenticator(JwtAuthenticator.hs256(SyncNodeTest.SECRET).build())
          .listen("127.0.0.1", 0).build();
      node.start();
      try {
        Reading up = readyz(node);
        nats.stop();
        LiveFixtureAccess.await("the node sees the bus down", () -> !bus.connected());
        Reading down = readyz(node);
        nats.startAgain();
        LiveFixtureAccess.await("the transport reconnects", () -> {
          try {
            return readyz(node).status() == 200 && metrics(node).contains("runnel_bus_reconnects_total 1.0");
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
        Reading again = readyz(node);
        assertAll(
            () -> assertEquals(200, up.status(), up.body().toString()),
            () -> assertEquals("true", up.text("ready")),
            () -> assertEquals("\"connected\"", up.text("bus")),
            () -> assertEquals("false", up.text("draining")),
            () -> assertEquals("0", up.text("sockets")),
            () -> assertEquals("0", up.text("windows")),
            () -> assertNull(up.text("replicator"), "a sync-only node knows of no replicator"),
            () -> assertNull(up.text("lagMs"), "no transaction arrived yet, so the lag is unknown"),
            () -> assertEquals(503, down.status(), "a node whose bus is down is not ready: " + down.body()),
            () -> assertEquals("false", down.text("ready")),
            () -> assertEquals("\"down\"", down.text("bus")),
            () -> assertEquals("false", down.text("draining"), "not ready, yet not draining"),
            () -> assertEquals(200, again.status(), again.body().toString()),
            () -> assertEquals("\"connected\"", again.text("bus")));
      } finally {
        node.stop();
      }
    }
  }

  @Test
  void aDrainingNodeIsNotReadyWhateverItsBus(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE IF NOT EXISTS notes (id int PRIMARY KEY, org text, body text)");
    try (LiveFixtureAccess fixture = LiveFixtureAccess.start(db, "readyz_drain", List.of(SyncNodeTest.NOTES_ENTITY))) {
      SyncNode node = SyncNode.builder().declarations(SyncNodeTest.DECLARATIONS).transport(fixture.bus())
          .dataSource(fixture.pool()).authenticator(JwtAuthenticator.hs256(SyncNodeTest.SECRET).build())
          .listen("127.0.0.1", 0).build();
      node.start();
      try {
        node.stopAccepting();
        Reading r = readyz(node);
        assertAll(
            () -> assertEquals(503, r.status()),
            () -> assertEquals("false", r.text("ready")),
            () -> assertEquals("true", r.text("draining")),
            () -> assertEquals("\"connected\"", r.text("bus"), "the bus is fine; the drain alone refuses"));
      } finally {
        node.stop();
      }
    }
  }
}
