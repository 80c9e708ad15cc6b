package io.runnel.sync.http.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.sync.SyncNode;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The write path against what a hostile client or an external checker sends: errors thrown by a server function,
 * cross-port origins, replays racing the first answer, oversized and malformed requests.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileCallsTest {

  TestDatabase db;
  WriteFixture world;
  SyncNode node;
  HttpCalls http;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    this.db = db;
    world = new WriteFixture(db, "hostile", "");
    node = world.node;
    http = world.http;
  }

  @AfterAll
  void stop() {
    world.close();
  }

  long count(String sql) throws Exception {
    try (Connection c = db.connect(); ResultSet r = c.createStatement().executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }

  /** A raw HTTP/1.1 exchange, so the test controls Host and Origin exactly as a browser on another port sends them. */
  String raw(String request) throws Exception {
    try (Socket s = new Socket("127.0.0.1", node.port())) {
      s.setSoTimeout(15_000);
      OutputStream out = s.getOutputStream();
      out.write(request.getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      byte[] buf = new byte[8192];
      try {
        for (int n; (n = in.read(buf)) > 0; ) {
          got.write(buf, 0, n);
          String text = got.toString(StandardCharsets.UTF_8);
          if (text.startsWith("HTTP/1.1 101") && text.contains("\r\n\r\n")) {
            break;
          }
        }
      } catch (SocketTimeoutException e) {
        // keep-alive answer read whole
      }
      return got.toString(StandardCharsets.UTF_8);
    }
  }

  @Test
  void anErrorThrownByAServerFunctionRollsBackItsEffectsAndAnswersX_INTERNAL() throws Exception {
    HttpCalls.Answer a = http.mutate("crash", "ada@acme", UUID.randomUUID().toString(), "{\"id\":9001,\"body\":\"x\"}");
    long notes = count("SELECT count(*) FROM notes WHERE id = 9001");
    long stored = count("SELECT count(*) FROM runnel.idempotency WHERE mutator = 'crash'");
    assertAll(
        () -> assertEquals(0, notes, "the function's insert must be rolled back, not committed by setAutoCommit(true)"),
        () -> assertEquals(0, stored, "a failure stores nothing"),
        () -> assertEquals(500, a.status(), a.body()),
        () -> assertTrue(a.body().contains("\"X_INTERNAL\"") && a.body().contains("errorId"), a.body()));
  }

  @Test
  void aCookiePostFromAnotherPortOfTheNodesHostIsRefusedWhenHostCarriesNoPort() throws Exception {
    // A browser on https://app.example.com sends "Host: app.example.com"; a page on app.example.com:9999 (another
    // origin, same cookies: cookies ignore ports) sends "Origin: http://app.example.com:9999".
    String body = "{\"input\":{\"name\":\"cross-port\"}}";
    String mutate = raw("POST /v1/mutate/bump HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:9999\r\n"
        + "Cookie: runnel_session=ada@acme\r\nIdempotency-Key: " + UUID.randomUUID() + "\r\n"
        + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n"
        + body);
    String upgrade = raw("GET /v1/sync HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:9999\r\n"
        + "Cookie: runnel_session=ada@acme\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    long effects = count("SELECT count(*) FROM counters WHERE name = 'cross-port'");
    assertAll(
        () -> assertTrue(mutate.startsWith("HTTP/1.1 403") && mutate.contains("X_ORIGIN_REFUSED"), mutate),
        () -> assertEquals(0, effects, "the foreign page's cookie POST ran the mutator"),
        () -> assertTrue(upgrade.startsWith("HTTP/1.1 403") && upgrade.contains("X_SOCKET_ORIGIN_REFUSED"), upgrade));
  }

  @Test
  void aReplayWhileTheFirstCallCompletesItsLsnAnswersTheFirstAnswerByteForByte() throws Exception {
    // Widen the window between the call's COMMIT and IdempotencyStore.complete (the UPDATE that adds the lsn).
    db.execute("""
        CREATE FUNCTION review_slow() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN PERFORM pg_sleep(1.5); RETURN NEW; END $$;
        CREATE TRIGGER review_slow BEFORE UPDATE ON runnel.idempotency FOR EACH ROW EXECUTE FUNCTION review_slow();
        """);
    try {
      String k = UUID.randomUUID().toString();
      CompletableFuture<HttpCalls.Answer> first = CompletableFuture.supplyAsync(
          () -> http.mutate("bump", "ada@acme", k, "{\"name\":\"window\"}"));
      long until = System.nanoTime() + 10_000_000_000L;
      while (count("SELECT count(*) FROM runnel.idempotency WHERE key = '" + k + "'") == 0
          && System.nanoTime() < until) {
        Thread.onSpinWait();
      }
      HttpCalls.Answer replay = http.mutate("bump", "ada@acme", k, "{\"name\":\"window\"}");
      HttpCalls.Answer a = first.get();
      assertAll(
          () -> assertEquals(200, a.status(), a.body()),
          () -> assertEquals(a.body(), replay.body(), "the replay answers the first answer, byte for byte"));
    } finally {
      db.execute("DROP TRIGGER review_slow ON runnel.idempotency; DROP FUNCTION review_slow();");
    }
  }

  @Test
  void aNumberPastTheDoubleRangeInTheInputIsTheCallersFaultNotA500() {
    HttpCalls.Answer a = http.mutate("scale", "ada@acme", UUID.randomUUID().toString(), "{\"factor\":1e400}");
    assertAll(
        () -> assertEquals(422, a.status(), a.body()),
        () -> assertTrue(a.body().contains("X_INPUT_INVALID"), a.body()));
  }

  @Test
  void aQueryInputPastTheHttpStacksLineLimitStillAnswersACodedBody() {
    String big = "{\"org\":\"" + "a".repeat(20_000) + "\"}";
    HttpCalls.Answer a = http.get("/v1/query/notesOfOrg?input=" + URLEncoder.encode(big, StandardCharsets.UTF_8),
        Map.of("Authorization", "Bearer ada@acme"));
    assertAll(
        () -> assertTrue(a.status() >= 400 && a.status() < 500, a.status() + " " + a.body()),
        () -> assertTrue(a.body().startsWith("{") && a.body().contains("\"code\"") && a.body().contains("\"fix\""),
            a.status() + " " + a.body()),
        () -> assertTrue(!a.body().contains("X_INTERNAL") && !a.body().contains("X_FRAME_INVALID"),
            "an HTTP call's refusal names no socket or internal code: " + a.body()));
  }

  @Test
  void aRequestNoRouteAnswersIsA404WithItsOwnCodeNotAnInternalError() {
    Map<String, String> ada = Map.of("Authorization", "Bearer ada@acme");
    HttpCalls.Answer mutatorByGet = http.get("/v1/mutate/bump", ada);
    HttpCalls.Answer unknown = http.get("/v1/nope", Map.of());
    HttpCalls.Answer plainSync = http.get("/v1/sync", ada);
    assertAll(
        () -> assertEquals(404, mutatorByGet.status(), mutatorByGet.body()),
        () -> assertTrue(mutatorByGet.body().contains("\"code\":\"X_ROUTE_UNKNOWN\"")
            && mutatorByGet.body().contains("/v1/mutate/bump") && !mutatorByGet.body().contains("errorId")
            && mutatorByGet.body().contains("POST /v1/mutate/{mutator}"),
            "the caller's mistake, named with its path, no errorId: " + mutatorByGet.body()),
        () -> assertEquals(404, unknown.status(), unknown.body()),
        () -> assertTrue(unknown.body().contains("\"code\":\"X_ROUTE_UNKNOWN\"") && unknown.body().contains("\"fix\""),
            unknown.body()),
        () -> assertEquals(404, plainSync.status(), plainSync.body()),
        () -> assertTrue(plainSync.body().contains("X_ROUTE_UNKNOWN")
            && plainSync.body().contains("Upgrade: websocket"),
            "a plain GET of the socket's path says how to open it: " + plainSync.body()));
  }

  @Test
  void theAuthenticatorsExceptionTextIsNotSentToTheClient() {
    SyncNode broken = world.node(b -> b.authenticator(c -> {
      throw new IllegalStateException("jdbc:postgresql://10.0.0.7/auth password=hunter2");
    }));
    try {
      HttpCalls.Answer a = new HttpCalls(broken.port()).mutate("bump", "ada@acme", UUID.randomUUID().toString(),
          "{\"name\":\"auth\"}");
      assertAll(
          () -> assertEquals(503, a.status(), a.body()),
          () -> assertTrue(!a.body().contains("hunter2"), "exception text reached the client: " + a.body()));
    } finally {
      broken.stop();
    }
  }

  HttpResponse<String> post(HttpRequest.BodyPublisher body) throws Exception {
    HttpRequest r = HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + node.port() + "/v1/mutate/bump"))
        .header("Authorization", "Bearer ada@acme").header("Idempotency-Key", UUID.randomUUID().toString())
        .POST(body).build();
    return HttpClient.newHttpClient().send(r, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void hostileBodiesAndOriginsAreRefusedWithTheirCodes() throws Exception {
    // A chunked body (no Content-Length) of 1.25 MiB of spaces.
    var big = post(HttpRequest.BodyPublishers.ofInputStream(() -> new InputStream() {
      long left = 1_310_720;

      @Override
      public int read() {
        return left-- > 0 ? ' ' : -1;
      }
    }));
    var notUtf8 = post(HttpRequest.BodyPublishers.ofByteArray(
        new byte[] {'{', '"', 'i', (byte) 0xff, '"', ':', '1', '}'}));
    HttpCalls.Answer nullOrigin = http.mutate("bump", Map.of("Cookie", "runnel_session=ada@acme", "Origin", "null",
        "Idempotency-Key", UUID.randomUUID().toString()), "{\"input\":{\"name\":\"null-origin\"}}");
    HttpCalls.Answer mixedCase = http.mutate("bump", Map.of("Cookie", "runnel_session=ada@acme",
        "Origin", "HTTP://127.0.0.1:" + node.port(), "Idempotency-Key", UUID.randomUUID().toString()),
        "{\"input\":{\"name\":\"mixed\"}}");
    assertAll(
        () -> assertEquals(413, big.statusCode(), big.body()),
        () -> assertTrue(big.body().contains("X_PAYLOAD_TOO_LARGE"), big.body()),
        () -> assertEquals(422, notUtf8.statusCode(), notUtf8.body()),
        () -> assertTrue(notUtf8.body().contains("not UTF-8"), notUtf8.body()),
        () -> assertEquals(403, nullOrigin.status(), nullOrigin.body()),
        () -> assertEquals(200, mixedCase.status(), "an origin is compared case-insensitively: " + mixedCase.body()));
  }
}
