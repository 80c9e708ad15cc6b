package io.runnel.sync.socket.internal;

import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.Cursor;
import io.runnel.protocol.FrameException;
import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import io.runnel.protocol.PresenceMember;
import io.runnel.protocol.ResumeCursor;
import io.runnel.protocol.ServerFrame;
import io.runnel.protocol.TopicCursor;
import io.runnel.protocol.WireRecord;
import io.runnel.sync.live.internal.LiveQueryException;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fixed frames behind the golden vectors in {@code docs/protocol/vectors/}: each file holds exactly the compact
 * JSON text of its frame (no trailing newline). Rows are built value by value, never parsed from text, so that a
 * vector checks the encoder against an independent statement of the expected bytes.
 */
final class FrameVectors {

  static final Path DIR = Path.of("..", "docs", "protocol", "vectors");

  static final String QID = "feed:d94946c8447dc964@acme";
  static final String WRITE = "0123456789abcdef0123456789abcdef";
  static final long AT = 1_732_880_000_000L;

  private FrameVectors() {}

  /** int8 and numeric as strings, timestamptz, NULL, unicode and escapes, float8 NaN, jsonb with its number text. */
  static JsonObject row1() {
    return JsonObject.builder()
        .put("id", "9007199254740993")
        .put("title", "Grüße, 世界 🚀")
        .put("body", "Line one\nsaid \"hi\"")
        .put("price", "0.10")
        .put("likes", 3)
        .put("score", "NaN")
        .put("published_at", "2024-11-29T12:00:00.123456Z")
        .put("deleted_at", JsonNull.NULL)
        .put("draft", false)
        .put("tags", JsonArray.of(JsonString.of("a"), JsonString.of("b")))
        .put("meta", JsonObject.builder().put("weight", new JsonNumber("1.50")).build())
        .build();
  }

  /** A numeric past a double's digits, a negative float, an empty text, an empty array, jsonb NULL. */
  static JsonObject row2() {
    return JsonObject.builder()
        .put("id", "9007199254740994")
        .put("title", "Second")
        .put("body", "")
        .put("price", "12345678901234567890.000001")
        .put("likes", 0)
        .put("score", new JsonNumber("-0.5"))
        .put("published_at", "2024-11-29T12:00:01Z")
        .put("deleted_at", JsonNull.NULL)
        .put("draft", true)
        .put("tags", JsonArray.EMPTY)
        .put("meta", JsonNull.NULL)
        .build();
  }

  /** int4's maximum, float8 Infinity, timestamptz infinity, a tab, nested jsonb numbers as written. */
  static JsonObject row3() {
    return JsonObject.builder()
        .put("id", "9007199254740995")
        .put("title", "Third")
        .put("body", "tab\there")
        .put("price", "-1")
        .put("likes", Integer.MAX_VALUE)
        .put("score", "Infinity")
        .put("published_at", "infinity")
        .put("deleted_at", "2024-11-30T08:15:00.5Z")
        .put("draft", false)
        .put("tags", JsonArray.of(JsonString.of("c")))
        .put("meta", JsonObject.builder().put("nested", JsonObject.builder().put("list",
            JsonArray.of(new JsonNumber("1"), new JsonNumber("2.0"), new JsonNumber("3e2"))).build()).build())
        .build();
  }

  static WireRecord post(JsonObject row) {
    return new WireRecord("posts", ((JsonString) row.get("id")).value(), row);
  }

  static Cursor cursor(String lsn) {
    return new Cursor(QID, Position.parse(lsn), AT);
  }

  /** Each outbound vector file and the frame it holds. */
  static Map<String, ServerFrame> outbound() {
    Map<String, ServerFrame> v = new LinkedHashMap<>();
    v.put("out-hello.json",
        new ServerFrame.Hello(1, "node-7f3a", "u-42", 10_000, Position.parse("00000016b374d84800000003"), null,
            null, true));
    v.put("out-hello-anonymous.json",
        new ServerFrame.Hello(1, "node-7f3a", null, 10_000, Position.parse("00000016b374d84800000000"), null,
            null, null));
    v.put("out-hello-as-of.json",
        new ServerFrame.Hello(1, "node-7f3a", "u-42", 10_000, Position.parse("00000016b374d84800000003"), 420L,
            1_732_880_000_000L, null));
    v.put("out-snapshot.json", new ServerFrame.Snapshot("s1", List.of(post(row1()), post(row2())),
        cursor("00000016b374d84800000000")));
    v.put("out-patch.json", new ServerFrame.Patch("s1", List.of(
        new Op.Place(post(row3()), "9007199254740993"),
        new Op.Update(post(row1())),
        new Op.Del("posts", "9007199254740994")), List.of(WRITE), cursor("00000016b374d84800000004")));
    v.put("out-patch-resumed.json",
        new ServerFrame.Patch("s1", List.of(), List.of(), cursor("00000016b374d84800000004")));
    v.put("out-refuse.json", ServerFrame.Refuse.of(new LiveQueryException(ErrorCode.X_LIVE_QUERY_UNKNOWN,
        "No live query is named 'fed'.", "Subscribe to a query the app declares as live."), "s1", null));
    v.put("out-refuse-topic.json", ServerFrame.Refuse.of(new LiveQueryException(ErrorCode.X_TOPIC_FORBIDDEN,
        "No channel declares the topic 'org.acme'.", "Join a topic of a declared channel."), null, "org.acme"));
    v.put("out-refuse-frame.json", ServerFrame.Refuse.of(refusalOf("{\"t\":\"subscribe\"}")));
    v.put("out-records.json", new ServerFrame.Records("org.acme", "5f0c2a9e81d4b3a7", 42,
        Position.parse("00000016b374d84800000002"), List.of(new Op.Place(post(row3()), null), new Op.Del("posts",
        "9007199254740994")), List.of(WRITE)));
    v.put("out-gap.json", new ServerFrame.Gap("org.acme", "5f0c2a9e81d4b3a8"));
    v.put("out-event.json", new ServerFrame.Event("org.acme", "typing", JsonObject.builder()
        .put("user", "Zoë").put("at", AT).put("draft", JsonNull.NULL).put("ratio", new JsonNumber("0.10")).build()));
    v.put("out-presence.json", new ServerFrame.Presence("org.acme", List.of(
        new PresenceMember("u-42", JsonObject.builder().put("name", "Ada").build(), AT),
        new PresenceMember("u-43", JsonObject.EMPTY, AT + 1000)), 2));
    v.put("out-presence-diff.json", new ServerFrame.PresenceDiff("org.acme",
        List.of(new PresenceMember("u-44", JsonObject.builder().put("name", "Zoë 🚀").build(), AT + 2000)),
        List.of("u-43"), 2));
    v.put("out-reconnect.json", new ServerFrame.Reconnect(2500, "drain"));
    return v;
  }

  /** Each inbound vector file and the frame it decodes to. */
  static Map<String, ClientFrame> inbound() {
    JsonObject in = JsonObject.builder().put("orgId", "acme").put("limit", 20).build();
    Map<String, ClientFrame> v = new LinkedHashMap<>();
    v.put("in-hello.json", new ClientFrame.Hello(1, "2024.11.29-3f2a"));
    v.put("in-sub.json", new ClientFrame.Sub("s1", "feed", JsonObject.builder()
        .put("orgId", "acme").put("limit", 20).put("since", "2024-11-29T12:00:00Z").put("views", "9007199254740993")
        .put("tag", JsonNull.NULL).put("title", "Grüße 🚀").build(), null));
    v.put("in-sub-resume.json", new ClientFrame.Sub("s1", "feed", in, new ResumeCursor(QID,
        Position.parse("00000016b374d84800000003"), AT, List.of("9007199254740993", "9007199254740995"))));
    v.put("in-unsub.json", new ClientFrame.Unsub("s1"));
    v.put("in-join.json", new ClientFrame.Join("org.acme", new TopicCursor("5f0c2a9e81d4b3a7", 42),
        JsonObject.builder().put("name", "Ada").build()));
    v.put("in-leave.json", new ClientFrame.Leave("org.acme"));
    return v;
  }

  static FrameException refusalOf(String text) {
    try {
      ClientFrame f = FrameCodec.decode(text);
      throw new AssertionError("decoded " + f + " from " + text);
    } catch (FrameException e) {
      return e;
    }
  }
}
