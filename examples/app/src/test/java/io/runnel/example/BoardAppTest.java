package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one process ({@code RUNNEL_ROLE=all}, development mode) over real HTTP on a real PostgreSQL: the development
 * sign-in, the board's routes, and tenancy (a globex user can neither read nor write an acme post through any route).
 */
@FreshDatabase
class BoardAppTest {

  /** The first seeded post, an acme post by ada. */
  static final String ACME_POST = seedPost(1);

  static BoardApp app;
  static BoardHttp http;
  static TestDatabase db;

  @BeforeAll
  static void start(TestDatabase database) throws Exception {
    db = database;
    app = BoardHttp.start(BoardHttp.env(database, "RUNNEL_DEV", "true"));
    http = new BoardHttp(app.port());
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  /** The id of seed post {@code n}, as the seed migration makes it: {@code md5('runnel-seed-post-<n>')::uuid}. */
  static String seedPost(int n) {
    try {
      byte[] md5 = java.security.MessageDigest.getInstance("MD5")
          .digest(("runnel-seed-post-" + n).getBytes(StandardCharsets.UTF_8));
      String hex = java.util.HexFormat.of().formatHex(md5);
      return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-"
          + hex.substring(16, 20) + "-" + hex.substring(20);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  static String one(String sql) throws Exception {
    try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getString(1);
    }
  }

  @Test
  void devSignInAnswersASignedTokenAndTheSessionCookieForASeededUser() throws Exception {
    BoardHttp.Answer ok = http.signIn("{\"user\":\"ada\"}");
    String token = ((JsonString) ok.get("token")).value();
    String cookie = ok.raw().headers().firstValue("set-cookie").orElse("");
    BoardHttp.Answer feed = http.query(token, "liveFeed", "{\"orgId\":\"acme\"}");
    assertAll(
        () -> assertEquals(200, ok.status()),
        () -> assertEquals(3, token.split("\\.").length, "a JWT: " + token),
        () -> assertTrue(cookie.startsWith("runnel_session=" + token + ";"), cookie),
        () -> assertTrue(cookie.contains("HttpOnly"), cookie),
        () -> assertEquals(200, feed.status(), String.valueOf(feed.body())),
        () -> assertEquals(14, ((JsonArray) feed.get("records")).elements().size(), "acme's 14 seeded posts"));
  }

  @Test
  void devSignInRefusesAnUnknownUserAndABadBodyWithCodes() throws Exception {
    BoardHttp.Answer unknown = http.signIn("{\"user\":\"mallory\"}");
    BoardHttp.Answer notJson = http.signIn("ada");
    BoardHttp.Answer extra = http.signIn("{\"user\":\"ada\",\"org\":\"globex\"}");
    BoardHttp.Answer noToken = http.query(null, "liveFeed", "{\"orgId\":\"acme\"}");
    assertAll(
        () -> assertEquals(422, unknown.status()),
        () -> assertEquals("X_USER_UNKNOWN", unknown.code()),
        () -> assertEquals(422, notJson.status()),
        () -> assertEquals("X_INPUT_INVALID", notJson.code()),
        () -> assertEquals("X_INPUT_INVALID", extra.code()),
        () -> assertTrue(unknown.raw().headers().firstValue("set-cookie").isEmpty(), "no cookie for a refusal"),
        () -> assertEquals(401, noToken.status()));
  }

  @Test
  void aGlobexUserCanNeitherReadNorWriteAnAcmePostThroughAnyRoute() throws Exception {
    String grace = http.token("grace");
    String before = one("SELECT like_count || ':' || (SELECT count(*) FROM likes) FROM posts WHERE id = '"
        + ACME_POST + "'");
    String ref = "{\"postId\":\"" + ACME_POST + "\"}";
    BoardHttp.Answer like = http.mutate(grace, "likePost", ref);
    BoardHttp.Answer unlike = http.mutate(grace, "unlikePost", ref);
    BoardHttp.Answer delete = http.mutate(grace, "deletePost", ref);
    BoardHttp.Answer feed = http.query(grace, "liveFeed", "{\"orgId\":\"acme\"}");
    BoardHttp.Answer post = http.query(grace, "post", "{\"id\":\"" + ACME_POST + "\"}");
    BoardHttp.Answer own = http.query(grace, "liveFeed", "{\"orgId\":\"globex\"}");
    assertAll(
        () -> assertEquals(409, like.status()),
        () -> assertEquals("X_POST_NOT_FOUND", like.code(), "the same answer as an unknown id: nothing revealed"),
        () -> assertEquals("X_POST_NOT_FOUND", unlike.code()),
        () -> assertEquals("X_POST_NOT_FOUND", delete.code()),
        () -> assertEquals(403, feed.status()),
        () -> assertEquals("X_TENANCY_ACTOR_MISMATCH", feed.code()),
        () -> assertEquals(200, post.status(), "a read is pinned to globex, so the acme post is not there"),
        () -> assertEquals(0, ((JsonArray) post.get("records")).elements().size()),
        () -> assertEquals(6, ((JsonArray) own.get("records")).elements().size(), "globex's own 6 posts"),
        () -> assertEquals(before, one("SELECT like_count || ':' || (SELECT count(*) FROM likes) FROM posts WHERE id = '"
            + ACME_POST + "'"), "nothing written"));
  }

  @Test
  void createLikeTwiceUnlikeAndDeleteActOnceAndOnlyTheAuthorDeletes() throws Exception {
    String ada = http.token("ada");
    String alan = http.token("alan");
    String id = UUID.randomUUID().toString();
    BoardHttp.Answer created = http.mutate(ada, "createPost",
        "{\"id\":\"" + id + "\",\"title\":\"Hello\",\"body\":\"from ada\"}");
    BoardHttp.Answer again = http.mutate(alan, "createPost", "{\"id\":\"" + id + "\",\"title\":\"Mine\",\"body\":\"\"}");
    String ref = "{\"postId\":\"" + id + "\"}";
    http.mutate(alan, "likePost", ref);
    http.mutate(alan, "likePost", ref);
    http.mutate(ada, "likePost", ref);
    String twoLikes = one("SELECT like_count || ':' || org_id || ':' || author_id FROM posts WHERE id = '" + id + "'");
    http.mutate(ada, "unlikePost", ref);
    http.mutate(ada, "unlikePost", ref);
    String oneLike = one("SELECT like_count FROM posts WHERE id = '" + id + "'");
    BoardHttp.Answer byAlan = http.mutate(alan, "deletePost", ref);
    BoardHttp.Answer byAda = http.mutate(ada, "deletePost", ref);
    assertAll(
        () -> assertEquals(200, created.status(), String.valueOf(created.body())),
        () -> assertEquals(id, ((JsonString) ((JsonObject) created.get("result")).get("id")).value(), "result {id}"),
        () -> assertEquals("X_POST_EXISTS", again.code()),
        () -> assertEquals("2:acme:ada", twoLikes, "alan's second like changed nothing; org and author are the actor's"),
        () -> assertEquals("1", oneLike, "ada's second unlike changed nothing"),
        () -> assertEquals("X_POST_NOT_AUTHOR", byAlan.code()),
        () -> assertEquals(200, byAda.status()),
        () -> assertEquals("0", one("SELECT count(*) FROM posts WHERE id = '" + id + "'")),
        () -> assertEquals("0", one("SELECT count(*) FROM likes WHERE post_id = '" + id + "'"), "its likes went too"));
  }

  @Test
  void theNodeServesThePageItsScriptItsStyleAndTheBoardsBundle() throws Exception {
    java.net.http.HttpClient c = java.net.http.HttpClient.newHttpClient();
    String base = "http://127.0.0.1:" + app.port();
    java.util.function.Function<String, java.net.http.HttpResponse<String>> get = path -> {
      try {
        return c.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + path)).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
    var page = get.apply("/");
    var script = get.apply("/app.js");
    var bundle = get.apply("/js/board-client.js");
    assertAll(
        () -> assertEquals(200, page.statusCode()),
        () -> assertTrue(page.body().contains("<script type=\"module\" src=\"/app.js\">"), page.body()),
        () -> assertTrue(script.body().contains("from '/js/board-client.js'")),
        () -> assertEquals("text/javascript; charset=utf-8", bundle.headers().firstValue("content-type").orElse("")),
        () -> assertTrue(bundle.body().contains("export"), "an ES module"),
        () -> assertEquals(200, get.apply("/app.css").statusCode()));
  }

  @Test
  void theBannerPrintsTheUrlTheJdbcUrlAndHowToSignIn() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Main.printBanner(new PrintStream(out, true, StandardCharsets.UTF_8), app,
        AppConfig.fromEnvironment(BoardHttp.env(db, "RUNNEL_DEV", "true"), java.nio.file.Path.of("target")));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertAll(
        () -> assertTrue(printed.contains("http://localhost:" + app.port() + "/"), printed),
        () -> assertTrue(printed.contains(app.jdbcUrl()), printed),
        () -> assertTrue(printed.contains("/v1/dev/sign-in"), printed));
  }
}
