package io.runnel.protocol;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.util.LinkedHashSet;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads frames from their parsed JSON ({@code docs/protocol.md}, "Socket frames"; golden vectors in
 * {@code docs/protocol/vectors/}), checking each field's presence and type and naming the first one at fault.
 * Members a frame kind does not define are ignored, so that either side may be newer; an optional field may be
 * absent or null. The node reads {@link ClientFrame}s ({@link #client}), the client reads {@link ServerFrame}s
 * ({@link #server}) and read answers ({@link #readAnswer}).
 */
public final class FrameDecoder {

  private static final String SID = "a string of 1–" + Frames.MAX_SID_LENGTH + " characters";
  private static final String NON_EMPTY = "a non-empty string";
  private static final String KINDS = "hello, sub, unsub, join or leave";

  private @Nullable String sid;
  private @Nullable String topic;

  private FrameDecoder() {}

  /**
   * The client frame {@code members} describe. Values are checked as far as the frame's shape goes ({@code sid} 1–64
   * characters, a cursor's {@code lsn} 24 lower-case hex digits); whether the node admits the frame (the protocol
   * version, the query's name, the input, policies and caps) is decided after, so {@code hello} with {@code v} 2
   * decodes.
   *
   * @throws FrameException {@code X_FRAME_INVALID} naming the missing or mistyped field
   *     ({@link FrameException#field()}, as in {@code sub.sid must be a string of 1–64 characters}), with the
   *     {@code sid} or {@code topic} when a valid one was read
   */
  public static ClientFrame client(JsonObject members) {
    return new FrameDecoder().frame(members);
  }

  /**
   * The node frame {@code json} holds.
   *
   * @throws FrameException {@code X_FRAME_INVALID} ({@link FrameException#ofNodeFrame}) when it is not an object,
   *     names no node frame kind, speaks another protocol version, lacks a member or holds one of the wrong type or
   *     value (the cause names it)
   */
  public static ServerFrame server(JsonValue json) {
    return NodeFrames.decode(json);
  }

  /**
   * The 200 body of a read over HTTP ({@code GET /v1/query/{query}}), {@code { "records": [Record…], "lsn" }}.
   *
   * @throws FrameException {@code X_FRAME_INVALID} when a member is missing or of the wrong type (the cause names it)
   */
  public static ReadAnswer readAnswer(JsonValue json) {
    return NodeFrames.readAnswer(json);
  }

  private ClientFrame frame(JsonObject f) {
    if (!(f.get("t") instanceof JsonString t)) {
      throw invalid("t", "a string naming the frame's kind (" + KINDS + ")", f.get("t"));
    }
    return switch (t.value()) {
      case "hello" -> new ClientFrame.Hello(
          (int) integer(f, "hello", "v", Integer.MIN_VALUE, Integer.MAX_VALUE, "an integer"),
          optionalString(f, "hello", "build"));
      case "sub" -> {
        sid = string(f, "sub", "sid", 1, Frames.MAX_SID_LENGTH, SID);
        String q = string(f, "sub", "q", 1, Integer.MAX_VALUE, NON_EMPTY);
        JsonObject in = object(f, "sub", "in", "an object (the query's input)");
        JsonObject c = optionalObject(f, "sub", "cursor", "an object { qid, lsn, at, ids } or absent");
        yield new ClientFrame.Sub(sid, q, in, c == null ? null : resumeCursor(c, "sub.cursor"));
      }
      case "unsub" -> new ClientFrame.Unsub(string(f, "unsub", "sid", 1, Frames.MAX_SID_LENGTH, SID));
      case "join" -> {
        topic = string(f, "join", "topic", 1, Integer.MAX_VALUE, NON_EMPTY);
        JsonObject c = optionalObject(f, "join", "cursor", "an object { epoch, seq } or absent");
        JsonObject presence = optionalObject(f, "join", "presence", "an object (the presence meta) or absent");
        yield new ClientFrame.Join(topic, c == null ? null : channelCursor(c, "join.cursor"), presence);
      }
      case "leave" -> new ClientFrame.Leave(string(f, "leave", "topic", 1, Integer.MAX_VALUE, NON_EMPTY));
      default -> throw new FrameException(ErrorCode.X_FRAME_INVALID, "t", null, null,
          "t names no client frame kind: " + quoted(t.value()) + ".",
          "Send t as one of " + KINDS + " (docs/protocol.md, \"Socket frames\").");
    };
  }

  private ResumeCursor resumeCursor(JsonObject c, String path) {
    String qid = string(c, path, "qid", 1, Integer.MAX_VALUE, NON_EMPTY);
    Position lsn = lsn(c, path, "lsn");
    long at = integer(c, path, "at", 0, Long.MAX_VALUE, "an integer of epoch milliseconds, at least 0");
    String ids = path + ".ids";
    String idsShape = "an array of strings (the keys the client holds)";
    if (!(c.get("ids") instanceof JsonArray array)) {
      throw invalid(ids, idsShape, c.get("ids"));
    }
    LinkedHashSet<String> keys = new LinkedHashSet<>();
    for (int i = 0; i < array.size(); i++) {
      if (!(array.get(i) instanceof JsonString key)) {
        throw invalid(ids + "[" + i + "]", "a string (a record key)", array.get(i));
      }
      keys.add(key.value());
    }
    return new ResumeCursor(qid, lsn, at, List.copyOf(keys));
  }

  private TopicCursor channelCursor(JsonObject c, String path) {
    String epoch = string(c, path, "epoch", 1, Integer.MAX_VALUE, NON_EMPTY);
    long seq = integer(c, path, "seq", 0, Long.MAX_VALUE, "an integer, at least 0");
    return new TopicCursor(epoch, seq);
  }

  private String string(JsonObject o, String path, String name, int min, int max, String shape) {
    JsonValue v = o.get(name);
    if (v instanceof JsonString s && s.value().length() >= min && s.value().length() <= max) {
      return s.value();
    }
    throw invalid(path + "." + name, shape, v);
  }

  private @Nullable String optionalString(JsonObject o, String path, String name) {
    JsonValue v = o.get(name);
    if (v == null || v == JsonNull.NULL) {
      return null;
    }
    if (v instanceof JsonString s) {
      return s.value();
    }
    throw invalid(path + "." + name, "a string or absent", v);
  }

  private JsonObject object(JsonObject o, String path, String name, String shape) {
    if (o.get(name) instanceof JsonObject object) {
      return object;
    }
    throw invalid(path + "." + name, shape, o.get(name));
  }

  private @Nullable JsonObject optionalObject(JsonObject o, String path, String name, String shape) {
    JsonValue v = o.get(name);
    return v == null || v == JsonNull.NULL ? null : object(o, path, name, shape);
  }

  private long integer(JsonObject o, String path, String name, long min, long max, String shape) {
    if (o.get(name) instanceof JsonNumber n && n.isPlainInteger()) {
      try {
        long value = n.longValueExact();
        if (value >= min && value <= max) {
          return value;
        }
      } catch (ArithmeticException e) {
        // out of a long's range: refused below
      }
    }
    throw invalid(path + "." + name, shape, o.get(name));
  }

  private Position lsn(JsonObject o, String path, String name) {
    JsonValue v = o.get(name);
    Position p = v instanceof JsonString s ? Position.tryParse(s.value()) : null;
    if (p != null) {
      return p;
    }
    throw invalid(path + "." + name, "24 lower-case hex digits (the commit LSN, then the row's position)", v);
  }

  private FrameException invalid(String field, String shape, @Nullable JsonValue found) {
    return new FrameException(ErrorCode.X_FRAME_INVALID, field, sid, topic,
        field + " must be " + shape + ", but " + describe(found) + ".",
        "Send " + field + " as " + shape + " (docs/protocol.md, \"Socket frames\").");
  }

  private static String describe(@Nullable JsonValue v) {
    return switch (v) {
      case null -> "it is missing";
      case JsonNull n -> "it is null";
      case JsonString s -> "it is the string " + quoted(s.value()) + " of " + s.value().length() + " characters";
      case JsonNumber n -> "it is the number " + cut(n.text());
      case JsonObject o -> "it is an object";
      case JsonArray a -> "it is an array";
      case JsonBoolean b -> "it is " + b.value();
    };
  }

  /** {@code s} quoted, cut to 32 characters so that a hostile frame cannot inflate the refusal. */
  private static String quoted(String s) {
    return "'" + cut(s) + "'";
  }

  /** {@code s} cut to 32 characters, never between the halves of a surrogate pair. */
  private static String cut(String s) {
    if (s.length() <= 32) {
      return s;
    }
    int end = Character.isHighSurrogate(s.charAt(31)) ? 31 : 32;
    return s.substring(0, end) + "…";
  }
}
