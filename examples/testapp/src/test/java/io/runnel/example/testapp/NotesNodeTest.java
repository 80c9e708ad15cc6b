package io.runnel.example.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The app's node over plain HTTP: the page's files, and {@code putNote}'s answers to good and bad calls. */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NotesNodeTest {

  static final String ID = "0190f3a2-7b4c-7d00-8e2a-1c2b3d4e5f60";

  NotesWorld world;
  final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    world = new NotesWorld(db);
  }

  @AfterAll
  void stop() {
    world.close();
  }

  HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(world.origin() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> put(String token, String key, String input) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(world.origin() + "/v1/mutate/putNote"))
        .header("Authorization", "Bearer " + token).header("Idempotency-Key", key)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"input\":" + input + "}")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static String type(HttpResponse<?> r) {
    return r.headers().firstValue("Content-Type").orElse("");
  }

  @Test
  void theNodeServesThePageItsScriptAndTheBundleWithTheirTypes() throws Exception {
    HttpResponse<String> index = get("/");
    HttpResponse<String> app = get("/app.js");
    HttpResponse<String> bundle = get("/js/notes-app.js");
    assertAll(
        () -> assertEquals(200, index.statusCode()),
        () -> assertTrue(type(index).startsWith("text/html"), type(index)),
        () -> assertTrue(index.body().contains("<link rel=\"icon\" href=\"data:,\">"), "no favicon request"),
        () -> assertTrue(index.body().contains("<script type=\"module\" src=\"/app.js\">"), "the module script"),
        () -> assertEquals(200, app.statusCode()),
        () -> assertTrue(type(app).startsWith("text/javascript"), type(app)),
        () -> assertTrue(app.body().contains("from '/js/notes-app.js'"), "the script imports the bundle"),
        () -> assertEquals(200, bundle.statusCode()),
        () -> assertTrue(type(bundle).startsWith("text/javascript"), type(bundle)),
        () -> assertTrue(bundle.body().contains("export"), "an ES module"),
        () -> assertEquals(404, get("/js/other.js").statusCode()));
  }

  @Test
  void putNoteInsertsThenRenamesAndRefusesAnotherOrgsNoteAndBadInput() throws Exception {
    HttpResponse<String> created = put("ada@acme", "putNote:1",
        "{\"id\":\"" + ID + "\",\"listId\":\"l\",\"title\":\"a\"}");
    HttpResponse<String> renamed = put("ada@acme", "putNote:2",
        "{\"id\":\"" + ID + "\",\"listId\":\"l\",\"title\":\"b\"}");
    HttpResponse<String> taken = put("eve@globex", "putNote:3",
        "{\"id\":\"" + ID + "\",\"listId\":\"l\",\"title\":\"stolen\"}");
    HttpResponse<String> badId = put("ada@acme", "putNote:4", "{\"id\":\"1\",\"listId\":\"l\",\"title\":\"a\"}");
    HttpResponse<String> blank = put("ada@acme", "putNote:5",
        "{\"id\":\"" + ID + "\",\"listId\":\"l\",\"title\":\"\"}");
    HttpResponse<String> nobody = put("ada", "putNote:6", "{\"id\":\"" + ID + "\",\"listId\":\"l\",\"title\":\"c\"}");
    assertAll(
        () -> assertEquals(200, created.statusCode(), created.body()),
        () -> assertTrue(created.body().contains("\"result\":{\"id\":\"" + ID + "\"}"), created.body()),
        () -> assertEquals(200, renamed.statusCode(), renamed.body()),
        () -> assertEquals(409, taken.statusCode(), taken.body()),
        () -> assertTrue(taken.body().contains("X_NOTE_TAKEN"), taken.body()),
        () -> assertEquals(422, badId.statusCode(), badId.body()),
        () -> assertTrue(badId.body().contains("X_INPUT_INVALID"), badId.body()),
        () -> assertEquals(422, blank.statusCode(), blank.body()),
        () -> assertEquals(401, nobody.statusCode(), nobody.body()),
        () -> assertEquals(List.of("b"), world.titles("l"), "one note, renamed, never another org's"));
  }
}
