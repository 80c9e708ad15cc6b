package io.runnel.sync.live.internal;

import static io.runnel.dsl.Dsl.eq;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.runnel.dsl.Actor;
import io.runnel.dsl.Select;
import io.runnel.dsl.server.Query;
import io.runnel.protocol.Position;
import io.runnel.protocol.WireRecord;
import io.runnel.sync.HeldList;
import io.runnel.sync.Sockets;
import io.runnel.sync.SyncNode;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.testing.EmbeddedPostgresServer;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.testing.Tokens;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
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
import org.jspecify.annotations.Nullable;

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
  static final class Client {
    final HeldList list = new HeldList();
    final BlockingQueue<String> hellos = new LinkedBlockingQueue<>();
    /** Written by the socket's thread, read by the test's: copy-on-write, so reading never meets a write. */
    final List<String> frames = new CopyOnWriteArrayList<>();
    @Nullable String unexpected;
    final ProtocolClient<JsonObject> socket;

    Client(String token) {
      socket = ProtocolClient.to(node.port()).bearer(token).open(Sockets::json, this::received);
    }

    private synchronized void received(ProtocolClient.Received<JsonObject> r) {
      String text = r.text();
      frames.add(text.length() > 300 ? text.substring(0, 300) + "…" : text);
      JsonObject f = r.frame();
      switch (str(f, "t")) {
        case "hello" -> hellos.add(str(f, "lsn"));
        case "snapshot" -> list.snapshot((JsonArray) f.get("records"));
        case "patch" -> list.patch((JsonArray) f.get("ops"));
        default -> unexpected = "unexpected frame " + f;
      }
    }

    synchronized List<JsonObject> list() {
      return list.records();
    }

    /** The last op it could not apply or the last frame it did not expect, or null. */
    synchronized @Nullable String error() {
      List<String> problems = list.problems();
      return unexpected != null ? unexpected : problems.isEmpty() ? null : problems.get(problems.size() - 1);
    }

    /** Sends a hello and waits for its answer: every frame queued before it has arrived. */
    void roundTrip() throws InterruptedException {
      socket.send("{\"t\":\"hello\",\"v\":1}");
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
    List<Client> clients = new ArrayList<>();
    for (LiveWindowDifferentialTest.Sub sub : scenario.subs()) {
      Actor actor = LiveWindowDifferentialTest.actor(orgs[sub.org()], sub.user());
      Client c = new Client(token(actor));
      c.socket.send("{\"t\":\"sub\",\"sid\":\"s\",\"q\":\"" + LiveWindowDifferentialTest.QUERIES.get(sub.query()).name()
          + "\",\"in\":" + LiveWindowDifferentialTest.Input.CODEC.encode(sub.input()) + "}");
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
        c.socket.close();
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
      assertEquals(null, c.error(), "client " + i + " frames are well formed " + when);
      assertEquals(expected, c.list(), "client " + i + " (" + sub + ") " + when + "\nframes: " + c.frames);
    }
  }

  @Provide
  Arbitrary<LiveWindowDifferentialTest.Scenario> scenarios() {
    return new LiveWindowDifferentialTest().scenarios();
  }
}
