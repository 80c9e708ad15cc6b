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
import io.runnel.protocol.Position;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.testing.Tokens;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The sync node end to end: real sockets through the JDK's WebSocket client, real WAL through the replicator. */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SyncNodeTest {

  static final String SECRET = "0123456789abcdef0123456789abcdef-test-only";
  static final EntityRef NOTES = EntityRef.of("notes").key("id").columns(c -> c.int4("id").text("org").text("body"));
  static final Entity NOTES_ENTITY = Entity.of(NOTES).table("public.notes").tenant("org");
  static final QueryRef<NoInput> ALL = QueryRef.live("notes", NoInput.CODEC, in -> select(NOTES).orderBy(asc("id")));
  static final Declarations DECLARATIONS = Declarations.builder()
      .query(Query.of(ALL).on(NOTES_ENTITY).policy(Policy.authenticated())).build();

  LiveFixtureAccess fixture;
  SyncNode node;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE notes (id int PRIMARY KEY, org text, body text)");
    fixture = LiveFixtureAccess.start(db, "node", List.of(NOTES_ENTITY));
    node = SyncNode.builder().declarations(DECLARATIONS).transport(fixture.bus()).dataSource(fixture.pool())
        .authenticator(JwtAuthenticator.hs256(SECRET).build()).nodeId("test-node").listen("127.0.0.1", 0).build();
    node.start();
  }

  @AfterAll
  void stop() {
    node.stop();
    fixture.close();
  }

  static String token(String user, String org) throws Exception {
    return Tokens.hs256(SECRET).subject(user).org(org).sign();
  }

  ProtocolClient<JsonObject> connect(String token) {
    return Sockets.open(node.port(), Map.of("Authorization", "Bearer " + token));
  }

  static String t(JsonObject frame) {
    return ((JsonString) frame.get("t")).value();
  }

  static String str(JsonObject frame, String field) {
    return ((JsonString) frame.get(field)).value();
  }

  @Test
  void helloSubscribeAndAPatchFlowOverARealSocket() throws Exception {
    fixture.commit("INSERT INTO notes VALUES (1, 'acme', 'first')");
    ProtocolClient<JsonObject> c = connect(token("ada", "acme"));
    c.send("{\"t\":\"hello\",\"v\":1}");
    JsonObject hello = c.next();
    c.send("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"notes\",\"in\":{}}");
    JsonObject snapshot = c.next();
    Position lsn = fixture.commit("INSERT INTO notes VALUES (2, 'acme', 'second'), (3, 'globex', 'hidden')");
    JsonObject patch = c.next();
    assertAll(
        () -> assertEquals("hello", t(hello)),
        () -> assertEquals("ada", str(hello, "actor")),
        () -> assertEquals("test-node", str(hello, "node")),
        () -> assertEquals("snapshot", t(snapshot)),
        () -> assertEquals("s1", str(snapshot, "sid")),
        () -> assertEquals(1, ((JsonArray) snapshot.get("records")).size()),
        () -> assertEquals("patch", t(patch)),
        () -> assertTrue(patch.toString().contains("\"key\":\"2\""), patch.toString()),
        () -> assertTrue(!patch.toString().contains("hidden"), "another tenant's row never arrives"));
    c.send("{\"t\":\"hello\",\"v\":1}");
    JsonObject again = c.next();
    assertTrue(Position.parse(str(again, "lsn")).compareTo(lsn) >= 0, "the hello lsn covers the delivered patch");
    c.close();
  }

  @Test
  void badFramesAreRefusedWithTheirCodesAndTheSocketStaysUp() throws Exception {
    ProtocolClient<JsonObject> watcher = connect(token("eve", "bad-frames"));
    watcher.send("{\"t\":\"sub\",\"sid\":\"w\",\"q\":\"notes\",\"in\":{}}");
    assertEquals("snapshot", t(watcher.next()));
    ProtocolClient<JsonObject> c = connect(token("bob", "acme"));
    c.send("not json");
    JsonObject malformed = c.next();
    c.send("{\"t\":\"shout\"}");
    JsonObject unknownT = c.next();
    c.send("{\"t\":\"hello\",\"v\":2}");
    JsonObject version = c.next();
    c.send("{\"t\":\"sub\",\"sid\":\"x\",\"q\":\"nope\",\"in\":{}}");
    JsonObject unknownQuery = c.next();
    c.send("{\"t\":\"sub\",\"sid\":\"y\",\"q\":\"notes\",\"in\":{\"extra\":1}}");
    JsonObject badInput = c.next();
    c.send("{\"t\":\"sub\",\"sid\":\"z\",\"q\":\"notes\",\"in\":{}}");
    c.next();
    c.send("{\"t\":\"sub\",\"sid\":\"z\",\"q\":\"notes\",\"in\":{}}");
    JsonObject taken = c.next();
    c.sendBinary(new byte[] {1, 2, 3});
    JsonObject binary = c.next();
    c.send("{\"t\":\"sub\",\"sid\":\"deep\",\"q\":\"notes\",\"in\":" + "[".repeat(10_000) + "]".repeat(10_000) + "}");
    JsonObject deep = c.next();
    c.send("{\"t\":\"hello\",\"v\":1}");
    JsonObject stillUp = c.next();
    assertAll(
        () -> assertEquals("X_FRAME_INVALID", str(malformed, "code")),
        () -> assertEquals("X_FRAME_INVALID", str(unknownT, "code")),
        () -> assertEquals("X_PROTOCOL_VERSION", str(version, "code")),
        () -> assertEquals("X_LIVE_QUERY_UNKNOWN", str(unknownQuery, "code")),
        () -> assertEquals("x", str(unknownQuery, "sid")),
        () -> assertTrue(str(unknownQuery, "cause").contains("nope"), "the name is echoed"),
        () -> assertEquals("X_INPUT_INVALID", str(badInput, "code")),
        () -> assertEquals("X_SUBSCRIPTION_ID_TAKEN", str(taken, "code")),
        () -> assertEquals("X_FRAME_INVALID", str(binary, "code")),
        () -> assertTrue(List.of("X_INPUT_INVALID", "X_FRAME_INVALID").contains(str(deep, "code")), deep.toString()),
        () -> assertEquals("hello", t(stillUp), "the socket stayed up through every refusal"));
    fixture.commit("INSERT INTO notes VALUES (100, 'bad-frames', 'still served')");
    JsonObject patch = watcher.next();
    assertAll(
        () -> assertEquals("patch", t(patch), "another socket keeps receiving correct patches"),
        () -> assertTrue(patch.toString().contains("still served"), patch.toString()));
    c.close();
    watcher.close();
  }

  @Test
  void anUpgradeWithoutValidCredentialsIsRefusedWith401AndAJsonBodyBeforeAnySocketExists() throws Exception {
    String response = rawUpgrade(null);
    String expired = rawUpgrade("Bearer not-a-token");
    assertAll(
        () -> assertTrue(response.startsWith("HTTP/1.1 401"), response),
        () -> assertTrue(response.contains("\"code\":\"X_SOCKET_UNAUTHENTICATED\""), response),
        () -> assertTrue(response.toLowerCase().contains("content-type: application/json"), response),
        () -> assertTrue(expired.startsWith("HTTP/1.1 401"), expired));
  }

  private String rawUpgrade(String authorization) throws Exception {
    return rawUpgrade(authorization, "/v1/sync", null);
  }

  private String rawUpgrade(String authorization, String path, String origin) throws Exception {
    try (Socket s = new Socket("127.0.0.1", node.port())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + node.port() + "\r\nUpgrade: websocket\r\n"
          + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
          + (origin == null ? "" : "Origin: " + origin + "\r\n")
          + (authorization == null ? "" : "Authorization: " + authorization + "\r\n") + "\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      StringBuilder head = new StringBuilder();
      while (!head.toString().endsWith("\r\n\r\n")) {
        int b = in.read();
        if (b < 0) {
          break;
        }
        head.append((char) b);
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

  @Test
  void aTicketOpensOneSocketOnceAndAForgedOrReusedOneIsRefused() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> issued = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port()
        + "/v1/tickets")).header("Authorization", "Bearer " + token("cy", "acme"))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port()
        + "/v1/tickets")).POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    String ticket = str((JsonObject) Json.parse(issued.body()), "ticket");
    ProtocolClient<JsonObject> c = ProtocolClient.to(node.port()).target("/v1/sync?ticket=" + ticket)
        .open(Sockets::json);
    c.send("{\"t\":\"hello\",\"v\":1}");
    JsonObject hello = c.next();
    String reused = rawUpgrade(null, "/v1/sync?ticket=" + ticket, null);
    String forged = rawUpgrade(null, "/v1/sync?ticket=" + ticket.substring(0, ticket.length() - 2) + "xx", null);
    assertAll(
        () -> assertEquals(200, issued.statusCode(), issued.body()),
        () -> assertEquals(401, anonymous.statusCode()),
        () -> assertTrue(anonymous.body().contains("X_SOCKET_UNAUTHENTICATED"), anonymous.body()),
        () -> assertEquals("cy", str(hello, "actor")),
        () -> assertTrue(reused.startsWith("HTTP/1.1 401") && reused.contains("X_TICKET_INVALID"), reused),
        () -> assertTrue(forged.startsWith("HTTP/1.1 401") && forged.contains("X_TICKET_INVALID"), forged));
    c.close();
  }

  @Test
  void anUpgradeFromAForeignOriginIsRefusedWith403AndAJsonBody() throws Exception {
    String response = rawUpgrade("Bearer " + token("ada", "acme"), "/v1/sync", "https://evil.example");
    assertAll(
        () -> assertTrue(response.startsWith("HTTP/1.1 403"), response),
        () -> assertTrue(response.contains("X_SOCKET_ORIGIN_REFUSED"), response),
        () -> assertTrue(response.contains("the origin 'https://evil.example'"), "the origin is named: " + response),
        () -> assertTrue(response.contains("RUNNEL_ALLOWED_ORIGINS=https://evil.example"), "and how to admit it"));
  }

  @Test
  void aFrameOver256KiBClosesTheSocketWith1009BeforeItIsRead() throws Exception {
    try (Socket s = new Socket("127.0.0.1", node.port())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(("GET /v1/sync HTTP/1.1\r\nHost: 127.0.0.1:" + node.port() + "\r\nUpgrade: websocket\r\n"
          + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
          + "Authorization: Bearer " + token("big", "acme") + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      StringBuilder head = new StringBuilder();
      while (!head.toString().endsWith("\r\n\r\n")) {
        head.append((char) in.read());
      }
      assertTrue(head.toString().startsWith("HTTP/1.1 101"), head.toString());
      // A masked text frame announcing 300 KiB (RFC 6455, 5.2): FIN+text, mask bit and 127, then a 64-bit length.
      ByteArrayOutputStream frame = new ByteArrayOutputStream();
      frame.write(0x81);
      frame.write(0x80 | 127);
      frame.write(ByteBuffer.allocate(8).putLong(300L * 1024).array());
      frame.write(new byte[] {1, 2, 3, 4});
      frame.write(new byte[1024]);
      out.write(frame.toByteArray());
      out.flush();
      int first = in.read();
      int length = in.read();
      int code = (in.read() << 8) | in.read();
      assertAll(
          () -> assertEquals(0x88, first, "a close frame"),
          () -> assertTrue(length >= 2, "with a status code"),
          () -> assertEquals(1009, code, "1009: too big"));
    }
  }

  @Test
  void healthReadinessAndMetricsAnswer() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    String base = "http://127.0.0.1:" + node.port();
    HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(base + "/healthz")).build(),
        HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> ready = http.send(HttpRequest.newBuilder(URI.create(base + "/readyz")).build(),
        HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    assertAll(
        () -> assertEquals(200, health.statusCode()),
        () -> assertEquals(200, ready.statusCode()),
        () -> assertTrue(ready.body().contains("\"ready\":true"), ready.body()),
        () -> assertEquals(200, metrics.statusCode()),
        () -> assertTrue(metrics.body().contains("runnel_sockets"), metrics.body()),
        () -> assertTrue(metrics.body().contains("runnel_resumes_total{path=\"delta\"}"), metrics.body()),
        () -> assertTrue(metrics.body().contains("runnel_window_reads_total"), metrics.body()));
  }
}
