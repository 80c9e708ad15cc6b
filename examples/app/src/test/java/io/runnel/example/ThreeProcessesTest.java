package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.replicator.Lsn;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.NatsServer;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A deploy in miniature: a replicator ({@code RUNNEL_ROLE=replicator}) and two sync nodes ({@code RUNNEL_ROLE=sync})
 * as three separate JVMs on the test's embedded PostgreSQL and a nats-server of its own. Clients spread over both
 * nodes hold live lists over real sockets through a random workload of mutations (through either node) and plain
 * SQL; one client leaves node 1 midway and resumes on node 2 with its cursors, where its per-actor window has no
 * ring, so it resumes by snapshot. At the end every list equals the database. A ticket issued by node 1 opens one
 * socket on node 2 and is refused ({@code 401 X_TICKET_INVALID}) the second time on either node.
 */
@FreshDatabase
class ThreeProcessesTest {

  static final String SECRET = "three-processes-test-secret-0123456789";

  static final String FEED_SQL = "SELECT id::text || '|' || title || '|' || like_count || '|' || author_id FROM posts "
      + "WHERE org_id = '%s' ORDER BY created_at DESC LIMIT 50";
  static final String LIKES_SQL = "SELECT post_id::text || '|' || user_id FROM likes WHERE user_id = '%s' "
      + "ORDER BY created_at DESC LIMIT 1000";

  static String feedLine(JsonObject row) {
    return text(row, "id") + "|" + text(row, "title") + "|" + row.get("like_count") + "|" + text(row, "author_id");
  }

  static String likeLine(JsonObject row) {
    return text(row, "post_id") + "|" + text(row, "user_id");
  }

  static String text(JsonObject o, String name) {
    return o.get(name) instanceof JsonString s ? s.value() : String.valueOf(o.get(name));
  }

  TestDatabase db;
  final long seed = System.nanoTime();
  final Random random = new Random(seed);

  @Test
  void clientsSpreadOverTwoSyncNodesAndOneMovedBetweenThemSeeTheDatabase(TestDatabase database, @TempDir Path dir)
      throws Exception {
    db = database;
    try (NatsServer nats = NatsServer.start(dir, Map.of())) {
      Map<String, String> base = BoardHttp.env(db, "NATS_URL", nats.url());
      Map<String, String> sync = new HashMap<>(base);
      sync.putAll(Map.of("RUNNEL_ROLE", "sync", "RUNNEL_DEV", "true", "RUNNEL_JWT_SECRET", SECRET));
      Map<String, String> replicatorEnv = new HashMap<>(base);
      replicatorEnv.put("RUNNEL_ROLE", "replicator");
      try (RoleProcess replicator = RoleProcess.start("three-replicator", replicatorEnv)) {
        awaitStreaming(replicator.awaitPort("health:"));
        try (RoleProcess one = RoleProcess.start("three-sync-1", sync);
            RoleProcess two = RoleProcess.start("three-sync-2", sync)) {
          run(one.awaitPort("open:"), two.awaitPort("open:"));
        }
      }
    }
  }

  void run(int node1, int node2) throws Exception {
    BoardHttp http1 = new BoardHttp(node1);
    BoardHttp http2 = new BoardHttp(node2);
    Map<String, String> tokens = Map.of("ada", http1.token("ada"), "alan", http2.token("alan"),
        "grace", http2.token("grace"));
    Map<String, String> orgs = Map.of("ada", "acme", "alan", "acme", "grace", "globex");

    // A ticket of node 1 opens one socket on node 2, once.
    String ticket = ((JsonString) http1.ticket(tokens.get("ada")).get("ticket")).value();
    String firstUse = BoardHttp.upgrade(node2, "/v1/sync?ticket=" + ticket);
    String againOnTwo = BoardHttp.upgrade(node2, "/v1/sync?ticket=" + ticket);
    String againOnOne = BoardHttp.upgrade(node1, "/v1/sync?ticket=" + ticket);

    LiveClient ada = new LiveClient("ada@1", tokens.get("ada"));
    LiveClient alan = new LiveClient("alan@2", tokens.get("alan"));
    LiveClient grace = new LiveClient("grace@1", tokens.get("grace"));
    LiveClient mover = new LiveClient("alan@1→2", tokens.get("alan"));
    ada.connect(node1);
    ada.subscribe("feed", "liveFeed", "{\"orgId\":\"acme\"}");
    ada.subscribe("likes", "myLikes", "{}");
    alan.connect(node2);
    alan.subscribe("feed", "liveFeed", "{\"orgId\":\"acme\"}");
    grace.connect(node1);
    grace.subscribe("feed", "liveFeed", "{\"orgId\":\"globex\"}");
    mover.connect(node1);
    mover.subscribe("feed", "liveFeed", "{\"orgId\":\"acme\"}");
    mover.subscribe("likes", "myLikes", "{}");
    List<LiveClient> clients = List.of(ada, alan, grace, mover);
    settle(clients);

    List<BoardHttp> nodes = List.of(http1, http2);
    workload(40, nodes, tokens, orgs);
    settle(List.of(mover));
    mover.leave();
    workload(30, nodes, tokens, orgs);
    mover.resumeOn(node2);
    workload(30, nodes, tokens, orgs);
    settle(clients);

    String why = " (seed " + seed + ")";
    assertAll(
        () -> assertTrue(firstUse.startsWith("HTTP/1.1 101"), "node 2 honours node 1's ticket: " + firstUse),
        () -> assertTrue(againOnTwo.startsWith("HTTP/1.1 401") && againOnTwo.contains("X_TICKET_INVALID"),
            "used once, on node 2: " + againOnTwo),
        () -> assertTrue(againOnOne.startsWith("HTTP/1.1 401") && againOnOne.contains("X_TICKET_INVALID"),
            "so node 1 refuses it too: " + againOnOne),
        () -> assertEquals(rows(FEED_SQL.formatted("acme")), ada.list("feed", ThreeProcessesTest::feedLine),
            "ada's feed on node 1" + why),
        () -> assertEquals(rows(LIKES_SQL.formatted("ada")), ada.list("likes", ThreeProcessesTest::likeLine),
            "ada's likes on node 1" + why),
        () -> assertEquals(rows(FEED_SQL.formatted("acme")), alan.list("feed", ThreeProcessesTest::feedLine),
            "alan's feed on node 2" + why),
        () -> assertEquals(rows(FEED_SQL.formatted("globex")), grace.list("feed", ThreeProcessesTest::feedLine),
            "grace's feed on node 1" + why),
        () -> assertEquals(rows(FEED_SQL.formatted("acme")), mover.list("feed", ThreeProcessesTest::feedLine),
            "the moved client's feed, resumed on node 2" + why),
        () -> assertEquals(rows(LIKES_SQL.formatted("alan")), mover.list("likes", ThreeProcessesTest::likeLine),
            "the moved client's likes, resumed on node 2" + why),
        () -> assertEquals("snapshot", mover.kinds("likes").get(0),
            "node 2 holds no ring for alan's likes: the resume is a snapshot " + mover.kinds("likes")),
        () -> assertTrue(rows(LIKES_SQL.formatted("alan")).size() > 0, "the workload left alan some likes" + why),
        () -> {
          for (LiveClient c : clients) {
            assertEquals(List.of(), c.problems(), c + ": no refusal, every op applied");
          }
        });
    for (LiveClient c : clients) {
      c.close();
    }
  }

  /** {@code n} random writes: mutations by random users through random nodes, and plain SQL. */
  void workload(int n, List<BoardHttp> nodes, Map<String, String> tokens, Map<String, String> orgs) throws Exception {
    List<String> users = List.of("ada", "alan", "grace");
    for (int i = 0; i < n; i++) {
      String user = users.get(random.nextInt(users.size()));
      BoardHttp node = nodes.get(random.nextInt(nodes.size()));
      String token = tokens.get(user);
      String post = one("SELECT id::text FROM posts WHERE org_id = '" + orgs.get(user) + "' ORDER BY random() LIMIT 1");
      BoardHttp.Answer a = null;
      switch (random.nextInt(10)) {
        case 0, 1, 2 -> a = node.mutate(token, "createPost", "{\"id\":\"" + UUID.randomUUID() + "\",\"title\":\"post "
            + i + "\",\"body\":\"by " + user + "\"}");
        case 3, 4 -> a = node.mutate(token, "likePost", "{\"postId\":\"" + post + "\"}");
        case 5 -> a = node.mutate(token, "unlikePost", "{\"postId\":\"" + post + "\"}");
        case 6 -> {
          String own = one("SELECT coalesce((SELECT id::text FROM posts WHERE author_id = '" + user
              + "' ORDER BY random() LIMIT 1), '')");
          if (!own.isEmpty()) {
            a = node.mutate(token, "deletePost", "{\"postId\":\"" + own + "\"}");
          }
        }
        case 7 -> db.execute("UPDATE posts SET title = 'sql " + i + "' WHERE id = '" + post + "'");
        case 8 -> db.execute("WITH l AS (INSERT INTO likes (post_id, user_id, org_id) SELECT id, 'alan', org_id "
            + "FROM posts WHERE org_id = 'acme' ORDER BY random() LIMIT 2 ON CONFLICT DO NOTHING RETURNING post_id) "
            + "UPDATE posts SET like_count = like_count + 1 WHERE id IN (SELECT post_id FROM l)");
        default -> db.execute("BEGIN; UPDATE posts SET like_count = like_count + 1 WHERE org_id = 'acme' "
            + "AND random() < 0.3; DELETE FROM likes WHERE user_id = 'ada' AND random() < 0.3; COMMIT");
      }
      if (a != null && a.status() != 200 && a.status() != 409) {
        throw new AssertionError("a mutation answered " + a.status() + " " + a.body() + " (seed " + seed + ")");
      }
    }
  }

  /**
   * Returns once every client's node has queued it every frame of every change committed so far: the answer to
   * a {@code hello} names the position through which it has ({@code PROTOCOL.md}).
   */
  void settle(List<LiveClient> clients) throws Exception {
    String target = Lsn.parse(one("SELECT pg_current_wal_insert_lsn()::text")).point();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    for (LiveClient c : clients) {
      while (c.helloLsn().compareTo(target) < 0) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError(c + " did not reach " + target + " within 30 s; at " + c.helloLsn());
        }
        c.hello();
        TimeUnit.MILLISECONDS.sleep(50);
      }
    }
  }

  static void awaitStreaming(int port) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    String last = "";
    while (System.nanoTime() < deadline) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz"))
          .build(), HttpResponse.BodyHandlers.ofString());
      last = r.statusCode() + " " + r.body();
      if (r.statusCode() == 200 && r.body().contains("\"streaming\":true")) {
        return;
      }
      TimeUnit.MILLISECONDS.sleep(100);
    }
    throw new AssertionError("the replicator did not stream within 60 s: " + last);
  }

  String one(String sql) throws Exception {
    List<String> r = rows(sql);
    return r.isEmpty() ? "" : r.get(0);
  }

  List<String> rows(String sql) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      while (r.next()) {
        out.add(r.getString(1));
      }
    }
    return out;
  }
}
