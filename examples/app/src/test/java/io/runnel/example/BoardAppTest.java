package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.server.AllRole;
import io.runnel.server.RunnelMain;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The one process ({@code RUNNEL_ROLE=all}, development mode) over real HTTP on a real PostgreSQL: the development
 * sign-in, the board's routes, and tenancy (a globex user can neither read nor write an acme post through any route:
 * the mutate and query routes and the socket each refuse with its code and write nothing).
 */
@FreshDatabase
class BoardAppTest {

  /** The first seeded post, an acme post by ada. */
  static final String ACME_POST = seedPost(1);

  static AllRole app;
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
      byte[] md5 = MessageDigest.getInstance("MD5")
          .digest(("runnel-seed-post-" + n).getBytes(StandardCharsets.UTF_8));
      String hex = HexFormat.of().formatHex(md5);
      return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-"
          + hex.substring(16, 20) + "-" + hex.substring(20);
    } catch (NoSuchAlgorithmException e) {
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

  /**
   * What a refused write must leave as it was: the rows of posts and likes (counted, and each table's rows digested)
   * and the acme post's like count.
   */
  static String writeState() throws Exception {
    return one("SELECT (SELECT count(*) FROM posts) || ' posts, ' || (SELECT count(*) FROM likes) || ' likes, '"
        + " || (SELECT like_count FROM posts WHERE id = '" + ACME_POST + "') || ' on the acme post, digests '"
        + " || (SELECT md5(string_agg(p::text, ',' ORDER BY p.id)) FROM posts p) || ' '"
        + " || (SELECT md5(coalesce(string_agg(l::text, ',' ORDER BY l.post_id, l.user_id), '')) FROM likes l)");
  }

  static String ref(String postId) {
    return "{\"postId\":\"" + postId + "\"}";
  }

  static String postInput(String id) {
    return "{\"id\":\"" + id + "\"}";
  }

  static String sub(String sid, String query, String input) {
    return "{\"t\":\"sub\",\"sid\":\"" + sid + "\",\"q\":\"" + query + "\",\"in\":" + input + "}";
  }

  static List<BoardFrame> framesOf(List<BoardFrame> frames, String sid) {
    return frames.stream().filter(f -> sid.equals(f.sid())).toList();
  }

  /** Checks an HTTP refusal: its status, and a body that is exactly {@code {code, cause, fix}} with that code. */
  static List<Executable> refused(String what, BoardHttp.Answer a, int status, String code) {
    return List.of(
        () -> assertEquals(status, a.status(), what + ": " + a.body()),
        () -> assertEquals(code, a.code(), what + ": " + a.body()),
        () -> assertEquals(Set.of("code", "cause", "fix"), ((JsonObject) a.body()).members().keySet(), what),
        () -> assertFalse(((JsonString) a.get("fix")).value().isBlank(), what + ": a fix"));
  }

  /** Checks a socket refusal: the sid's only frame is a {@code refuse} with that code. */
  static List<Executable> refused(String what, List<BoardFrame> frames, String code) {
    return List.of(
        () -> assertEquals(1, frames.size(), what + ": one frame, no snapshot: " + frames),
        () -> assertEquals("refuse", frames.get(0).t(), what + ": " + frames),
        () -> assertEquals(code, frames.get(0).text("code"), what + ": " + frames),
        () -> assertEquals(Set.of("t", "sid", "code", "cause", "fix"), frames.get(0).json().members().keySet(), what));
  }

  @Test
  void aGlobexUserCanNeitherLikeDeleteNorReadAnAcmePostThroughAnyRouteEachRefusedWithItsCode() throws Exception {
    String ada = http.token("ada");
    String grace = http.token("grace");
    http.mutate(ada, "likePost", ref(ACME_POST)); // a like that grace's unlike must not take back
    String title = one("SELECT title FROM posts WHERE id = '" + ACME_POST + "'");
    String body = one("SELECT body FROM posts WHERE id = '" + ACME_POST + "'");
    String before = writeState();
    BoardHttp.Answer like = http.mutate(grace, "likePost", ref(ACME_POST));
    BoardHttp.Answer unlike = http.mutate(grace, "unlikePost", ref(ACME_POST));
    BoardHttp.Answer delete = http.mutate(grace, "deletePost", ref(ACME_POST));
    BoardHttp.Answer post = http.query(grace, "post", postInput(ACME_POST));
    BoardHttp.Answer feed = http.query(grace, "liveFeed", "{\"orgId\":\"acme\"}");
    BoardHttp.Answer ownFeed = http.query(grace, "liveFeed", "{\"orgId\":\"globex\"}");
    List<BoardFrame> frames;
    try (ProtocolClient<BoardFrame> socket = BoardFrame.socket(app.port(), grace)) {
      socket.send("{\"t\":\"hello\",\"v\":1}");
      socket.send(sub("acmePost", "post", postInput(ACME_POST)));
      socket.send(sub("acmeFeed", "liveFeed", "{\"orgId\":\"acme\"}"));
      socket.send(sub("ownPost", "post", postInput(seedPost(15))));
      // One socket's frames are handled in order: the refusals are queued before ownPost's snapshot.
      frames = socket.until(f -> f.t().equals("snapshot") && "ownPost".equals(f.sid()));
    }
    String after = writeState();
    List<BoardFrame> own = framesOf(frames, "ownPost");
    List<String> answers = new ArrayList<>();
    for (BoardHttp.Answer a : List.of(like, unlike, delete, post, feed)) {
      answers.add(a.raw().body());
    }
    framesOf(frames, "acmePost").forEach(f -> answers.add(f.text()));
    framesOf(frames, "acmeFeed").forEach(f -> answers.add(f.text()));
    List<Executable> checks = new ArrayList<>();
    checks.addAll(refused("likePost", like, 409, "X_POST_NOT_FOUND"));
    checks.addAll(refused("unlikePost", unlike, 409, "X_POST_NOT_FOUND"));
    checks.addAll(refused("deletePost", delete, 409, "X_POST_NOT_FOUND"));
    checks.addAll(refused("GET post", post, 403, "X_TENANCY_ACTOR_MISMATCH"));
    checks.addAll(refused("GET liveFeed acme", feed, 403, "X_TENANCY_ACTOR_MISMATCH"));
    checks.addAll(refused("sub post", framesOf(frames, "acmePost"), "X_TENANCY_ACTOR_MISMATCH"));
    checks.addAll(refused("sub liveFeed acme", framesOf(frames, "acmeFeed"), "X_TENANCY_ACTOR_MISMATCH"));
    checks.add(() -> assertEquals(before, after, "nothing written"));
    checks.add(() -> assertEquals(seedPost(15), ((JsonString) ((JsonObject) ((JsonArray) own.get(0).json()
        .get("records")).elements().get(0)).get("key")).value(), "the socket reads grace's own post: " + own));
    checks.add(() -> assertEquals(6, ((JsonArray) ownFeed.get("records")).elements().size(), "globex's own 6 posts"));
    for (String answer : answers) {
      checks.add(() -> assertFalse(answer.contains(title) || answer.contains(body) || answer.contains("\"ada\"")
          || answer.contains("\"records\"") || answer.contains("\"row\""), "nothing of the acme post: " + answer));
    }
    assertAll(checks);
  }

  @Test
  void aPostIdNoOrgHoldsIsAnEmptyReadOverHttpAndTheSocketAndNotFoundToTheMutators() throws Exception {
    String grace = http.token("grace");
    String nowhere = UUID.randomUUID().toString();
    String before = writeState();
    BoardHttp.Answer post = http.query(grace, "post", postInput(nowhere));
    BoardHttp.Answer like = http.mutate(grace, "likePost", ref(nowhere));
    List<BoardFrame> frames;
    try (ProtocolClient<BoardFrame> socket = BoardFrame.socket(app.port(), grace)) {
      socket.send(sub("nowhere", "post", postInput(nowhere)));
      frames = socket.until(f -> "nowhere".equals(f.sid()));
    }
    BoardFrame last = frames.get(frames.size() - 1);
    assertAll(
        () -> assertEquals(200, post.status(), String.valueOf(post.body())),
        () -> assertEquals(List.of(), ((JsonArray) post.get("records")).elements(), "an empty read"),
        () -> assertEquals("snapshot", last.t(), last.text()),
        () -> assertEquals(List.of(), ((JsonArray) last.json().get("records")).elements(), "an empty snapshot"),
        () -> assertEquals(409, like.status()),
        () -> assertEquals("X_POST_NOT_FOUND", like.code()),
        () -> assertEquals(before, writeState(), "nothing written"));
  }

  @Test
  void anAcmeUserWhoIsNotTheAuthorCannotDeleteAnAcmePostAndNothingIsWritten() throws Exception {
    String ada = http.token("ada");
    String alan = http.token("alan");
    http.mutate(ada, "likePost", ref(ACME_POST)); // the likes that would go with the post
    String before = writeState();
    BoardHttp.Answer delete = http.mutate(alan, "deletePost", ref(ACME_POST));
    List<Executable> checks = new ArrayList<>(refused("alan's deletePost of ada's post", delete, 409,
        "X_POST_NOT_AUTHOR"));
    checks.add(() -> assertEquals("ada", one("SELECT author_id FROM posts WHERE id = '" + ACME_POST + "'")));
    checks.add(() -> assertEquals(before, writeState(), "nothing written: the post and its likes are there"));
    assertAll(checks);
  }

  @Test
  void createLikeTwiceUnlikeAndDeleteActOnceAndOnlyTheAuthorDeletes() throws Exception {
    String ada = http.token("ada");
    String alan = http.token("alan");
    String id = UUID.randomUUID().toString();
    BoardHttp.Answer created = http.mutate(ada, "createPost",
        "{\"id\":\"" + id + "\",\"title\":\"Hello\",\"body\":\"from ada\"}");
    BoardHttp.Answer again = http.mutate(alan, "createPost",
        "{\"id\":\"" + id + "\",\"title\":\"Mine\",\"body\":\"\"}");
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
        () -> assertEquals("2:acme:ada", twoLikes,
            "alan's second like changed nothing; org and author are the actor's"),
        () -> assertEquals("1", oneLike, "ada's second unlike changed nothing"),
        () -> assertEquals("X_POST_NOT_AUTHOR", byAlan.code()),
        () -> assertEquals(200, byAda.status()),
        () -> assertEquals("0", one("SELECT count(*) FROM posts WHERE id = '" + id + "'")),
        () -> assertEquals("0", one("SELECT count(*) FROM likes WHERE post_id = '" + id + "'"), "its likes went too"));
  }

  @Test
  void theNodeServesThePageItsScriptItsStyleAndTheBoardsBundle() throws Exception {
    HttpClient c = HttpClient.newHttpClient();
    String base = "http://127.0.0.1:" + app.port();
    Function<String, HttpResponse<String>> get = path -> {
      try {
        return c.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
            HttpResponse.BodyHandlers.ofString());
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
  void theBannerPrintsTheUrlTheJdbcUrlTheBusAndHowToSignIn() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunnelMain.printBanner(new PrintStream(out, true, StandardCharsets.UTF_8), BoardApp.SERVER, app,
        BoardApp.config(BoardHttp.env(db, "RUNNEL_DEV", "true"), Path.of("target")));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertAll(
        () -> assertTrue(printed.contains("http://localhost:" + app.port() + "/"), printed),
        () -> assertTrue(printed.contains(app.jdbcUrl()), printed),
        () -> assertTrue(printed.contains("/v1/dev/sign-in"), printed),
        () -> assertTrue(printed.contains("bus:       in-process"), printed));
  }
}
