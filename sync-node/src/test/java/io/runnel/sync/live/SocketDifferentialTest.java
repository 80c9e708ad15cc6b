package io.runnel.sync.live;

import static io.runnel.dsl.Dsl.eq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.runnel.dsl.Actor;
import io.runnel.dsl.Select;
import io.runnel.dsl.server.Query;
import io.runnel.protocol.Position;
import io.runnel.protocol.WireRecord;
import io.runnel.sync.SyncNode;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.testing.EmbeddedPostgresServer;
import io.runnel.testing.TestDatabase;
import io.runnel.testing.Tokens;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The differential check end to end through real sockets: the same random scenarios as {@link
 * LiveWindowDifferentialTest}, each subscriber a real WebSocket client of a {@link SyncNode} that rebuilds its list
 * from the JSON frames alone; after every commit (and a {@code hello} round trip that proves every earlier frame
 * arrived) each list equals a fresh read filtered by the actor's rule.
 */
class SocketDifferentialTest {

  static final String SECRET = "0123456789abcdef0123456789abcdef-socket-differential";
  static TestDatabase db;
  static LiveFixture fixture;
  static SyncNode node;
  static int scenarioIds = 10_000;

  @BeforeContainer
  static void start() throws Exception {
    db = EmbeddedPostgresServer.shared().createDatabase("socket_differential");
    db.execute("CREATE TABLE items (id int PRIMARY KEY, org text, status text, n int, title text, owner text, "
        + "big text)");
    fixture = new LiveFixture(db, "socket_differential", List.of(LiveWindowDifferentialTest.ITEMS_ENTITY));
    node = SyncNode.builder().declarations(LiveWindowDifferentialTest.DECLARATIONS).transport(fixture.bus)
        .dataSource(fixture.pool).authenticator(JwtAuthenticator.hs256(SECRET).build()).listen("127.0.0.1", 0)
        .build();
    node.start();
  }

  @AfterContainer
  static void stop() {
    node.stop();
    fixture.close();
    db.close();
  }

  static String token(Actor actor) throws Exception {
    return Tokens.hs256(SECRET).subject(actor.id()).org(actor.orgId()).permissions(List.copyOf(actor.permissions()))
        .sign();
  }

  /** One client socket holding one subscription's list, rebuilt from frames. */
  static final class Client implements WebSocket.Listener {
    final List<JsonObject> list = new ArrayList<>();
    final BlockingQueue<String> hellos = new LinkedBlockingQueue<>();
    final StringBuilder partial = new StringBuilder();
    /** Written by the socket's thread, read by the test's: copy-on-write, so reading never meets a write. */
    final List<String> frames = new CopyOnWriteArrayList<>();
    volatile String error;
    WebSocket ws;

    @Override
    public synchronized CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        String text = partial.toString();
        partial.setLength(0);
        frames.add(text.length() > 300 ? text.substring(0, 300) + "…" : text);
        apply((JsonObject) Json.parse(text));
      }
      webSocket.request(1);
      return null;
    }

    private void apply(JsonObject f) {
      switch (str(f, "t")) {
        case "hello" -> hellos.add(str(f, "lsn"));
        case "snapshot" -> {
          list.clear();
          for (JsonValue r : ((JsonArray) f.get("records")).elements()) {
            list.add((JsonObject) r);
          }
        }
        case "patch" -> {
          for (JsonValue v : ((JsonArray) f.get("ops")).elements()) {
            JsonObject op = (JsonObject) v;
            String key = str(op, "key");
            int at = indexOf(key);
            if ("del".equals(str(op, "op"))) {
              if (at < 0) {
                error = "del of a key not held: " + key;
              } else {
                list.remove(at);
              }
              continue;
            }
            JsonObject record = JsonObject.builder().put("type", op.get("type")).put("key", op.get("key"))
                .put("row", op.get("row")).build();
            if (!op.members().containsKey("after")) {
              if (at < 0) {
                error = "in-place put of a key not held: " + key;
              } else {
                list.set(at, record);
              }
              continue;
            }
            if (at >= 0) {
              list.remove(at);
            }
            JsonValue after = op.get("after");
            if (after == JsonNull.NULL) {
              list.add(0, record);
            } else {
              int prev = indexOf(((JsonString) after).value());
              if (prev < 0) {
                error = "put after a key not held: " + after;
              } else {
                list.add(prev + 1, record);
              }
            }
          }
        }
        default -> error = "unexpected frame " + f;
      }
    }

    private int indexOf(String key) {
      for (int i = 0; i < list.size(); i++) {
        if (str(list.get(i), "key").equals(key)) {
          return i;
        }
      }
      return -1;
    }

    synchronized List<JsonObject> list() {
      return List.copyOf(list);
    }

    /** Sends a hello and waits for its answer: every frame queued before it has arrived. */
    void roundTrip() throws InterruptedException {
      ws.sendText("{\"t\":\"hello\",\"v\":1}", true).join();
      assertNotNull(hellos.poll(30, TimeUnit.SECONDS), "the hello was answered");
    }
  }

  static String str(JsonObject o, String field) {
    return ((JsonString) o.get(field)).value();
  }

  @Property(tries = 30, shrinking = ShrinkingMode.BOUNDED)
  void everySocketsListEqualsAFreshReadAfterEveryCommit(
      @ForAll("scenarios") LiveWindowDifferentialTest.Scenario scenario) throws Exception {
    int id = ++scenarioIds;
    String[] orgs = {"s" + id + "a", "s" + id + "b"};
    LiveWindowDifferentialTest.Workload w = new LiveWindowDifferentialTest.Workload(id, orgs);
    StringBuilder sql = new StringBuilder();
    for (LiveWindowDifferentialTest.Step s : scenario.initial()) {
      sql.append(w.sql(s));
    }
    if (sql.length() > 0) {
      fixture.commit(sql.toString());
    }
    HttpClient http = HttpClient.newHttpClient();
    List<Client> clients = new ArrayList<>();
    for (LiveWindowDifferentialTest.Sub sub : scenario.subs()) {
      Actor actor = LiveWindowDifferentialTest.actor(orgs[sub.org()], sub.user());
      Client c = new Client();
      c.ws = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30))
          .header("Authorization", "Bearer " + token(actor))
          .buildAsync(URI.create("ws://127.0.0.1:" + node.port() + "/v1/sync"), c)
        .orTimeout(30, TimeUnit.SECONDS).join();
      c.ws.sendText("{\"t\":\"sub\",\"sid\":\"s\",\"q\":\"" + LiveWindowDifferentialTest.QUERIES.get(sub.query()).name()
          + "\",\"in\":" + LiveWindowDifferentialTest.Input.CODEC.encode(sub.input()) + "}", true).join();
      clients.add(c);
    }
    try {
      for (Client c : clients) {
        LiveFixture.await("a snapshot", () -> c.frames.stream().anyMatch(f -> f.startsWith("{\"t\":\"snapshot\"")));
      }
      check(scenario, orgs, clients, "after the snapshots");
      for (int t = 0; t < scenario.transactions().size(); t++) {
        StringBuilder tx = new StringBuilder();
        for (LiveWindowDifferentialTest.Step s : scenario.transactions().get(t)) {
          tx.append(w.sql(s));
        }
        Position settled = fixture.commit(tx.toString());
        LiveFixture.await("the node settles through " + settled, () -> node.settledThrough(settled));
        check(scenario, orgs, clients, "after transaction " + (t + 1) + ": " + tx);
      }
    } finally {
      for (Client c : clients) {
        c.ws.sendClose(1000, "done");
      }
    }
  }

  private static void check(LiveWindowDifferentialTest.Scenario scenario, String[] orgs, List<Client> clients,
      String when) throws Exception {
    for (int i = 0; i < clients.size(); i++) {
      Client c = clients.get(i);
      c.roundTrip();
      LiveWindowDifferentialTest.Sub sub = scenario.subs().get(i);
      Query<LiveWindowDifferentialTest.Input> q = LiveWindowDifferentialTest.QUERIES.get(sub.query());
      Actor actor = LiveWindowDifferentialTest.actor(orgs[sub.org()], sub.user());
      Select window = q.select(sub.input(), actor).where(eq("org", orgs[sub.org()]));
      List<JsonObject> expected = new ArrayList<>();
      for (WireRecord r : fixture.freshRead(LiveWindowDifferentialTest.ITEMS_ENTITY, window)) {
        if (q.policy().visible(actor, LiveWindowDifferentialTest.ITEMS.rowFromJson(r.row(), "row"))) {
          expected.add(r.toJson());
        }
      }
      assertEquals(null, c.error, "client " + i + " frames are well formed " + when);
      assertEquals(expected, c.list(), "client " + i + " (" + sub + ") " + when + "\nframes: " + c.frames);
    }
  }

  @Provide
  Arbitrary<LiveWindowDifferentialTest.Scenario> scenarios() {
    return new LiveWindowDifferentialTest().scenarios();
  }
}
