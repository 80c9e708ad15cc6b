package io.runnel.client.fake;

import io.runnel.client.bundle.WireJsonPort;
import io.runnel.client.port.JsonPort;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.Row;
import io.runnel.wire.Json;
import io.runnel.wire.JsonCodec;
import java.util.List;
import java.util.Map;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.desc;
import static io.runnel.dsl.Dsl.eq;
import static io.runnel.dsl.Dsl.select;

/** The declarations the scripted node serves and the frames it speaks, as the protocol spells them. */
public final class Node {

  public static final EntityRef POSTS = EntityRef.of("posts").key("id")
      .columns(c -> c.text("id").text("org").text("title").int4("likes"));

  /** Posts of an org, most liked first. */
  public static final QueryRef<String> BY_LIKES = QueryRef.live("byLikes", JsonCodec.object(r -> r.text("org"),
      (org, w) -> w.put("org", org)), org -> select(POSTS).where(eq("org", org)).orderBy(desc("likes")));

  /** Posts of an org by title. */
  public static final QueryRef<String> BY_TITLE = QueryRef.live("byTitle", JsonCodec.object(r -> r.text("org"),
      (org, w) -> w.put("org", org)), org -> select(POSTS).where(eq("org", org)).orderBy(asc("title")));

  /** One post by id, read once over HTTP: not live. */
  public static final QueryRef<String> ONE_POST = QueryRef.once("onePost", JsonCodec.object(r -> r.text("id"),
      (id, w) -> w.put("id", id)), id -> select(POSTS).where(eq("id", id)));

  /** Inserts {@code id|org|title|likes}. */
  public static final MutatorRef<String> CREATE = MutatorRef.of("createPost", JsonCodec.text())
      .local((tx, in) -> {
        String[] p = in.split("\\|");
        tx.insert(POSTS, post(p[0], p[1], p[2], Integer.parseInt(p[3])));
      });

  /** Adds a like. */
  public static final MutatorRef<String> LIKE = MutatorRef.of("likePost", JsonCodec.text())
      .local((tx, id) -> tx.update(POSTS, id, p -> p.plus("likes", 1)));

  /**
   * Inserts post {@code in} stamped with who the twin saw: {@code org} the actor's org (or {@code -}), {@code title}
   * the actor's id (or {@code anonymous}).
   */
  public static final MutatorRef<String> STAMP = MutatorRef.of("stamp", JsonCodec.text())
      .local((tx, in) -> tx.insert(POSTS, post(in, tx.actor().orgId() == null ? "-" : tx.actor().orgId(),
          tx.actor().isAnonymous() ? "anonymous" : tx.actor().id(), 0)));

  /** The JVM's JSON as the client's port. */
  public static final JsonPort JSON = new WireJsonPort();

  public static final String QID = "byLikes:0123456789abcdef@-";

  private Node() {}

  public static Row post(String id, String org, String title, int likes) {
    return Row.of(Map.of("id", id, "org", org, "title", title, "likes", likes));
  }

  public static String lsn(int commit) {
    return "%016x%08x".formatted(commit, 1);
  }

  public static String hello(String actor, int commit) {
    return "{\"t\":\"hello\",\"v\":1,\"node\":\"n1\",\"actor\":" + (actor == null ? "null" : "\"" + actor + "\"")
        + ",\"heartbeatMs\":1000,\"lsn\":\"" + "%016x00000000".formatted(commit) + "\"}";
  }

  public static String record(Row r) {
    return "{\"type\":\"posts\",\"key\":\"" + r.text("id") + "\",\"row\":" + Json.write(POSTS.rowToJson(r)) + "}";
  }

  public static String cursor(int commit) {
    return "{\"qid\":\"" + QID + "\",\"lsn\":\"" + lsn(commit) + "\",\"at\":1}";
  }

  public static String snapshot(String sid, int commit, Row... rows) {
    StringBuilder b = new StringBuilder("{\"t\":\"snapshot\",\"sid\":\"" + sid + "\",\"records\":[");
    for (int i = 0; i < rows.length; i++) {
      b.append(i == 0 ? "" : ",").append(record(rows[i]));
    }
    return b.append("],\"cursor\":").append(cursor(commit)).append('}').toString();
  }

  public static String put(Row r, String after) {
    String rec = record(r);
    return "{\"op\":\"put\"," + rec.substring(1, rec.length() - 1) + ",\"after\":"
        + (after == null ? "null" : "\"" + after + "\"") + "}";
  }

  public static String update(Row r) {
    String rec = record(r);
    return "{\"op\":\"put\"," + rec.substring(1);
  }

  public static String del(String key) {
    return "{\"op\":\"del\",\"type\":\"posts\",\"key\":\"" + key + "\"}";
  }

  public static String patch(String sid, int commit, List<String> writes, String... ops) {
    return "{\"t\":\"patch\",\"sid\":\"" + sid + "\",\"ops\":[" + String.join(",", ops) + "],\"writes\":"
        + Json.write(io.runnel.wire.JsonArray.ofStrings(writes)) + ",\"cursor\":" + cursor(commit) + "}";
  }
}
