package io.runnel.client.frame;

import io.runnel.protocol.Cursor;
import io.runnel.protocol.Op;
import io.runnel.protocol.PresenceMember;
import io.runnel.protocol.ReadAnswer;
import io.runnel.protocol.ResumeCursor;
import io.runnel.protocol.WireRecord;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The client's side of the frame contract: decodes node frames from the parsed JSON tree and encodes client
 * frames to it, members in the order {@code docs/protocol.md} lists them, optional members left out when absent.
 * The golden vectors in {@code docs/protocol/vectors/} are its tests.
 */
public final class FrameCodec {

  /** The protocol version this client speaks. */
  public static final int VERSION = 1;

  private FrameCodec() {}

  /**
   * Decodes one node frame.
   *
   * @throws FrameInvalidException when it is not an object, names no node frame kind, or lacks a member or holds
   *     one of the wrong type (the cause names it)
   */
  public static ServerFrame decode(JsonValue json) {
    Members m = Members.of(json, "frame");
    String t = m.text("t");
    Members f = Members.of(json, t);
    try {
      return switch (t) {
        case "hello" -> {
          long v = f.integer("v");
          if (v != VERSION) {
            throw new FrameInvalidException("hello.v is " + v + ", and this client speaks protocol version 1 only");
          }
          yield new ServerFrame.Hello(VERSION, f.text("node"), f.optionalText("actor"), f.integer("heartbeatMs"),
              f.lsn("lsn"), f.optionalInteger("lagMs"), f.optionalInteger("asOf"), f.optionalBool("updateAvailable"));
        }
        case "snapshot" -> new ServerFrame.Snapshot(f.text("sid"), records(f.array("records"), f.path("records")),
            cursor(f.object("cursor"), f.path("cursor")));
        case "patch" -> new ServerFrame.Patch(f.text("sid"), ops(f.array("ops"), f.path("ops")),
            texts(f.array("writes"), f.path("writes")), cursor(f.object("cursor"), f.path("cursor")));
        case "refuse" -> new ServerFrame.Refuse(f.optionalText("sid"), f.optionalText("topic"), f.text("code"),
            f.text("cause"), f.text("fix"));
        case "records" -> new ServerFrame.Records(f.text("topic"), f.text("epoch"), f.integer("seq"), f.lsn("lsn"),
            ops(f.array("ops"), f.path("ops")), texts(f.array("writes"), f.path("writes")));
        case "gap" -> new ServerFrame.Gap(f.text("topic"), f.text("epoch"));
        case "event" -> new ServerFrame.Event(f.text("topic"), f.text("event"), f.value("payload"));
        case "presence" -> new ServerFrame.Presence(f.text("topic"), members(f.array("members"), f.path("members")),
            f.integer("total"));
        case "presence-diff" -> new ServerFrame.PresenceDiff(f.text("topic"),
            members(f.array("joins"), f.path("joins")), texts(f.array("leaves"), f.path("leaves")),
            f.integer("total"));
        case "reconnect" -> new ServerFrame.Reconnect(f.integer("delayMs"), f.text("reason"));
        default -> throw new FrameInvalidException("t names no node frame kind: '" + t + "'");
      };
    } catch (IllegalArgumentException e) {
      throw new FrameInvalidException(t + ": " + e.getMessage());
    }
  }

  /**
   * Decodes the 200 body of a read over HTTP, {@code { "records": [Record…], "lsn" }}.
   *
   * @throws FrameInvalidException when a member is missing or of the wrong type (the cause names it)
   */
  public static ReadAnswer readAnswer(JsonValue json) {
    Members m = Members.of(json, "read");
    return new ReadAnswer(records(m.array("records"), m.path("records")), m.lsn("lsn"));
  }

  /** Encodes one client frame. */
  public static JsonObject encode(ClientFrame frame) {
    JsonObject.Builder b = JsonObject.builder();
    switch (frame) {
      case ClientFrame.Hello h -> {
        b.put("t", "hello").put("v", VERSION);
        if (h.build() != null) {
          b.put("build", h.build());
        }
      }
      case ClientFrame.Sub s -> {
        b.put("t", "sub").put("sid", s.sid()).put("q", s.query()).put("in", s.input());
        if (s.resume() != null) {
          ResumeCursor c = s.resume();
          b.put("cursor", JsonObject.builder().put("qid", c.qid()).put("lsn", c.lsn().toString()).put("at", c.at())
              .put("ids", JsonArray.ofStrings(c.ids())).build());
        }
      }
      case ClientFrame.Unsub u -> b.put("t", "unsub").put("sid", u.sid());
      case ClientFrame.Join j -> {
        b.put("t", "join").put("topic", j.topic());
        if (j.cursor() != null) {
          b.put("cursor", JsonObject.builder().put("epoch", j.cursor().epoch()).put("seq", j.cursor().seq()).build());
        }
        if (j.presence() != null) {
          b.put("presence", j.presence());
        }
      }
      case ClientFrame.Leave l -> b.put("t", "leave").put("topic", l.topic());
    }
    return b.build();
  }

  private static Cursor cursor(JsonObject json, String path) {
    Members m = Members.of(json, path);
    return new Cursor(m.text("qid"), m.lsn("lsn"), m.integer("at"));
  }

  private static List<WireRecord> records(JsonArray array, String path) {
    List<WireRecord> out = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      Members m = Members.of(array.get(i), path + "[" + i + "]");
      out.add(new WireRecord(m.text("type"), m.text("key"), m.object("row")));
    }
    return out;
  }

  private static List<Op> ops(JsonArray array, String path) {
    List<Op> out = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      Members m = Members.of(array.get(i), path + "[" + i + "]");
      String op = m.text("op");
      switch (op) {
        case "put" -> {
          if (m.has("after")) {
            JsonValue after = m.value("after");
            out.add(new Op.Place(new WireRecord(m.text("type"), m.text("key"), m.object("row")),
                after == JsonNull.NULL ? null : Members.text(after, m.path("after"))));
          } else {
            out.add(new Op.Update(new WireRecord(m.text("type"), m.text("key"), m.object("row"))));
          }
        }
        case "del" -> out.add(new Op.Del(m.text("type"), m.text("key")));
        default -> throw new FrameInvalidException(m.path("op") + " must be put or del, not '" + op + "'");
      }
    }
    return out;
  }

  private static List<PresenceMember> members(JsonArray array, String path) {
    List<PresenceMember> out = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      Members m = Members.of(array.get(i), path + "[" + i + "]");
      out.add(new PresenceMember(m.text("key"), m.object("meta"), m.integer("since")));
    }
    return out;
  }

  private static List<String> texts(JsonArray array, String path) {
    List<String> out = new ArrayList<>(array.size());
    for (int i = 0; i < array.size(); i++) {
      JsonValue v = array.get(i);
      out.add(v instanceof JsonString s ? s.value() : Members.text(v, path + "[" + i + "]"));
    }
    return out;
  }
}
