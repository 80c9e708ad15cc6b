package io.runnel.client.testapp;

import static io.runnel.dsl.Dsl.desc;
import static io.runnel.dsl.Dsl.eq;
import static io.runnel.dsl.Dsl.select;

import io.runnel.dsl.Conflict;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.QueryRef;
import io.runnel.wire.JsonCodec;
import java.util.Objects;

/**
 * The test app's client-safe declarations, as {@code docs/dsl.md}'s Board example writes them: posts, a live feed per
 * org and a like with its local twin, each input with an explicit codec.
 */
public final class TestBoard {

  /** A post. */
  public static final EntityRef POSTS = EntityRef.of("posts").key("id")
      .columns(c -> c.uuid("id").text("org_id").text("author_id").text("title").int4("like_count")
          .bool("liked_by_me").timestamptz("created_at"));

  /** The feed's input: the org whose posts it lists. */
  public record FeedInput(String orgId) {
    /** Requires the org. */
    public FeedInput {
      Objects.requireNonNull(orgId, "orgId");
    }

    /** Its codec: {@code {"orgId": "…"}}. */
    public static final JsonCodec<FeedInput> CODEC = JsonCodec.object(
        r -> new FeedInput(r.text("orgId")), (in, w) -> w.put("orgId", in.orgId()));
  }

  /** An org's posts, newest first. */
  public static final QueryRef<FeedInput> LIVE_FEED = QueryRef.live("liveFeed", FeedInput.CODEC,
      in -> select(POSTS).where(eq("org_id", in.orgId())).orderBy(desc("created_at")).limit(50));

  /** A like's input: the post liked. */
  public record LikeInput(String postId) {
    /** Requires the post. */
    public LikeInput {
      Objects.requireNonNull(postId, "postId");
    }

    /** Its codec: {@code {"postId": "…"}}. */
    public static final JsonCodec<LikeInput> CODEC = JsonCodec.object(
        r -> new LikeInput(r.text("postId")), (in, w) -> w.put("postId", in.postId()));
  }

  /** Likes a post; the twin counts the like at once, once. */
  public static final MutatorRef<LikeInput> LIKE_POST = MutatorRef.of("likePost", LikeInput.CODEC)
      .local((tx, in) -> tx.update(POSTS, POSTS.key(in.postId()), post ->
          Boolean.TRUE.equals(post.bool("liked_by_me")) ? post
              : post.with("liked_by_me", true).plus("like_count", 1)))
      .conflict(Conflict.SERVER_WINS);

  private TestBoard() {}
}
