package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.protocol.Lsn;
import io.runnel.protocol.Position;
import io.runnel.testing.Await;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.NatsServer;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * A deploy in miniature: a replicator ({@code RUNNEL_ROLE=replicator}) and two sync nodes ({@code RUNNEL_ROLE=sync})
 * as three separate JVMs on the test's embedded PostgreSQL and a nats-server of its own. Eight clients spread over
 * both nodes hold live lists over real sockets through a random workload of mutations (through either node) and
 * plain SQL; after every step of it, every list of every client equals the same query read through SQL (the
 * differential check of the sync node's own tests). Midway, clients leave one node and resume on the other with
 * their cursors while writes go on, both ways and back again; the one whose windows the other node does not hold
 * resumes there by snapshot. At the end node 1 gets SIGTERM, as Kubernetes sends
 * it: each of its clients is told to reconnect ({@code reconnect}, {@code docs/protocol.md}) after a delay inside the
 * drain's spread and, obeying, resumes on node 2 while writes go on through node 2; the check holds again. A ticket
 * issued by node 1 opens one socket on node 2 and is refused ({@code 401 X_TICKET_INVALID}) the second time on
 * either node.
 */
@FreshDatabase
class ThreeProcessesTest {

  static final String SECRET = "three-processes-test-secret-0123456789";
  /** The window node 1's drain spreads its clients' reconnects over, milliseconds. */
  static final int SPREAD_MS = 2_000;

  static final String FEED_SQL = "SELECT id::text || '|' || title || '|' || like_count || '|' || author_id FROM posts "
      + "WHERE org_id = '%s' ORDER BY created_at DESC LIMIT 50";
  static final String LIKES_SQL = "SELECT post_id::text || '|' || user_id FROM likes WHERE user_id = '%s' "
      + "ORDER BY created_at DESC LIMIT 1000";
  static final Map<String, String> ORGS = Map.of("ada", "acme", "alan", "acme", "grace", "globex");

  static String feedLine(JsonObject row) {
    return text(row, "id") + "|" + text(row, "title") + "|" + row.get("like_count") + "|" + text(row, "author_id");
  }

  static String likeLine(JsonObject row) {
    return text(row, "post_id") + "|" + text(row, "user_id");
  }

  static String text(JsonObject o, String name) {
    return o.get(name) instanceof JsonString s ? s.value() : String.valueOf(o.get(name));
  }

  /** A client signed in as {@code user}: it holds {@code feed}, its organisation's feed, and {@code likes}, its own. */
  record Watcher(LiveClient client, String user) {

    /** Connects to the node on {@code port} and subscribes both lists. */
    void open(int port) {
      client.connect(port);
      client.subscribe("feed", "liveFeed", "{\"orgId\":\"" + ORGS.get(user) + "\"}");
      client.subscribe("likes", "myLikes", "{}");
    }
  }

  TestDatabase db;
  final long seed = System.nanoTime();
  final Random random = new Random(seed);

  @Test
  void clientsSpreadOverTwoSyncNodesMovedBetweenThemAndDrainedOffOneSeeTheDatabaseAfterEveryStep(
      TestDatabase database, @TempDir Path dir) throws Exception {
    db = database;
    try (NatsServer nats = NatsServer.start(dir, Map.of())) {
      Map<String, String> base = BoardHttp.env(db, "NATS_URL", nats.url());
      Map<String, String> sync = new HashMap<>(base);
      sync.putAll(Map.of("RUNNEL_ROLE", "sync", "RUNNEL_DEV", "true", "RUNNEL_JWT_SECRET", SECRET,
          "RUNNEL_DRAIN_SPREAD_MS", Integer.toString(SPREAD_MS)));
      Map<String, String> replicatorEnv = new HashMap<>(base);
      replicatorEnv.put("RUNNEL_ROLE", "replicator");
      try (RoleProcess replicator = RoleProcess.start("three-replicator", replicatorEnv)) {
        awaitStreaming(replicator.awaitPort("health:"));
        try (RoleProcess one = RoleProcess.start("three-sync-1", sync);
            RoleProcess two = RoleProcess.start("three-sync-2", sync)) {
          run(one, two);
        }
      }
    }
  }

  void run(RoleProcess one, RoleProcess two) throws Exception {
    int node1 = one.awaitPort("open:");
    int node2 = two.awaitPort("open:");
    BoardHttp http1 = new BoardHttp(node1);
    BoardHttp http2 = new BoardHttp(node2);
    Map<String, String> tokens = Map.of("ada", http1.token("ada"), "alan", http2.token("alan"),
        "grace", http2.token("grace"));

    // A ticket of node 1 opens one socket on node 2, once.
    String ticket = ((JsonString) http1.ticket(tokens.get("ada")).get("ticket")).value();
    String firstUse = BoardHttp.upgrade(node2, "/v1/sync?ticket=" + ticket);
    String againOnTwo = BoardHttp.upgrade(node2, "/v1/sync?ticket=" + ticket);
    String againOnOne = BoardHttp.upgrade(node1, "/v1/sync?ticket=" + ticket);

    // Four clients on each node; ada and alan on both, grace on node 2 only. The movers go over to the other node
    // and back: alan's finds his windows (and their rings) there, grace's finds none of hers.
    Map<String, Watcher> w = new LinkedHashMap<>();
    for (String at : List.of("ada@1", "alan@1", "second:ada@1", "mover:alan@1", "ada@2", "alan@2", "grace@2",
        "mover:grace@2")) {
      String user = at.substring(at.indexOf(':') + 1, at.indexOf('@'));
      Watcher watcher = new Watcher(new LiveClient(at, tokens.get(user)), user);
      watcher.open(at.endsWith("@1") ? node1 : node2);
      w.put(at, watcher);
    }
    List<Watcher> all = List.copyOf(w.values());
    List<LiveClient> movers = List.of(w.get("mover:alan@1").client(), w.get("mover:grace@2").client());
    List<BoardHttp> both = List.of(http1, http2);
    check("the start", all);
    workload(15, both, tokens);
    check("the first writes", all);
    move(movers, List.of(node2, node1), both, tokens);
    check("the movers resumed on the other nodes, with writes made while they were away", all);
    List<String> graceLikesOnOne = w.get("mover:grace@2").client().kinds("likes");
    workload(15, both, tokens);
    check("more writes with the movers on the other nodes", all);
    move(movers, List.of(node1, node2), both, tokens);
    check("the movers back on their first nodes", all);
    workload(15, both, tokens);
    check("more writes with the movers back", all);

    // SIGTERM to node 1: each of its clients obeys its reconnect frame, moving to node 2; writes go on through node 2.
    List<Watcher> onOne = List.of(w.get("ada@1"), w.get("alan@1"), w.get("second:ada@1"), w.get("mover:alan@1"));
    List<Long> delays = new ArrayList<>();
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      one.terminate();
      List<Future<Long>> obeying = new ArrayList<>();
      for (Watcher c : onOne) {
        obeying.add(pool.submit(() -> obey(c.client(), node2)));
      }
      workload(15, List.of(http2), tokens);
      for (Future<Long> f : obeying) {
        delays.add(f.get(60, TimeUnit.SECONDS));
      }
    }
    Integer exit = one.awaitExit(30);
    check("node 1's drain, its clients resumed on node 2 as told", all);
    workload(10, List.of(http2), tokens);
    check("writes after the drain, every client on node 2", all);

    String why = " (seed " + seed + ")";
    assertAll(
        () -> assertTrue(firstUse.startsWith("HTTP/1.1 101"), "node 2 honours node 1's ticket: " + firstUse),
        () -> assertTrue(againOnTwo.startsWith("HTTP/1.1 401") && againOnTwo.contains("X_TICKET_INVALID"),
            "used once, on node 2: " + againOnTwo),
        () -> assertTrue(againOnOne.startsWith("HTTP/1.1 401") && againOnOne.contains("X_TICKET_INVALID"),
            "so node 1 refuses it too: " + againOnOne),
        () -> assertTrue(delays.stream().allMatch(d -> d >= 0 && d < SPREAD_MS),
            "every client of node 1 was told a delay inside the " + SPREAD_MS + " ms spread: " + delays),
        () -> assertNotNull(exit, "node 1 stopped on its own after its drain"),
        () -> assertEquals("snapshot", graceLikesOnOne.isEmpty() ? "nothing" : graceLikesOnOne.get(0),
            "node 1 held no ring for grace's likes: her resume there is a snapshot " + graceLikesOnOne),
        () -> assertTrue(rows(LIKES_SQL.formatted("alan")).size() > 0, "the workload left alan some likes" + why),
        () -> {
          for (Watcher c : all) {
            assertEquals(List.of(), c.client().problems(), c.client() + ": no refusal, every op applied");
          }
        });
    for (Watcher c : all) {
      c.client().close();
    }
  }

  /**
   * Moves {@code clients} mid-workload: each leaves its node, writes go on, then each resumes with its cursors on
   * the node on its port in {@code ports}.
   */
  void move(List<LiveClient> clients, List<Integer> ports, List<BoardHttp> nodes, Map<String, String> tokens)
      throws Exception {
    for (LiveClient c : clients) {
      c.leave();
    }
    workload(10, nodes, tokens);
    for (int i = 0; i < clients.size(); i++) {
      clients.get(i).resumeOn(ports.get(i));
    }
  }

  /**
   * Obeys a draining node as a client does: waits for its {@code reconnect} frame, leaves at once, waits the frame's
   * {@code delayMs} from its arrival and resumes on the node on {@code port}; answers the delay.
   */
  static long obey(LiveClient client, int port) throws InterruptedException {
    long delay = client.awaitReconnect(30);
    client.leave();
    TimeUnit.NANOSECONDS.sleep(client.reconnectAt() + TimeUnit.MILLISECONDS.toNanos(delay) - System.nanoTime());
    client.resumeOn(port);
    return delay;
  }

  /**
   * The differential check, after {@code step}: once every client's node has queued it every change committed so
   * far, each list of each client equals the same query read through SQL.
   */
  void check(String step, List<Watcher> watchers) throws Exception {
    settle(watchers);
    List<Executable> checks = new ArrayList<>();
    for (Watcher c : watchers) {
      List<String> feed = rows(FEED_SQL.formatted(ORGS.get(c.user())));
      List<String> likes = rows(LIKES_SQL.formatted(c.user()));
      List<String> heldFeed = c.client().list("feed", ThreeProcessesTest::feedLine);
      List<String> heldLikes = c.client().list("likes", ThreeProcessesTest::likeLine);
      String after = " after " + step + " (seed " + seed + ")";
      checks.add(() -> assertEquals(feed, heldFeed, c.client() + "'s feed" + after));
      checks.add(() -> assertEquals(likes, heldLikes, c.client() + "'s likes" + after));
    }
    assertAll(checks);
  }

  /** {@code n} random writes: mutations by random users through random nodes, and plain SQL. */
  void workload(int n, List<BoardHttp> nodes, Map<String, String> tokens) throws Exception {
    List<String> users = List.of("ada", "alan", "grace");
    for (int i = 0; i < n; i++) {
      String user = users.get(random.nextInt(users.size()));
      BoardHttp node = nodes.get(random.nextInt(nodes.size()));
      String token = tokens.get(user);
      String post = one("SELECT id::text FROM posts WHERE org_id = '" + ORGS.get(user) + "' ORDER BY random() LIMIT 1");
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
   * Returns once every client's node has queued it every frame of every change committed so far: the answer to a
   * {@code hello} names the position through which it has ({@code docs/protocol.md}); each hello is sent after all the
   * client sent before, so the answers to a resume have arrived too.
   */
  void settle(List<Watcher> watchers) throws Exception {
    Position target = Lsn.parse(one("SELECT pg_current_wal_insert_lsn()::text")).point();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos(); // one wait for them all
    for (Watcher w : watchers) {
      Position[] at = {Position.ZERO};
      Await.until(() -> w.client() + " reaches " + target + " (30 s for every client), at " + at[0],
          Duration.ofNanos(deadline - System.nanoTime()), Duration.ofMillis(50), () -> {
            at[0] = Position.parse(w.client().helloRoundTrip());
            return !at[0].isBefore(target);
          });
    }
  }

  static void awaitStreaming(int port) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    AtomicReference<String> last = new AtomicReference<>("");
    BooleanSupplier streaming = () -> {
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz"))
            .build(), HttpResponse.BodyHandlers.ofString());
        last.set(r.statusCode() + " " + r.body());
        return r.statusCode() == 200 && r.body().contains("\"streaming\":true");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    };
    Await.until(() -> "the replicator streams, /readyz answering " + last.get(), Duration.ofSeconds(60),
        Duration.ofMillis(100), streaming::getAsBoolean);
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
