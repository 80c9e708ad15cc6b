package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.runnel.server.AllRole;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one process on the embedded PostgreSQL keeps its data in its data folder ({@code RUNNEL_DATA_DIR}, by default
 * {@code .runnel/pgdata}): a second run on the same folder finds what the first run wrote, and migrates and seeds
 * nothing again.
 */
class BoardSecondRunTest {

  /** What the seed and the migrations left, read straight from the database: posts, users, orgs, migrations. */
  static String counts(AllRole app) throws Exception {
    try (Connection c = app.embedded().connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT (SELECT count(*) FROM posts) || ' posts, '"
            + " || (SELECT count(*) FROM users) || ' users, ' || (SELECT count(*) FROM orgs) || ' orgs, '"
            + " || (SELECT count(*) FROM flyway_schema_history) || ' migrations'")) {
      r.next();
      return r.getString(1);
    }
  }

  static String title(BoardHttp.Answer read) {
    JsonArray records = (JsonArray) read.get("records");
    if (records.elements().size() != 1) {
      return records.elements().size() + " records: " + read.body();
    }
    JsonObject row = (JsonObject) ((JsonObject) records.elements().get(0)).get("row");
    return ((JsonString) row.get("title")).value();
  }

  @Test
  void aSecondRunOnTheSameDataFolderFindsTheFirstRunsPostAndDoesNotSeedAgain(@TempDir Path dir) throws Exception {
    Map<String, String> env = Map.of("RUNNEL_DATA_DIR", dir.resolve("pgdata").toString(), "RUNNEL_DEV", "true",
        "PORT", "0");
    String id = UUID.randomUUID().toString();
    String input = "{\"id\":\"" + id + "\"}";
    BoardHttp.Answer created;
    String firstCounts;
    try (AllRole first = BoardHttp.start(env)) {
      BoardHttp http = new BoardHttp(first.port());
      created = http.mutate(http.token("ada"), "createPost",
          "{\"id\":\"" + id + "\",\"title\":\"Kept between runs\",\"body\":\"written by the first run\"}");
      firstCounts = counts(first);
    }
    BoardHttp.Answer read;
    BoardHttp.Answer feed;
    String secondCounts;
    try (AllRole second = BoardHttp.start(env)) {
      BoardHttp http = new BoardHttp(second.port());
      String ada = http.token("ada");
      read = http.query(ada, "post", input);
      feed = http.query(ada, "liveFeed", "{\"orgId\":\"acme\"}");
      secondCounts = counts(second);
    }
    assertAll(
        () -> assertEquals(200, created.status(), String.valueOf(created.body())),
        () -> assertEquals("21 posts, 3 users, 2 orgs, 2 migrations", firstCounts, "the seed's 20 posts and one more"),
        () -> assertEquals(200, read.status(), String.valueOf(read.body())),
        () -> assertEquals("Kept between runs", title(read), "the second run reads the first run's post over HTTP"),
        () -> assertEquals(15, ((JsonArray) feed.get("records")).elements().size(), "acme's 14 seeded posts and it"),
        () -> assertEquals(firstCounts, secondCounts, "the second run applied no migration and no seed"));
  }
}
