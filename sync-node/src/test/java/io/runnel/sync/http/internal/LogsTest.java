package io.runnel.sync.http.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.sync.Sockets;
import io.runnel.sync.log.JsonLogFormatter;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The node's logs as an operator reads them: every request has an id (its own {@code X-Request-Id} when usable),
 * echoed in the answer and carried by the lines logged while handling it; and no line, at any level, holds a bearer
 * token, a claim or a row value, whatever the requests carried.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LogsTest {

  /** The actor's id and org are claims: the test identities' token is {@code user@org}. */
  static final String USER = "usr-Zq7uXk";
  static final String ORG = "org-Kp3vWn";
  static final String TOKEN = USER + "@" + ORG;
  static final String BAD_TOKEN = "bad-Tq1zRm";
  static final String ROW = "row-Wd9qHs";

  WriteFixture world;
  final List<String> lines = Collections.synchronizedList(new ArrayList<>());
  final Logger root = Logger.getLogger("");
  final Logger runnel = Logger.getLogger("io.runnel");
  Level runnelLevel;
  final Handler capture = new Handler() {
    @Override
    public void publish(LogRecord record) {
      if (isLoggable(record)) {
        lines.add(getFormatter().format(record));
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    capture.setFormatter(new JsonLogFormatter());
    capture.setLevel(Level.ALL);
    root.addHandler(capture);
    runnelLevel = runnel.getLevel();
    runnel.setLevel(Level.ALL);
    // A unique body, so a duplicate makes PostgreSQL quote the row's value in its DETAIL.
    world = new WriteFixture(db, "logs", "CREATE UNIQUE INDEX notes_body ON notes (body);");
  }

  @AfterAll
  void stop() {
    world.close();
    root.removeHandler(capture);
    runnel.setLevel(runnelLevel);
  }

  static String bearer(String token) {
    return "Bearer " + token;
  }

  Map<String, String> call(String token, String requestId) {
    return Map.of("Authorization", bearer(token), "Idempotency-Key", UUID.randomUUID().toString(),
        "Content-Type", "application/json", "X-Request-Id", requestId);
  }

  List<JsonObject> linesOf(String requestId) {
    List<JsonObject> of = new ArrayList<>();
    synchronized (lines) {
      for (String l : lines) {
        JsonObject o = (JsonObject) Json.parse(l.strip());
        if (o.get("requestId") instanceof JsonString s && s.value().equals(requestId)) {
          of.add(o);
        }
      }
    }
    return of;
  }

  @Test
  void aRequestsIdIsEchoedAndCarriedByItsLogLinesWithTheErrorIdOfA500() {
    HttpCalls.Answer failed = world.http.mutate("explode", call(TOKEN, "req-explode-1"),
        "{\"input\":{\"id\":900,\"body\":\"" + ROW + "\"}}");
    HttpCalls.Answer generated = world.http.get("/healthz", Map.of());
    HttpCalls.Answer replaced = world.http.get("/healthz", Map.of("X-Request-Id", "x".repeat(129)));
    List<JsonObject> logged = linesOf("req-explode-1");
    String errorId = failed.field("errorId");
    assertAll(
        () -> assertEquals(500, failed.status(), failed.body()),
        () -> assertEquals("req-explode-1", failed.header("X-Request-Id"), "the caller's id is echoed"),
        () -> assertTrue(generated.header("X-Request-Id").matches("[0-9a-f-]{36}"), "none sent: one is made"),
        () -> assertTrue(replaced.header("X-Request-Id").matches("[0-9a-f-]{36}"), "129 characters: replaced"),
        () -> assertNotEquals(generated.header("X-Request-Id"), replaced.header("X-Request-Id")),
        () -> assertFalse(logged.isEmpty(), "the 500 was logged under its request id: " + lines),
        () -> assertTrue(logged.stream().anyMatch(o -> o.get("errorId") instanceof JsonString s
            && s.value().equals(errorId) && o.get("thrown") != null), "the line names the body's errorId: " + logged));
  }

  @Test
  void noLogLineHoldsATokenAClaimOrARowValue() throws Exception {
    HttpCalls http = world.http;
    ProtocolClient<JsonObject> socket = Sockets.open(world.node.port(), Map.of("Authorization", bearer(TOKEN)));
    socket.send("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"notes\",\"in\":{}}");
    socket.next();
    List<HttpCalls.Answer> answers = new ArrayList<>();
    answers.add(http.mutate("addNote", call(TOKEN, "req-add"), "{\"input\":{\"id\":1,\"body\":\"" + ROW + "\"}}"));
    answers.add(http.mutate("claim", call(TOKEN, "req-claim"), "{\"input\":{\"id\":2,\"body\":\"" + ROW + "-c\"}}"));
    answers.add(
        http.mutate("explode", call(TOKEN, "req-explode"), "{\"input\":{\"id\":3,\"body\":\"" + ROW + "-e\"}}"));
    answers.add(http.mutate("crash", call(TOKEN, "req-crash"), "{\"input\":{\"id\":4,\"body\":\"" + ROW + "-k\"}}"));
    answers.add(http.mutate("addNote", call(BAD_TOKEN, "req-bad"), "{\"input\":{\"id\":5,\"body\":\"" + ROW + "\"}}"));
    answers.add(http.mutate("addNote", call(TOKEN, "req-dup"), "{\"input\":{\"id\":6,\"body\":\"" + ROW + "\"}}"));
    answers.add(http.get("/v1/query/notesOfOrg?input=" + URLEncoder.encode("{\"org\":\"" + ROW + "\"}",
        StandardCharsets.UTF_8), Map.of("Authorization", bearer(TOKEN))));
    answers.add(http.get("/v1/query/note?input=" + URLEncoder.encode("{\"id\":\"" + ROW + "\"}",
        StandardCharsets.UTF_8), Map.of("Authorization", bearer(TOKEN))));
    answers.add(http.method("POST", "/v1/tickets", Map.of("Authorization", bearer(TOKEN))));
    answers.add(http.method("POST", "/v1/tickets", Map.of("Authorization", bearer(BAD_TOKEN))));
    JsonObject patch = socket.next();
    socket.send("{\"t\":\"sub\",\"sid\":\"s2\",\"q\":\"nope\",\"in\":{\"x\":\"" + ROW + "\"}}");
    socket.next();
    socket.send("{\"t\":\"sub\",\"sid\":\"s3\",\"q\":\"notes\",\"in\":{\"x\":\"" + ROW + "\"}}");
    socket.next();
    socket.close();
    assertThrows(CompletionException.class,
        () -> Sockets.open(world.node.port(), Map.of("Authorization", bearer(BAD_TOKEN))),
        "an upgrade with a refused token is refused");
    String all;
    synchronized (lines) {
      all = String.join("", lines);
    }
    assertAll(
        () -> assertTrue(patch.toString().contains(ROW), "the row value did travel through the node"),
        () -> assertEquals(List.of(200, 409, 500, 500, 401, 500, 403, 422, 200, 401),
            answers.stream().map(HttpCalls.Answer::status).toList(), "each kind of answer was exercised"),
        () -> assertTrue(linesOf("req-dup").stream().anyMatch(o -> o.get("thrown").toString().contains("23505")),
            "the duplicate's failure is logged by its SQLState: " + linesOf("req-dup")),
        () -> assertTrue(lines.size() >= 3, "the failures were logged: " + lines.size() + " lines"),
        () -> assertFalse(all.contains(TOKEN), "no bearer token in the logs"),
        () -> assertFalse(all.contains(BAD_TOKEN), "no refused token in the logs"),
        () -> assertFalse(all.contains(USER), "no actor id (a claim) in the logs"),
        () -> assertFalse(all.contains(ORG), "no org id (a claim) in the logs"),
        () -> assertFalse(all.contains(ROW), "no row or input value in the logs"));
  }
}
