package io.runnel.sync;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.helidon.http.HeaderNames;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The app's own routes ({@code SyncNode.Builder.routing}): served from the node's origin, after Runnel's. */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AppRoutesTest {

  static final EntityRef NOTES = EntityRef.of("notes").key("id").columns(c -> c.int4("id").text("org"));
  static final Entity NOTES_ENTITY = Entity.of(NOTES).table("public.notes").tenant("org");
  static final QueryRef<NoInput> ALL = QueryRef.live("notes", NoInput.CODEC, in -> select(NOTES).orderBy(asc("id")));

  final List<String> appSaw = new ArrayList<>();
  LiveFixtureAccess fixture;
  SyncNode node;
  HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE notes (id int PRIMARY KEY, org text)");
    fixture = LiveFixtureAccess.start(db, "approutes", List.of(NOTES_ENTITY));
    node = SyncNode.builder()
        .declarations(Declarations.builder().query(Query.of(ALL).on(NOTES_ENTITY).policy(Policy.authenticated()))
            .build())
        .transport(fixture.bus()).dataSource(fixture.pool())
        .authenticator(JwtAuthenticator.hs256("0123456789abcdef0123456789abcdef-test-only").build())
        .listen("127.0.0.1", 0)
        .routing(r -> r.get("/", (req, res) -> {
          res.header(HeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
          res.send("<p>the app</p>");
        }))
        .routing(r -> r
            .get("/app.js", (req, res) -> {
              res.header(HeaderNames.CONTENT_TYPE, "text/javascript; charset=utf-8");
              res.send("export const a = 1;");
            })
            // Paths Runnel answers: the app's handlers come second and never see these requests.
            .any("/healthz", (req, res) -> {
              appSaw.add("/healthz");
              res.send("the app's healthz");
            })
            .post("/v1/mutate/{mutator}", (req, res) -> {
              appSaw.add("/v1/mutate");
              res.send("the app's mutate");
            }))
        .build();
    node.start();
  }

  @AfterAll
  void stop() {
    node.stop();
    fixture.close();
  }

  HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theAppsRoutesAreServedFromTheNodesOriginInTheOrderGiven() throws Exception {
    HttpResponse<String> page = get("/");
    HttpResponse<String> script = get("/app.js");
    assertAll(
        () -> assertEquals(200, page.statusCode()),
        () -> assertEquals("<p>the app</p>", page.body()),
        () -> assertEquals("text/html; charset=utf-8", page.headers().firstValue("Content-Type").orElse("")),
        () -> assertEquals(200, script.statusCode()),
        () -> assertEquals("text/javascript; charset=utf-8", script.headers().firstValue("Content-Type").orElse(""),
            "a module script needs a JavaScript type"));
  }

  @Test
  void runnelsOwnRoutesComeFirstAndAnythingElseIsNotFound() throws Exception {
    HttpResponse<String> health = get("/healthz");
    HttpResponse<String> mutate = http.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + node.port() + "/v1/mutate/anything"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"input\":{}}")).header("Content-Type", "application/json")
        .header("Idempotency-Key", "anything:1").build(), HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> missing = get("/nothing-here");
    assertAll(
        () -> assertEquals("{\"status\":\"up\"}", health.body(), "Runnel's health route answers"),
        () -> assertEquals(401, mutate.statusCode(), "Runnel's mutate route answers (no credentials): "
            + mutate.body()),
        () -> assertTrue(appSaw.isEmpty(), "the app's handlers never saw Runnel's paths: " + appSaw),
        () -> assertEquals(404, missing.statusCode()));
  }

  @Test
  void aMissingRoutesConsumerIsRefusedAtOnce() {
    assertThrows(NullPointerException.class, () -> SyncNode.builder().routing(null));
  }
}
