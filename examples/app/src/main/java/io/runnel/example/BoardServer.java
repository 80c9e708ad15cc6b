package io.runnel.example;

import io.runnel.dsl.Actor;
import io.runnel.dsl.server.Channel;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.MutationContext;
import io.runnel.dsl.server.Mutator;
import io.runnel.dsl.server.MutatorRefusedException;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.server.DevSignIn;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * The team board's server half: its tables (Flyway migrations under {@code db/migration}: the schema, then the fixed
 * seed), the entities' tenant, every policy and each mutator's SQL.
 *
 * <p>Tenancy. Posts and likes are scoped by {@code org_id}, so every read is pinned to the actor's org, and the sync
 * node refuses a read that names another org: {@code liveFeed} of another org, or {@code post(id)} of another org's
 * post (it names the post by its key), each {@code 403 X_TENANCY_ACTOR_MISMATCH} over HTTP and a {@code refuse} on
 * the socket; a post id no org holds reads as empty. Each mutator also names the actor's org in its SQL: a post of
 * another org is, to it, a post that does not exist ({@code 409 X_POST_NOT_FOUND}, the same answer as for an unknown
 * id; a mutator's refusal is its own code with 409 or 422, never one of Runnel's).
 * {@code deletePost}'s row rule is its {@code WHERE author_id = <actor>}; when it deletes nothing, the server checks
 * why and answers {@code X_POST_NOT_FOUND} or {@code 409 X_POST_NOT_AUTHOR}. An actor with no org is refused with
 * {@code 409 X_NO_ORG}.
 */
public final class BoardServer {

  /** Posts, scoped by {@code org_id}. */
  public static final Entity POSTS = Entity.of(Board.POSTS).table("public.posts").tenant("org_id");

  /** Likes, scoped by {@code org_id}. */
  public static final Entity LIKES = Entity.of(Board.LIKES).table("public.likes").tenant("org_id");

  /** The entities the replicator publishes. */
  public static final List<Entity> ENTITIES = List.of(POSTS, LIKES);

  /** The development sign-in's users: the seed's ({@code V2__board_seed.sql}), each with their org. */
  public static final List<DevSignIn.DevUser> DEV_USERS = List.of(new DevSignIn.DevUser("ada", "acme"),
      new DevSignIn.DevUser("alan", "acme"), new DevSignIn.DevUser("grace", "globex"));

  private static final String INSERT_POST = """
      INSERT INTO posts (id, org_id, author_id, title, body) VALUES (?::uuid, ?, ?, ?, ?)
      ON CONFLICT (id) DO NOTHING
      """;
  private static final String INSERT_LIKE = """
      INSERT INTO likes (post_id, user_id, org_id)
      SELECT id, ?, org_id FROM posts WHERE id = ?::uuid AND org_id = ?
      ON CONFLICT (post_id, user_id) DO NOTHING
      """;
  private static final String DELETE_LIKE = "DELETE FROM likes WHERE post_id = ?::uuid AND user_id = ? AND org_id = ?";
  private static final String COUNT_LIKE = "UPDATE posts SET like_count = like_count + ? WHERE id = ?::uuid";
  private static final String DELETE_POST =
      "DELETE FROM posts WHERE id = ?::uuid AND org_id = ? AND author_id = ?";

  private BoardServer() {}

  /** Where Flyway finds the board's migrations (its schema, then its fixed seed). */
  public static final String MIGRATIONS = "classpath:db/migration";

  /**
   * The board's declarations: the three queries and four mutators, each for signed-in actors of an org.
   *
   * <ul>
   *   <li>{@code createPost {id, title, body}}: a post by the actor in its org, result {@code {"id"}}; an id already
   *       taken is {@code 409 X_POST_EXISTS}.
   *   <li>{@code likePost} / {@code unlikePost {postId}}: add or take back the actor's like and count it; doing it
   *       again changes nothing.
   *   <li>{@code deletePost {postId}}: the author deletes the post and its likes.
   * </ul>
   */
  public static Declarations declarations() {
    return Declarations.builder()
        .query(Query.of(Board.LIVE_FEED).on(POSTS).policy(Policy.authenticated()))
        .query(Query.of(Board.POST).on(POSTS).policy(Policy.authenticated()))
        .query(Query.of(Board.MY_LIKES).on(LIKES).policy(Policy.authenticated()))
        .mutator(Mutator.of(Board.CREATE_POST).policy(Policy.authenticated()).server((ctx, in) -> {
          Actor actor = member(ctx);
          if (ctx.update(INSERT_POST, in.id(), actor.orgId(), actor.id(), in.title(), in.body()) == 0) {
            throw new MutatorRefusedException("X_POST_EXISTS", 409, "A post with id " + in.id() + " exists.",
                "Make a new post with a fresh uuid (crypto.randomUUID()).");
          }
          return Map.of("id", in.id());
        }))
        .mutator(Mutator.of(Board.LIKE_POST).policy(Policy.authenticated()).server((ctx, in) -> {
          Actor actor = member(ctx);
          if (ctx.update(INSERT_LIKE, actor.id(), in.postId(), actor.orgId()) == 1) {
            ctx.update(COUNT_LIKE, 1, in.postId());
          } else {
            requirePost(ctx, in.postId(), actor);
          }
          return Map.of("postId", in.postId());
        }))
        .mutator(Mutator.of(Board.UNLIKE_POST).policy(Policy.authenticated()).server((ctx, in) -> {
          Actor actor = member(ctx);
          if (ctx.update(DELETE_LIKE, in.postId(), actor.id(), actor.orgId()) == 1) {
            ctx.update(COUNT_LIKE, -1, in.postId());
          } else {
            requirePost(ctx, in.postId(), actor);
          }
          return Map.of("postId", in.postId());
        }))
        .mutator(Mutator.of(Board.DELETE_POST).policy(Policy.authenticated()).server((ctx, in) -> {
          Actor actor = member(ctx);
          if (ctx.update(DELETE_POST, in.postId(), actor.orgId(), actor.id()) == 0) {
            requirePost(ctx, in.postId(), actor);
            throw new MutatorRefusedException("X_POST_NOT_AUTHOR", 409,
                "Post " + in.postId() + " is another user's.", "Only a post's author may delete it.");
          }
          return Map.of("postId", in.postId());
        }))
        .channel(Channel.of(Board.ORG).presence().events(Board.TYPING).policy(Policy.memberOfParam("orgId")))
        .build();
  }

  private static Actor member(MutationContext ctx) {
    Actor actor = ctx.actor();
    if (actor.orgId() == null) {
      throw new MutatorRefusedException("X_NO_ORG", 409, "Posts belong to an org, and this actor has none.",
          "Sign in as a member of an org.");
    }
    return actor;
  }

  /** Refuses with {@code X_POST_NOT_FOUND} unless the actor's org holds the post. */
  private static void requirePost(MutationContext ctx, String postId, Actor actor) throws SQLException {
    try (PreparedStatement s = ctx.connection().prepareStatement(
        "SELECT 1 FROM posts WHERE id = ?::uuid AND org_id = ?")) {
      s.setString(1, postId);
      s.setString(2, actor.orgId());
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          throw new MutatorRefusedException("X_POST_NOT_FOUND", 409, "No post " + postId + " in your org.",
              "Reload the feed: the post was deleted, or never was one of your org's.");
        }
      }
    }
  }
}
