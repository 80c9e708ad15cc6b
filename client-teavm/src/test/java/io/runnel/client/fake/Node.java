package io.runnel.client.fake;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.desc;
import static io.runnel.dsl.Dsl.eq;
import static io.runnel.dsl.Dsl.select;

import io.runnel.client.bundle.WireJsonPort;
import io.runnel.client.port.JsonPort;
import io.runnel.dsl.ChannelRef;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.Row;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonCodec;
import java.util.List;
import java.util.Map;

/** The declarations the scripted node serves and the frames it speaks, as the protocol spells them. */
public final class Node {

  /** Posts: key {@code id}; columns {@code id}, {@code org}, {@code title}, {@code likes}. */
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

  /** An org's posts as a records channel (topic {@code org.<org>}), caught up by {@link #BY_LIKES}. */
  public static final ChannelRef ORG = ChannelRef.of("org", "org").catchUp(BY_LIKES);

  /** A room with events and presence and no records (topic {@code room.<id>}). */
  public static final ChannelRef ROOM = ChannelRef.of("room", "id");

  /** The JVM's JSON as the client's port. */
  public static final JsonPort JSON = new WireJsonPort();

  /** The one query id the scripted node's frames carry. */
  public static final String QID = "byLikes:0123456789abcdef@-";

  private Node() {}

  /** A post row: {@code id}, {@code org}, {@code title}, {@code likes}. */
  public static Row post(String id, String org, String title, int likes) {
    return Row.of(Map.of("id", id, "org", org, "title", title, "likes", likes));
  }

  /** The LSN of commit number {@code commit}, as the wire spells it (16 hex digits of the commit, then 8 of 1). */
  public static String lsn(int commit) {
    return "%016x%08x".formatted(commit, 1);
  }

  /** A {@code hello} frame for {@code actor} ({@code null} for anonymous) at commit {@code commit}. */
  public static String hello(String actor, int commit) {
    return "{\"t\":\"hello\",\"v\":1,\"node\":\"n1\",\"actor\":" + (actor == null ? "null" : "\"" + actor + "\"")
        + ",\"heartbeatMs\":1000,\"lsn\":\"" + "%016x00000000".formatted(commit) + "\"}";
  }

  /** The wire record of post {@code r}: type, key and row. */
  public static String record(Row r) {
    return "{\"type\":\"posts\",\"key\":\"" + r.text("id") + "\",\"row\":" + Json.write(POSTS.rowToJson(r)) + "}";
  }

  /** The cursor of {@link #QID} at commit {@code commit}. */
  public static String cursor(int commit) {
    return "{\"qid\":\"" + QID + "\",\"lsn\":\"" + lsn(commit) + "\",\"at\":1}";
  }

  /** A {@code snapshot} frame of {@code sid} at commit {@code commit} holding {@code rows} in order. */
  public static String snapshot(String sid, int commit, Row... rows) {
    StringBuilder b = new StringBuilder("{\"t\":\"snapshot\",\"sid\":\"" + sid + "\",\"records\":[");
    for (int i = 0; i < rows.length; i++) {
      b.append(i == 0 ? "" : ",").append(record(rows[i]));
    }
    return b.append("],\"cursor\":").append(cursor(commit)).append('}').toString();
  }

  /** A {@code put} op of post {@code r}, placed after key {@code after} ({@code null} for first). */
  public static String put(Row r, String after) {
    String rec = record(r);
    return "{\"op\":\"put\"," + rec.substring(1, rec.length() - 1) + ",\"after\":"
        + (after == null ? "null" : "\"" + after + "\"") + "}";
  }

  /** A {@code put} op of post {@code r} without a place: an update in place. */
  public static String update(Row r) {
    String rec = record(r);
    return "{\"op\":\"put\"," + rec.substring(1);
  }

  /** A {@code del} op of post {@code key}. */
  public static String del(String key) {
    return "{\"op\":\"del\",\"type\":\"posts\",\"key\":\"" + key + "\"}";
  }

  /** A {@code patch} frame of {@code sid} at commit {@code commit}, confirming {@code writes}, with {@code ops}. */
  public static String patch(String sid, int commit, List<String> writes, String... ops) {
    return "{\"t\":\"patch\",\"sid\":\"" + sid + "\",\"ops\":[" + String.join(",", ops) + "],\"writes\":"
        + Json.write(JsonArray.ofStrings(writes)) + ",\"cursor\":" + cursor(commit) + "}";
  }

  /** A {@code records} frame of {@code topic} at {@code commit}, writing {@code writes}. */
  public static String records(String topic, String epoch, long seq, int commit, List<String> writes,
      String... ops) {
    return "{\"t\":\"records\",\"topic\":\"" + topic + "\",\"epoch\":\"" + epoch + "\",\"seq\":" + seq
        + ",\"lsn\":\"" + lsn(commit) + "\",\"ops\":[" + String.join(",", ops) + "],\"writes\":"
        + Json.write(JsonArray.ofStrings(writes)) + "}";
  }

  /** A {@code records} frame of {@code topic} at {@code commit} with no writes. */
  public static String records(String topic, String epoch, long seq, int commit, String... ops) {
    return records(topic, epoch, seq, commit, List.of(), ops);
  }

  /** A {@code gap} frame. */
  public static String gap(String topic, String epoch) {
    return "{\"t\":\"gap\",\"topic\":\"" + topic + "\",\"epoch\":\"" + epoch + "\"}";
  }

  /** An {@code event} frame with a JSON {@code payload}. */
  public static String event(String topic, String event, String payload) {
    return "{\"t\":\"event\",\"topic\":\"" + topic + "\",\"event\":\"" + event + "\",\"payload\":"
        + payload + "}";
  }

  /** A roster member whose meta is {@code {"name": name}}. */
  public static String member(String key, String name, long since) {
    return "{\"key\":\"" + key + "\",\"meta\":{\"name\":\"" + name + "\"},\"since\":" + since + "}";
  }

  /** A {@code presence} frame: the whole roster. */
  public static String presence(String topic, long total, String... members) {
    return "{\"t\":\"presence\",\"topic\":\"" + topic + "\",\"members\":[" + String.join(",", members)
        + "],\"total\":" + total + "}";
  }

  /** A {@code presence-diff} frame. */
  public static String presenceDiff(String topic, List<String> joins, List<String> leaves, long total) {
    return "{\"t\":\"presence-diff\",\"topic\":\"" + topic + "\",\"joins\":[" + String.join(",", joins)
        + "],\"leaves\":" + Json.write(JsonArray.ofStrings(leaves)) + ",\"total\":" + total + "}";
  }

  /** A topic's {@code refuse}. */
  public static String refuseTopic(String topic, String code) {
    return "{\"t\":\"refuse\",\"topic\":\"" + topic + "\",\"code\":\"" + code
        + "\",\"cause\":\"Not a member.\",\"fix\":\"Join the org.\"}";
  }

  /** The 200 body of a read over HTTP at {@code commit} (a position between changes) returning {@code rows}. */
  public static String read(int commit, Row... rows) {
    StringBuilder b = new StringBuilder("{\"records\":[");
    for (int i = 0; i < rows.length; i++) {
      b.append(i == 0 ? "" : ",").append(record(rows[i]));
    }
    return b.append("],\"lsn\":\"").append("%016x00000000".formatted(commit)).append("\"}").toString();
  }
}
