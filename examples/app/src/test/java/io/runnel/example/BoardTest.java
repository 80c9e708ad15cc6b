package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.runnel.dsl.Actor;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.Row;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.Json;
import io.runnel.wire.JsonLimits;
import java.util.LinkedHashMap;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The board's client-safe declarations on the JVM: the inputs' codecs and rules, and each twin. */
class BoardTest {

  static final String ID = "0190f3a2-7b4c-7d00-8e2a-1c2b3d4e5f60";
  static final Actor ADA = Actor.user("ada").inOrg("acme");

  static <I> I decode(MutatorRef<I> ref, String json) {
    return ref.decodeInput(Json.parse(json), JsonLimits.INPUT_DEFAULTS);
  }

  static MapTx feedWithOnePost(int likes) {
    return new MapTx(ADA).with(Board.POSTS, Row.empty().with("id", ID).with("org_id", "acme").with("author_id", "ada")
        .with("title", "t").with("body", "b").with("like_count", likes).with("created_at", null));
  }

  /** Truth after the echo of ada's like: the post counted it and her like row is there. */
  static MapTx likedByAda(int likes) {
    return feedWithOnePost(likes).with(Board.LIKES, adasLike());
  }

  static Row adasLike() {
    return Row.empty().with("post_id", ID).with("user_id", "ada").with("org_id", "acme").with("created_at", null);
  }

  static int likeCount(MapTx tx) {
    return tx.get(Board.POSTS, Board.POSTS.key(ID)).int4("like_count");
  }

  @Test
  void inputsDecodeByTheirIssueNamesAndRoundTrip() {
    Board.CreatePost create = decode(Board.CREATE_POST,
        "{\"id\":\"" + ID.toUpperCase(Locale.ROOT) + "\",\"title\":\"Hello\",\"body\":\"\"}");
    Board.PostRef like = decode(Board.LIKE_POST, "{\"postId\":\"" + ID + "\"}");
    Board.FeedInput feed = Board.LIVE_FEED.decodeInput(Json.parse("{\"orgId\":\"acme\"}"), JsonLimits.INPUT_DEFAULTS);
    Board.PostInput post = Board.POST.decodeInput(Json.parse("{\"id\":\"" + ID + "\"}"), JsonLimits.INPUT_DEFAULTS);
    assertAll(
        () -> assertEquals(ID, create.id(), "the uuid in canonical (lower-case) form"),
        () -> assertEquals("Hello", create.title()),
        () -> assertEquals(create, Board.CreatePost.CODEC.decode(Board.CreatePost.CODEC.encode(create))),
        () -> assertEquals(ID, like.postId()),
        () -> assertEquals(like, decode(Board.UNLIKE_POST, "{\"postId\":\"" + ID + "\"}")),
        () -> assertEquals(like, decode(Board.DELETE_POST, "{\"postId\":\"" + ID + "\"}")),
        () -> assertEquals("acme", feed.orgId()),
        () -> assertEquals(ID, post.id()));
  }

  @Test
  void badInputsAreRefusedNamingTheField() {
    String ok = "\"id\":\"" + ID + "\",";
    assertAll(
        () -> assertEquals("id", refused(Board.CREATE_POST, "{\"id\":\"42\",\"title\":\"a\",\"body\":\"\"}")),
        () -> assertEquals("title", refused(Board.CREATE_POST, "{" + ok + "\"title\":\"  \",\"body\":\"\"}")),
        () -> assertEquals("title", refused(Board.CREATE_POST, "{" + ok + "\"title\":\""
            + "x".repeat(Board.MAX_TITLE + 1) + "\",\"body\":\"\"}")),
        () -> assertEquals("body", refused(Board.CREATE_POST, "{" + ok + "\"title\":\"a\",\"body\":\""
            + "x".repeat(Board.MAX_BODY + 1) + "\"}")),
        () -> assertEquals("body", refused(Board.CREATE_POST, "{" + ok + "\"title\":\"a\"}")),
        () -> assertEquals("orgId", refused(Board.CREATE_POST, "{" + ok + "\"title\":\"a\",\"body\":\"\","
            + "\"orgId\":\"globex\"}"), "the org is the actor's: the input cannot name one"),
        () -> assertEquals("postId", refused(Board.LIKE_POST, "{\"postId\":\"not-a-uuid\"}")),
        () -> assertEquals("postId", refused(Board.DELETE_POST, "{}")),
        () -> assertEquals("orgId", assertThrows(InputInvalidException.class, () -> Board.LIVE_FEED.decodeInput(
            Json.parse("{\"orgId\":\"\"}"), JsonLimits.INPUT_DEFAULTS)).path()));
  }

  private static String refused(MutatorRef<?> ref, String json) {
    InputInvalidException e = assertThrows(InputInvalidException.class, () -> decode(ref, json));
    assertEquals("X_INPUT_INVALID", e.code().name());
    return e.path();
  }

  @Test
  void createPostsTwinInsertsTheActorsProvisionalPostOnceUnderTheBrowsersId() {
    MapTx tx = new MapTx(ADA);
    Board.CreatePost in = new Board.CreatePost(ID, "Hello", "world");
    Board.createLocally(tx, in);
    LinkedHashMap<String, Row> once = new LinkedHashMap<>(tx.rows);
    Board.createLocally(tx, in);
    Row post = tx.get(Board.POSTS, ID);
    assertAll(
        () -> assertNotNull(post, "the post is there at once, under the id its echo will carry"),
        () -> assertEquals("Hello", post.text("title")),
        () -> assertEquals("acme", post.text("org_id"), "in the actor's org, so liveFeed(acme) shows it at once"),
        () -> assertEquals("ada", post.text("author_id")),
        () -> assertEquals(0, post.int4("like_count")),
        () -> assertNull(post.get("created_at"), "the server sets created_at"),
        () -> assertEquals(once, tx.rows, "applying it twice equals applying it once"));
  }

  @Test
  void likePostsTwinAddsTheActorsLikeAndCountsItOnceHoweverOftenItRuns() {
    MapTx tx = feedWithOnePost(3);
    Board.likeLocally(tx, new Board.PostRef(ID));
    LinkedHashMap<String, Row> once = new LinkedHashMap<>(tx.rows);
    Board.likeLocally(tx, new Board.PostRef(ID));
    assertAll(
        () -> assertEquals(4, likeCount(tx)),
        () -> assertEquals(adasLike(), tx.get(Board.LIKES, Board.LIKES.key(ID, "ada")),
            "the actor's like, under the key the server's row has"),
        () -> assertEquals(once, tx.rows, "twice equals once"));
  }

  @Test
  void likePostsTwinRunAgainOverTruthThatHoldsItsEchoChangesNothing() {
    MapTx echoed = likedByAda(4);
    LinkedHashMap<String, Row> before = new LinkedHashMap<>(echoed.rows);
    Board.likeLocally(echoed, new Board.PostRef(ID));
    assertEquals(before, echoed.rows, "the count is not taken twice");
  }

  @Test
  void unlikePostsTwinTakesTheActorsLikeBackOnceHoweverOftenItRuns() {
    MapTx tx = likedByAda(3);
    Board.unlikeLocally(tx, new Board.PostRef(ID));
    LinkedHashMap<String, Row> once = new LinkedHashMap<>(tx.rows);
    Board.unlikeLocally(tx, new Board.PostRef(ID));
    MapTx notLiked = feedWithOnePost(3);
    Board.unlikeLocally(notLiked, new Board.PostRef(ID));
    assertAll(
        () -> assertEquals(2, likeCount(tx)),
        () -> assertNull(tx.get(Board.LIKES, Board.LIKES.key(ID, "ada")), "the like is gone"),
        () -> assertEquals(once, tx.rows, "twice equals once"),
        () -> assertEquals(feedWithOnePost(3).rows, notLiked.rows, "no like of the actor's, nothing to take back"));
  }

  @Test
  void likeThenUnlikeAndUnlikeThenLikeLeaveThePageAsItWas() {
    MapTx likedFirst = feedWithOnePost(3);
    Board.likeLocally(likedFirst, new Board.PostRef(ID));
    Board.unlikeLocally(likedFirst, new Board.PostRef(ID));
    MapTx unlikedFirst = likedByAda(3);
    Board.unlikeLocally(unlikedFirst, new Board.PostRef(ID));
    Board.likeLocally(unlikedFirst, new Board.PostRef(ID));
    assertAll(
        () -> assertEquals(feedWithOnePost(3).rows, likedFirst.rows, "no like left, count as it was"),
        () -> assertEquals(likedByAda(3).rows, unlikedFirst.rows, "the like back, count as it was"));
  }

  @Test
  void unlikeNeverCountsBelowZeroAndTwinsOfAPostThePageLacksDoNothingToPosts() {
    MapTx zero = feedWithOnePost(0).with(Board.LIKES, adasLike());
    Board.unlikeLocally(zero, new Board.PostRef(ID));
    MapTx empty = new MapTx(ADA);
    Board.likeLocally(empty, new Board.PostRef(ID));
    assertAll(
        () -> assertEquals(0, likeCount(zero)),
        () -> assertNull(empty.get(Board.POSTS, ID), "no post is invented"));
  }

  @Test
  void withNoActorKnownTheLikeTwinsChangeNothing() {
    MapTx tx = new MapTx(Actor.anonymous()).with(Board.POSTS, feedWithOnePost(3).get(Board.POSTS, ID));
    LinkedHashMap<String, Row> before = new LinkedHashMap<>(tx.rows);
    Board.likeLocally(tx, new Board.PostRef(ID));
    Board.unlikeLocally(tx, new Board.PostRef(ID));
    assertEquals(before, tx.rows);
  }

  @Test
  void deletePostsTwinRemovesThePostAndDeletingTwiceEqualsOnce() {
    MapTx tx = feedWithOnePost(1);
    Board.DELETE_POST.local().apply(tx, new Board.PostRef(ID));
    Board.DELETE_POST.local().apply(tx, new Board.PostRef(ID));
    assertNull(tx.get(Board.POSTS, ID));
  }
}
