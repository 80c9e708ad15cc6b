package io.runnel.client.store.internal;

import io.runnel.dsl.Conflict;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.Row;
import io.runnel.protocol.Position;
import io.runnel.protocol.WireRecord;
import io.runnel.wire.JsonCodec;
import io.runnel.wire.JsonObject;
import java.util.Map;

/** Entities, mutators and records the store tests share. */
final class Fixtures {

  static final EntityRef POSTS = EntityRef.of("posts").key("id")
      .columns(c -> c.text("id").text("org").text("title").int4("likes"));

  /** Adds one like: not convergent (applying it twice adds two). */
  static final MutatorRef<String> LIKE = MutatorRef.of("likePost", JsonCodec.text())
      .local((tx, id) -> tx.update(POSTS, id, p -> p.plus("likes", 1)));

  /**
   * Likes post {@code id} the convergent way the board does: adds the marker record {@code id-mine} unless the page
   * holds it, and counts only when it adds it.
   */
  static final MutatorRef<String> LIKE_ONCE = MutatorRef.of("likeOnce", JsonCodec.text())
      .local((tx, id) -> {
        if (tx.get(POSTS, id + "-mine") == null) {
          tx.insert(POSTS, post(id + "-mine", "mine", 0));
          tx.update(POSTS, id, p -> p.plus("likes", 1));
        }
      });

  /** Sets a title, as {@code id=title}: convergent. */
  static final MutatorRef<String> RENAME = MutatorRef.of("renamePost", JsonCodec.text())
      .local((tx, in) -> tx.update(POSTS, in.substring(0, in.indexOf('=')),
          p -> p.with("title", in.substring(in.indexOf('=') + 1))));

  /** Inserts a post {@code id|title|likes} in org acme. */
  static final MutatorRef<String> CREATE = MutatorRef.of("createPost", JsonCodec.text())
      .local((tx, in) -> {
        String[] p = in.split("\\|");
        tx.insert(POSTS, post(p[0], p[1], Integer.parseInt(p[2])));
      });

  /** Renames p1 and p2 to the input: convergent. */
  static final MutatorRef<String> RENAME_BOTH = MutatorRef.of("renameBoth", JsonCodec.text())
      .local((tx, title) -> {
        tx.update(POSTS, "p1", p -> p.with("title", title));
        tx.update(POSTS, "p2", p -> p.with("title", title));
      });

  /** Sets the title under last-write-wins. */
  static final MutatorRef<String> RENAME_LWW = RENAME.conflict(Conflict.LAST_WRITE_WINS);

  /** Deletes a post. */
  static final MutatorRef<String> DELETE = MutatorRef.of("deletePost", JsonCodec.text())
      .local((tx, id) -> tx.delete(POSTS, id));

  static final Position LSN1 = Position.parse("000000000000000100000001");
  static final Position LSN2 = Position.parse("000000000000000200000001");
  static final Position LSN3 = Position.parse("000000000000000300000001");
  static final Position LSN4 = Position.parse("000000000000000400000001");

  private Fixtures() {}

  static Row post(String id, String title, int likes) {
    return Row.of(Map.of("id", id, "org", "acme", "title", title, "likes", likes));
  }

  static WireRecord wire(String id, String title, int likes) {
    return new WireRecord("posts", id, POSTS.rowToJson(post(id, title, likes)));
  }

  static WireRecord wire(String type, String key, JsonObject row) {
    return new WireRecord(type, key, row);
  }
}
