package io.runnel.sync;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.runnel.bus.InProcessTransport;
import io.runnel.dsl.Actor;
import io.runnel.dsl.ChannelRef;
import io.runnel.dsl.server.Channel;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Policy;
import io.runnel.sync.auth.Authenticator;
import io.runnel.sync.auth.Grant;
import io.runnel.testing.ManualClock;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A sync node serving channels on a real PostgreSQL (its idempotency table and pool) and an in-process bus, with a
 * manual clock and a manual ticker, so presence timeouts and diff coalescing are driven by hand. Identities are
 * plain tokens: {@code user@org} (or {@code user@}) is that actor; no token is the anonymous actor.
 */
final class ChannelFixture implements AutoCloseable {

  /** Rooms: presence, the event {@code typing}; open to everyone except rooms named {@code private…}. */
  static final ChannelRef ROOM = ChannelRef.of("room", "roomId");
  /** An organisation: the event {@code ping}, no presence; members of that org only. */
  static final ChannelRef ORG = ChannelRef.of("org", "orgId");
  /** The lobby: no params, presence, the event {@code wave}; public, anonymous actors included. */
  static final ChannelRef LOBBY = ChannelRef.of("lobby");
  /** Pairs: two params, events {@code hi}; public. */
  static final ChannelRef PAIR = ChannelRef.of("pair", "a", "b");
  /** A channel whose policy throws. */
  static final ChannelRef BROKEN = ChannelRef.of("broken", "x");

  static final Declarations DECLARATIONS = Declarations.builder()
      .channel(Channel.of(ROOM).presence().events("typing")
          .policy(Policy.custom("rooms but private ones", (actor, p) -> !p.get("roomId").startsWith("private"))))
      .channel(Channel.of(ORG).events("ping").policy(Policy.memberOfParam("orgId")))
      .channel(Channel.of(LOBBY).presence().events("wave").policy(Policy.allowPublic()))
      .channel(Channel.of(PAIR).events("hi").policy(Policy.allowPublic()))
      .channel(Channel.of(BROKEN).events("x").policy(Policy.custom("broken", (actor, p) -> {
        throw new IllegalStateException("the app's policy broke");
      })))
      .build();

  /** {@code user@org} names the actor; no token is anonymous. */
  static final Authenticator IDENTITIES = credentials -> {
    String token = credentials.token();
    if (token == null) {
      return new Grant(Actor.anonymous(), Long.MAX_VALUE);
    }
    int at = token.indexOf('@');
    if (at < 1) {
      return null;
    }
    String org = token.substring(at + 1);
    return new Grant(new Actor(token.substring(0, at), org.isEmpty() ? null : org, Set.of(), Set.of()),
        Long.MAX_VALUE);
  };

  final ManualClock clock = ManualClock.at(Instant.parse("2026-12-01T09:00:00Z"));
  final ManualTicker ticker = new ManualTicker();
  final InProcessTransport bus = InProcessTransport.create();
  final HikariDataSource pool;
  final SyncNode node;
  private final HttpClient http = HttpClient.newHttpClient();

  ChannelFixture(TestDatabase db, UnaryOperator<SyncNode.Builder> settings) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.jdbcUrl());
    config.setUsername("postgres");
    config.setPassword("postgres");
    config.setMaximumPoolSize(4);
    pool = new HikariDataSource(config);
    node = settings.apply(SyncNode.builder().declarations(DECLARATIONS).transport(bus).dataSource(pool)
        .authenticator(IDENTITIES).clock(clock).channelTicker(ticker).heartbeat(Duration.ofSeconds(10))
        .nodeId("channels-node").listen("127.0.0.1", 0)).build();
    node.start();
  }

  /** A socket as {@code token} ({@code user@org}), or anonymous when null. */
  ProtocolClient<JsonObject> connect(@Nullable String token) {
    return Sockets.open(node.port(), token == null ? Map.of() : Map.of("Authorization", "Bearer " + token));
  }

  /** The text of a {@code join} of {@code topic}, with {@code presence} as meta when given. */
  static String join(String topic, @Nullable JsonObject presence) {
    return "{\"t\":\"join\",\"topic\":\"" + topic + "\"" + (presence == null ? "" : ",\"presence\":" + presence) + "}";
  }

  /** {@code { "name": name }}. */
  static JsonObject meta(String name) {
    return JsonObject.builder().put("name", name).build();
  }

  /**
   * Sends a {@code hello} and returns the frames that came before its answer: every frame the node queued on this
   * socket before it read the hello (so the frames sent before it were all handled).
   */
  static List<JsonObject> until(ProtocolClient<JsonObject> c) throws InterruptedException {
    c.send("{\"t\":\"hello\",\"v\":1}");
    List<JsonObject> before = new ArrayList<>();
    for (JsonObject f = c.next(); !SyncNodeTest.t(f).equals("hello"); f = c.next()) {
      before.add(f);
    }
    return before;
  }

  /** {@code POST /v1/channels/{topic}/events} with {@code body}, as {@code token} (anonymous when null). */
  HttpResponse<String> event(@Nullable String token, String topic, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port() + "/v1/channels/"
        + topic.replace("%", "%25") + "/events")).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(30));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The Prometheus text of {@code /metrics}. */
  String metrics() throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port() + "/metrics"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  @Override
  public void close() {
    node.stop();
    pool.close();
    bus.close();
  }
}
