package io.runnel.sync;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.select;
import static io.runnel.sync.ChannelFixture.join;
import static io.runnel.sync.ChannelFixture.meta;
import static io.runnel.sync.SyncNodeTest.str;
import static io.runnel.sync.SyncNodeTest.t;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.InProcessTransport;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Channel;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.sync.channel.TransportChannelBus;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.sync.socket.Drained;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A drain across two nodes on one PostgreSQL and one bus: node A drains while its clients hold live subscriptions
 * and presence seats; they are told to reconnect with delays of their own, A stops accepting, their seats leave node
 * B's members. Each client that obeys closes on its frame and reconnects to node B after its delay, while writes
 * go on: every one is live on B within the spread window (on the test's clock, the node's grace past the window
 * covering the reconnect itself) and, with its cursor, loses nothing; the one that ignores its frame is closed by the
 * node at the window's end and loses nothing either.
 */
@FreshDatabase
class DrainTest {

  static final EntityRef NOTES = EntityRef.of("notes").key("id").columns(c -> c.int4("id").text("org").text("body"));
  static final Entity NOTES_ENTITY = Entity.of(NOTES).table("public.notes").tenant("org");
  static final QueryRef<NoInput> ALL = QueryRef.live("notes", NoInput.CODEC, in -> select(NOTES).orderBy(asc("id")));
  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(ALL).on(NOTES_ENTITY).policy(Policy.authenticated()))
      .channel(Channel.of(ChannelFixture.ROOM).presence().events("typing").policy(Policy.allowPublic()))
      .build();
  static final long SEED = 20261130L;
  static final Duration SPREAD = Duration.ofSeconds(3);
  /** The clients that obey their reconnect frames (Dan, the sixth, ignores his). */
  static final List<String> OBEYING = List.of("ada", "cy", "fay", "gus", "hal");

  /** One client's socket and the list of its subscription {@code s1}, rebuilt from frames alone. */
  static final class Tracked {
    final String token;
    final List<JsonObject> list = new ArrayList<>();
    ProtocolClient<JsonObject> socket;
    JsonObject cursor;
    /** When obeying a drain ({@link #obey}): the frame's delay, and when (nanoTime) it came. */
    long delayMs;
    long toldAt;
    /** When (nanoTime) the client, obeying, began its reconnect, and when its subscription was live again. */
    long reconnectAt;
    long backAt;

    Tracked(String token) {
      this.token = token;
    }

    /** Applies a {@code snapshot} or {@code patch} of {@code s1}; answers whether {@code frame} was one. */
    boolean apply(JsonObject frame) {
      switch (t(frame)) {
        case "snapshot" -> {
          list.clear();
          ((JsonArray) frame.get("records")).elements().forEach(r -> list.add((JsonObject) r));
        }
        case "patch" -> ((JsonArray) frame.get("ops")).elements().forEach(op -> op((JsonObject) op));
        default -> {
          return false;
        }
      }
      cursor = (JsonObject) frame.get("cursor");
      return true;
    }

    private void op(JsonObject op) {
      int at = indexOf(str(op, "key"));
      if (at >= 0) {
        if (str(op, "op").equals("del")) {
          list.remove(at);
          return;
        }
        if (!op.members().containsKey("after")) {
          list.set(at, record(op));
          return;
        }
        list.remove(at);
      }
      JsonValue after = op.get("after");
      list.add(after == null || after == JsonNull.NULL ? 0 : indexOf(((JsonString) after).value()) + 1, record(op));
    }

    private static JsonObject record(JsonObject op) {
      return JsonObject.builder().put("type", op.get("type")).put("key", op.get("key")).put("row", op.get("row"))
          .build();
    }

    private int indexOf(String key) {
      for (int i = 0; i < list.size(); i++) {
        if (str(list.get(i), "key").equals(key)) {
          return i;
        }
      }
      return -1;
    }

    /** The {@code sub} of {@code s1}: without a cursor the first time, then resuming from the last one. */
    String sub() {
      if (cursor == null) {
        return "{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"notes\",\"in\":{}}";
      }
      List<String> ids = list.stream().map(r -> str(r, "key")).toList();
      JsonObject resume = JsonObject.builder().put("qid", cursor.get("qid")).put("lsn", cursor.get("lsn"))
          .put("at", cursor.get("at")).put("ids", JsonArray.ofStrings(ids)).build();
      return "{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"notes\",\"in\":{},\"cursor\":" + resume + "}";
    }

    /** Opens a socket to {@code node}, says hello, subscribes and waits for the subscription to be live. */
    void connect(SyncNode node) throws InterruptedException {
      socket = Sockets.open(node.port(), Map.of("Authorization", "Bearer " + token));
      socket.send("{\"t\":\"hello\",\"v\":1}");
      assertEquals("hello", t(socket.next()));
      socket.send(sub());
      JsonObject answer = socket.next();
      assertTrue(apply(answer), answer.toString());
    }

    /**
     * Obeys a draining node as a client does ({@code docs/protocol.md}, {@code reconnect}): waits for the frame, closes
     * at once, waits the frame's {@code delayMs} from its arrival and resumes on {@code other}; answers itself.
     */
    Tracked obey(SyncNode other) throws InterruptedException {
      JsonObject reconnect = until("reconnect");
      toldAt = System.nanoTime();
      delayMs = ((JsonNumber) reconnect.get("delayMs")).longValueExact();
      assertEquals("drain", str(reconnect, "reason"));
      socket.close();
      TimeUnit.NANOSECONDS.sleep(toldAt + TimeUnit.MILLISECONDS.toNanos(delayMs) - System.nanoTime());
      reconnectAt = System.nanoTime();
      connect(other);
      backAt = System.nanoTime();
      return this;
    }

    /** Reads frames, applying the subscription's, until one of kind {@code kind}, which it answers. */
    JsonObject until(String kind) throws InterruptedException {
      for (JsonObject f = socket.next(); ; f = socket.next()) {
        if (t(f).equals(kind)) {
          return f;
        }
        apply(f);
      }
    }

    /** A {@code hello} round trip: every frame queued before its answer is applied. */
    void settle() throws InterruptedException {
      socket.send("{\"t\":\"hello\",\"v\":1}");
      until("hello");
    }

    /** The list as {@code key → body}. */
    Map<String, String> bodies() {
      Map<String, String> out = new LinkedHashMap<>();
      for (JsonObject r : list) {
        out.put(str(r, "key"), str((JsonObject) r.get("row"), "body"));
      }
      return out;
    }
  }

  static SyncNode node(String id, LiveFixtureAccess fixture, InProcessTransport channels) {
    SyncNode node = SyncNode.builder().declarations(DECLARATIONS).transport(fixture.bus()).dataSource(fixture.pool())
        .authenticator(ChannelFixture.IDENTITIES).channelBus(new TransportChannelBus(channels)).nodeId(id)
        .drainRandom(new SplittableRandom(SEED)).listen("127.0.0.1", 0).build();
    node.start();
    return node;
  }

  /** The acme rows in the database, as {@code id → body} in id order. */
  static Map<String, String> acmeRows(TestDatabase db) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    try (Connection c = db.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT id, body FROM notes WHERE org = 'acme' ORDER BY id")) {
      while (rs.next()) {
        out.put(Integer.toString(rs.getInt(1)), rs.getString(2));
      }
    }
    return out;
  }

  /** A raw upgrade to {@code port} as {@code token}: the whole response, head and body. */
  static String rawUpgrade(int port, String token) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(("GET /v1/sync HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
          + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
          + "Authorization: Bearer " + token + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      StringBuilder head = new StringBuilder();
      for (int c = in.read(); c >= 0; c = in.read()) {
        head.append((char) c);
        if (head.toString().endsWith("\r\n\r\n")) {
          break;
        }
      }
      int length = 0;
      for (String line : head.toString().split("\r\n")) {
        if (line.toLowerCase().startsWith("content-length:")) {
          length = Integer.parseInt(line.substring(15).trim());
        }
      }
      return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
  }

  static HttpResponse<String> get(int port, String path) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void drainingANodeMovesEveryClientToTheOtherNodeWithinTheSpreadLosingNothing(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE IF NOT EXISTS notes (id int PRIMARY KEY, org text, body text)");
    InProcessTransport channelBus = InProcessTransport.create();
    try (LiveFixtureAccess fixture = LiveFixtureAccess.start(db, "drain", List.of(NOTES_ENTITY));
        SyncNode a = node("a", fixture, channelBus);
        SyncNode b = node("b", fixture, channelBus);
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      fixture.commit("INSERT INTO notes VALUES (1, 'acme', 'one'), (2, 'acme', 'two'), (3, 'globex', 'hidden')");
      // Five clients obey their reconnect frames; Dan ignores his, so the node closes him at the end of the window.
      List<Tracked> obeying = new ArrayList<>();
      for (String name : OBEYING) {
        obeying.add(new Tracked(name + "@acme"));
      }
      Tracked dan = new Tracked("dan@acme");
      List<Tracked> clients = new ArrayList<>(obeying);
      clients.add(dan);
      for (Tracked c : clients) {
        c.connect(a);
        c.socket.send(join("room.drain", meta(c.token)));
        c.until("presence");
      }
      Set<String> everyone = new HashSet<>(OBEYING);
      everyone.add("dan");
      ProtocolClient<JsonObject> bob = Sockets.open(b.port(), Map.of("Authorization", "Bearer bob@acme"));
      bob.send(join("room.drain", meta("Bob")));
      Set<String> seenByBob = new HashSet<>();
      while (!seenByBob.containsAll(everyone)) {
        JsonObject f = bob.next();
        seenByBob.addAll(ChannelsTest.keys(f, t(f).equals("presence") ? "members" : "joins"));
      }
      fixture.commit("UPDATE notes SET body = 'two, edited' WHERE id = 2");
      for (Tracked c : clients) {
        c.settle();
      }
      int readyBefore = get(a.port(), "/readyz").statusCode();

      long start = System.nanoTime();
      CompletableFuture<Drained> drained = a.drain(SPREAD);
      List<Future<Tracked>> moves = new ArrayList<>();
      for (Tracked c : obeying) {
        moves.add(pool.submit(() -> c.obey(b)));
      }
      JsonObject danTold = dan.until("reconnect");
      HttpResponse<String> readyDuring = get(a.port(), "/readyz");
      String shed = rawUpgrade(a.port(), "eve@acme");
      String metrics = get(a.port(), "/metrics").body();
      // Writes all through the window: some land while a client is between the nodes.
      int written = 0;
      while (System.nanoTime() - start < SPREAD.toNanos()) {
        fixture.commit("INSERT INTO notes VALUES (" + (1000 + written) + ", 'acme', 'written during the drain "
            + written + "'), (" + (2000 + written) + ", 'globex', 'hidden'); UPDATE notes SET body = 'one, edit "
            + written + "' WHERE id = 1" + (written == 0 ? "; DELETE FROM notes WHERE id = 2" : ""));
        written++;
        TimeUnit.MILLISECONDS.sleep(150);
      }
      int writtenDuringTheWindow = written;
      for (Future<Tracked> move : moves) {
        move.get(30, TimeUnit.SECONDS);
      }
      Set<String> leftAtBob = new HashSet<>();
      while (!leftAtBob.containsAll(everyone)) {
        JsonObject f = bob.next();
        if (t(f).equals("presence-diff")) {
          leftAtBob.addAll(ChannelsTest.leaves(f));
        }
      }
      Drained outcome = drained.get(30, TimeUnit.SECONDS);
      String danEnded = dan.socket.ended();
      int socketsAfter = a.sockets();
      dan.connect(b);
      fixture.commit("INSERT INTO notes VALUES (3000, 'acme', 'written after the move')");
      for (Tracked c : clients) {
        c.settle();
      }
      Map<String, String> rows = acmeRows(db);
      SplittableRandom same = new SplittableRandom(SEED);
      List<Long> expected = new ArrayList<>();
      for (int i = 0; i < clients.size(); i++) {
        expected.add(same.nextLong(SPREAD.toMillis()));
      }
      List<Long> delays = new ArrayList<>();
      for (Tracked c : obeying) {
        delays.add(c.delayMs);
      }
      delays.add(((JsonNumber) danTold.get("delayMs")).longValueExact());
      List<Executable> checks = new ArrayList<>(List.of(
          () -> assertEquals(200, readyBefore, "ready before the drain"),
          () -> assertEquals(new TreeSet<>(expected), new TreeSet<>(delays),
              "each socket's delay is its own draw from the injected source, over [0, 3000) ms: " + delays),
          () -> assertEquals(clients.size(), new HashSet<>(delays).size(), "different delays: " + delays),
          () -> assertEquals("drain", str(danTold, "reason")),
          () -> assertEquals(503, readyDuring.statusCode(), "not ready while draining"),
          () -> assertEquals("true", ((JsonObject) Json.parse(readyDuring.body())).get("draining").toString(),
              readyDuring.body()),
          () -> assertTrue(shed.startsWith("HTTP/1.1 503"), shed),
          () -> assertTrue(shed.toLowerCase().contains("retry-after:"), shed),
          () -> assertTrue(shed.contains("\"code\":\"X_SOCKET_LIMIT\""), shed),
          () -> assertTrue(metrics.contains("runnel_draining 1.0"), "the draining gauge is 1"),
          () -> assertEquals(everyone, leftAtBob, "every seat of node A left node B's members"),
          () -> assertEquals(clients.size(), outcome.told(), "every socket was told"),
          () -> assertEquals(1, outcome.closed(), "Dan, who ignored his frame, was closed by the node: " + outcome),
          () -> assertTrue(danEnded != null && danEnded.startsWith("closed by the node: 1001"),
              String.valueOf(danEnded)),
          () -> assertEquals(0, socketsAfter, "node A holds no socket, and the shed upgrade never took one"),
          () -> assertTrue(writtenDuringTheWindow >= 3, "writes all through the window: " + writtenDuringTheWindow),
          () -> assertTrue(rows.containsKey("1000") && !rows.containsKey("2"), "the drain's writes committed"),
          () -> assertEquals(rows, dan.bodies(), "Dan resumed on node B after his close and lost nothing")));
      for (Tracked c : obeying) {
        long told = c.toldAt - start;
        long back = c.backAt - start;
        String times = c.token + ": told " + millis(told) + " ms, delay " + c.delayMs + " ms, reconnected at "
            + millis(c.reconnectAt - start) + " ms, live on node B at " + millis(back) + " ms after the drain began";
        // The reconnect starts within the window (the node's grace past it covers a frame told late on a busy
        // machine); how long the handshake and resume then take is the machine's, not the protocol's.
        checks.add(() -> assertTrue(c.reconnectAt - start < SPREAD.plus(SyncNode.DRAIN_GRACE).toNanos(),
            "reconnected to node B within the spread window (and the node's grace past it): " + times));
        checks.add(() -> assertEquals(rows, c.bodies(), c.token + " resumed on node B and lost nothing"));
      }
      assertAll(checks);
    }
  }

  static long millis(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos);
  }

  @Test
  void stopAcceptingShedsUpgradesAndFailsReadinessWhileTheOpenSocketsStayServed(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE IF NOT EXISTS notes (id int PRIMARY KEY, org text, body text)");
    InProcessTransport channelBus = InProcessTransport.create();
    try (LiveFixtureAccess fixture = LiveFixtureAccess.start(db, "drain_stop_accepting", List.of(NOTES_ENTITY));
        SyncNode a = node("a2", fixture, channelBus)) {
      Tracked ada = new Tracked("ada@initech");
      ada.connect(a);
      boolean drainingBefore = a.draining();
      a.stopAccepting();
      HttpResponse<String> ready = get(a.port(), "/readyz");
      String shed = rawUpgrade(a.port(), "bob@initech");
      String anonymous = rawUpgrade(a.port(), "not-a-token");
      fixture.commit("INSERT INTO notes VALUES (20, 'initech', 'after stopAccepting')");
      JsonObject patch = ada.until("patch");
      String metrics = get(a.port(), "/metrics").body();
      assertAll(
          () -> assertEquals(false, drainingBefore),
          () -> assertEquals(true, a.draining()),
          () -> assertEquals(503, ready.statusCode()),
          () -> assertTrue(ready.body().contains("\"ready\":false") && ready.body().contains("\"draining\":true"),
              ready.body()),
          () -> assertTrue(shed.startsWith("HTTP/1.1 503") && shed.contains("X_SOCKET_LIMIT"), shed),
          () -> assertTrue(anonymous.startsWith("HTTP/1.1 503") && anonymous.contains("X_SOCKET_LIMIT"),
              "shed before its credentials are read: " + anonymous),
          () -> assertTrue(patch.toString().contains("after stopAccepting"), "the open socket is still served"),
          () -> assertEquals(1, a.sockets(), "the open socket stays; the shed upgrades took none"),
          () -> assertTrue(metrics.contains("runnel_refusals_total{code=\"X_SOCKET_LIMIT\"} 2.0"), metrics));
    }
  }

  @Test
  void aNegativeSpreadIsRefusedAndEveryDrainCallAnswersTheOneDrain(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE IF NOT EXISTS notes (id int PRIMARY KEY, org text, body text)");
    InProcessTransport channelBus = InProcessTransport.create();
    try (LiveFixtureAccess fixture = LiveFixtureAccess.start(db, "drain_calls", List.of(NOTES_ENTITY));
        SyncNode a = node("a3", fixture, channelBus)) {
      IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
          () -> a.drain(Duration.ofMillis(-1)));
      boolean drainingAfterRefusal = a.draining();
      CompletableFuture<Drained> first = a.drain(Duration.ZERO);
      CompletableFuture<Drained> second = a.drain(Duration.ofSeconds(30));
      Drained outcome = first.get(30, TimeUnit.SECONDS);
      assertAll(
          () -> assertTrue(negative.getMessage().contains("at least 0"), negative.getMessage()),
          () -> assertEquals(false, drainingAfterRefusal, "a refused drain does not stop accepting"),
          () -> assertSame(first, second, "a second call answers the drain already running"),
          () -> assertEquals(new Drained(0, 0), outcome, "no socket to tell or close"),
          () -> assertThrows(IllegalArgumentException.class,
              () -> SyncNode.builder().drainSpread(Duration.ofSeconds(-1))),
          () -> assertThrows(IllegalArgumentException.class, () -> new Drained(-1, 0)));
    }
  }
}
