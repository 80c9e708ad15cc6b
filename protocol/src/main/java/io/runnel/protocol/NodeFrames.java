package io.runnel.protocol;

import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The client's reading of node frames and read answers, behind {@link FrameDecoder#server} and
 * {@link FrameDecoder#readAnswer}: every member is checked as {@link Members} reads it, then the frame's own rules
 * apply (a value a frame refuses is a refusal of the frame, its kind named).
 */
final class NodeFrames {

  private NodeFrames() {}

  static ServerFrame decode(JsonValue json) {
    Members m = Members.of(json, "frame");
    String t = m.text("t");
    Members f = Members.of(json, t);
    try {
      return switch (t) {
        case "hello" -> {
          long v = f.integer("v");
          if (v != ClientFrame.VERSION) {
            throw FrameException.ofNodeFrame("hello.v is " + v + ", and this client speaks protocol version 1 only");
          }
          yield new ServerFrame.Hello(ClientFrame.VERSION, f.text("node"), f.optionalText("actor"),
              f.integer("heartbeatMs"), f.lsn("lsn"), f.optionalInteger("lagMs"), f.optionalInteger("asOf"),
              f.optionalBool("updateAvailable"));
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
            count(f, "total"));
        case "presence-diff" -> new ServerFrame.PresenceDiff(f.text("topic"),
            members(f.array("joins"), f.path("joins")), texts(f.array("leaves"), f.path("leaves")), count(f, "total"));
        case "reconnect" -> new ServerFrame.Reconnect(f.integer("delayMs"), f.text("reason"));
        default -> throw FrameException.ofNodeFrame("t names no node frame kind: '" + t + "'");
      };
    } catch (IllegalArgumentException e) {
      throw FrameException.ofNodeFrame(t + ": " + e.getMessage());
    }
  }

  static ReadAnswer readAnswer(JsonValue json) {
    Members m = Members.of(json, "read");
    return new ReadAnswer(records(m.array("records"), m.path("records")), m.lsn("lsn"));
  }

  /** A count member: an integer that fits an {@code int}. */
  private static int count(Members m, String name) {
    long n = m.integer(name);
    if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
      throw FrameException.ofNodeFrame(m.path(name) + " must be a count below 2^31, not " + n);
    }
    return (int) n;
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
          WireRecord r = new WireRecord(m.text("type"), m.text("key"), m.object("row"));
          if (m.has("after")) {
            JsonValue after = m.value("after");
            out.add(new Op.Place(r, after == JsonNull.NULL ? null : Members.text(after, m.path("after"))));
          } else {
            out.add(new Op.Update(r));
          }
        }
        case "del" -> out.add(new Op.Del(m.text("type"), m.text("key")));
        default -> throw FrameException.ofNodeFrame(m.path("op") + " must be put or del, not '" + op + "'");
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
