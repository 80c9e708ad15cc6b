package io.runnel.example;

import static io.runnel.dsl.Dsl.desc;
import static io.runnel.dsl.Dsl.eq;
import static io.runnel.dsl.Dsl.select;

import io.runnel.dsl.ChannelRef;
import io.runnel.dsl.Conflict;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.LocalTx;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.Row;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonPath;
import io.runnel.wire.ObjectReader;
import java.util.Objects;

/**
 * The team board's client-safe declarations (compiled for the JVM and, by TeaVM, into the page's bundle): posts and
 * likes, the live queries {@code liveFeed}, {@code post} and {@code myLikes}, and the mutators {@code createPost},
 * {@code likePost}, {@code unlikePost} and {@code deletePost} with their local twins.
 *
 * <p>Twins and the actor. A twin reads who is signed in from {@link LocalTx#actor()}: the id the node named for the
 * page and the org the page gave at connect (the page reads it from its token's claims). The like twins write the
 * actor's own {@code likes} record, keyed ({@code post_id}, the actor's id) like the row the server inserts, and
 * count only when they add or remove it: applying one twice equals applying it once, and a twin run again over
 * truth that already holds the echo changes nothing. {@code createPost}'s twin writes the provisional post with the
 * actor's org and id and no {@code created_at} (the server's clock sets it; a null sorts first in
 * {@code liveFeed}'s {@code created_at desc}, as in PostgreSQL), so it joins the feed at once under the key its echo
 * will have. While no actor is known (a page that never connected), the like twins change nothing.
 */
public final class Board {

  /** The longest title, in UTF-16 units. */
  public static final int MAX_TITLE = 200;

  /** The longest body, in UTF-16 units. */
  public static final int MAX_BODY = 4000;

  /**
   * A post: {@code id} uuid (key, made by the browser), {@code org_id} (the tenant), {@code author_id},
   * {@code title}, {@code body}, {@code like_count}, {@code created_at} (the server's clock).
   */
  public static final EntityRef POSTS = EntityRef.of("posts").key("id")
      .columns(c -> c.uuid("id").text("org_id").text("author_id").text("title").text("body").int4("like_count")
          .timestamptz("created_at"));

  /** A like, one per user and post: key ({@code post_id}, {@code user_id}), tenant {@code org_id}. */
  public static final EntityRef LIKES = EntityRef.of("likes").key("post_id", "user_id")
      .columns(c -> c.uuid("post_id").text("user_id").text("org_id").timestamptz("created_at"));

  /** {@code liveFeed}'s input: the org whose posts it lists, {@code {"orgId": "acme"}}. */
  public record FeedInput(String orgId) {
    /** Requires a non-empty org. */
    public FeedInput {
      Objects.requireNonNull(orgId, "orgId");
      if (orgId.isEmpty()) {
        throw new InputInvalidException("orgId", "is empty", "Name the org whose feed to show, e.g. \"acme\".");
      }
    }

    /** Its codec: {@code {"orgId": "…"}}. */
    public static final JsonCodec<FeedInput> CODEC = JsonCodec.object(
        r -> new FeedInput(r.text("orgId")), (in, w) -> w.put("orgId", in.orgId()));
  }

  /** {@code post}'s input: {@code {"id": "<post uuid>"}}. */
  public record PostInput(String id) {
    /** Requires the id. */
    public PostInput {
      Objects.requireNonNull(id, "id");
    }

    /** Its codec; {@code id} must be a uuid. */
    public static final JsonCodec<PostInput> CODEC = JsonCodec.object(
        r -> new PostInput(uuid(r, "id")), (in, w) -> w.put("id", in.id()));
  }

  /**
   * {@code createPost}'s input: {@code {"id", "title", "body"}}.
   *
   * @param id the post's uuid, made by the caller ({@code crypto.randomUUID()}), canonical
   * @param title 1 to {@link #MAX_TITLE} characters, not all blank
   * @param body 0 to {@link #MAX_BODY} characters
   */
  public record CreatePost(String id, String title, String body) {
    /**
     * Validates the fields.
     *
     * @throws InputInvalidException ({@code X_INPUT_INVALID}) naming the field at fault
     */
    public CreatePost {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(title, "title");
      Objects.requireNonNull(body, "body");
      if (title.trim().isEmpty() || title.length() > MAX_TITLE) {
        throw new InputInvalidException("title", "must hold 1 to 200 characters, not all blank",
            "Send a title of 1 to 200 characters.");
      }
      if (body.length() > MAX_BODY) {
        throw new InputInvalidException("body", "is longer than 4000 characters", "Shorten the body.");
      }
    }

    /** Its codec; {@code id} must be a uuid. */
    public static final JsonCodec<CreatePost> CODEC = JsonCodec.object(
        r -> new CreatePost(uuid(r, "id"), r.text("title"), r.text("body")),
        (in, w) -> w.put("id", in.id()).put("title", in.title()).put("body", in.body()));
  }

  /** The input of {@code likePost}, {@code unlikePost} and {@code deletePost}: {@code {"postId": "<uuid>"}}. */
  public record PostRef(String postId) {
    /** Requires the post id. */
    public PostRef {
      Objects.requireNonNull(postId, "postId");
    }

    /** Its codec; {@code postId} must be a uuid. */
    public static final JsonCodec<PostRef> CODEC = JsonCodec.object(
        r -> new PostRef(uuid(r, "postId")), (in, w) -> w.put("postId", in.postId()));
  }

  /** {@code liveFeed}: an org's posts, newest first, at most 50. */
  public static final QueryRef<FeedInput> LIVE_FEED = QueryRef.live("liveFeed", FeedInput.CODEC,
      in -> select(POSTS).where(eq("org_id", in.orgId())).orderBy(desc("created_at")).limit(50));

  /**
   * {@code post}: one post by id, of the actor's org; the sync node refuses another org's post with
   * {@code X_TENANCY_ACTOR_MISMATCH}, and an id no org holds reads as empty.
   */
  public static final QueryRef<PostInput> POST = QueryRef.live("post", PostInput.CODEC,
      in -> select(POSTS).where(eq("id", in.id())).limit(1));

  /** {@code myLikes}: the signed-in actor's likes, newest first (a window per actor). */
  public static final QueryRef<NoInput> MY_LIKES = QueryRef.live("myLikes", NoInput.CODEC,
      (in, actor) -> select(LIKES).where(eq("user_id", actor.id())).orderBy(desc("created_at")).limit(1000));

  /** {@code createPost}: a new post by the actor in the actor's org; result {@code {"id"}}. */
  public static final MutatorRef<CreatePost> CREATE_POST = MutatorRef.of("createPost", CreatePost.CODEC)
      .local(Board::createLocally).conflict(Conflict.SERVER_WINS);

  /** {@code likePost}: the actor likes a post (once; liking again changes nothing). */
  public static final MutatorRef<PostRef> LIKE_POST = MutatorRef.of("likePost", PostRef.CODEC)
      .local(Board::likeLocally).conflict(Conflict.SERVER_WINS);

  /** {@code unlikePost}: the actor takes back a like (no like, no change). */
  public static final MutatorRef<PostRef> UNLIKE_POST = MutatorRef.of("unlikePost", PostRef.CODEC)
      .local(Board::unlikeLocally).conflict(Conflict.SERVER_WINS);

  /** {@code deletePost}: the post's author deletes it (its likes go with it). */
  public static final MutatorRef<PostRef> DELETE_POST = MutatorRef.of("deletePost", PostRef.CODEC)
      .local((tx, in) -> tx.delete(POSTS, POSTS.key(in.postId()))).conflict(Conflict.SERVER_WINS);

  /**
   * The channel {@code org} with the param {@code orgId} (topic {@code org.acme}): who of the org is online
   * (presence) and the event {@code typing}, open to the org's members only.
   */
  public static final ChannelRef ORG = ChannelRef.of("org", "orgId");

  /** The event a page sends on {@link #ORG} while its user writes a post: payload {@code {"user"}}. */
  public static final String TYPING = "typing";

  private Board() {}

  /** {@code createPost}'s twin: inserts the provisional post, the actor's, unless the page already holds its id. */
  static void createLocally(LocalTx tx, CreatePost in) {
    String key = POSTS.key(in.id());
    if (tx.get(POSTS, key) == null) {
      tx.insert(POSTS, Row.empty().with("id", key).with("org_id", tx.actor().orgId())
          .with("author_id", tx.actor().id()).with("title", in.title()).with("body", in.body()).with("like_count", 0)
          .with("created_at", null));
    }
  }

  /** {@code likePost}'s twin: adds the actor's like of the post and counts it, unless the page already holds it. */
  static void likeLocally(LocalTx tx, PostRef in) {
    String user = tx.actor().id();
    if (user != null && tx.get(LIKES, LIKES.key(in.postId(), user)) == null) {
      tx.insert(LIKES, Row.empty().with("post_id", in.postId()).with("user_id", user)
          .with("org_id", tx.actor().orgId()).with("created_at", null));
      count(tx, in.postId(), 1);
    }
  }

  /** {@code unlikePost}'s twin: removes the actor's like of the post and counts it, when the page holds it. */
  static void unlikeLocally(LocalTx tx, PostRef in) {
    String user = tx.actor().id();
    if (user != null && tx.get(LIKES, LIKES.key(in.postId(), user)) != null) {
      tx.delete(LIKES, LIKES.key(in.postId(), user));
      count(tx, in.postId(), -1);
    }
  }

  private static void count(LocalTx tx, String postId, int delta) {
    tx.update(POSTS, POSTS.key(postId), post -> {
      Integer n = post.int4("like_count");
      return n == null ? post : post.with("like_count", Math.max(0, n + delta));
    });
  }

  private static String uuid(ObjectReader r, String name) {
    return (String) POSTS.column("id").type().fromJson(r.value(name), JsonPath.member(r.path(), name));
  }
}
