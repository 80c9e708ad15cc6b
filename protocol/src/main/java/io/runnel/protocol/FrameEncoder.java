package io.runnel.protocol;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Writes frames as {@code docs/protocol.md} spells them ("Socket frames"): {@code t} first, then the fields in the
 * contract's order; an optional field that is absent is left out, except {@code hello.actor} and a placing op's
 * {@code after}, which are JSON {@code null} when empty. Rows, inputs, metas and payloads are written as the JSON
 * values they are. One encoder for both sides: the node writes {@link ServerFrame}s (and, for Java clients such as
 * the load generator, {@link ClientFrame}s), the browser client writes {@link ClientFrame}s, each into its own
 * {@link FrameSink}.
 */
public final class FrameEncoder {

  private FrameEncoder() {}

  /** Writes {@code frame} into {@code sink} as one object. */
  public static void write(ServerFrame frame, FrameSink sink) {
    sink.startObject();
    sink.string("t", frame.t());
    switch (frame) {
      case ServerFrame.Hello h -> {
        sink.number("v", h.v());
        sink.string("node", h.node());
        sink.stringOrNull("actor", h.actor());
        sink.number("heartbeatMs", h.heartbeatMs());
        sink.string("lsn", h.lsn().toString());
        Long lagMs = h.lagMs();
        Long asOf = h.asOf();
        if (lagMs != null && asOf != null) {
          sink.number("lagMs", lagMs);
          sink.number("asOf", asOf);
        }
        Boolean updateAvailable = h.updateAvailable();
        if (updateAvailable != null) {
          sink.name("updateAvailable");
          sink.bool(updateAvailable);
        }
      }
      case ServerFrame.Snapshot s -> {
        sink.string("sid", s.sid());
        sink.name("records");
        sink.startArray();
        for (WireRecord r : s.records()) {
          sink.startObject();
          record(r, sink);
          sink.endObject();
        }
        sink.endArray();
        cursor(s.cursor(), sink);
      }
      case ServerFrame.Patch p -> {
        sink.string("sid", p.sid());
        patchTail(p, sink);
      }
      case ServerFrame.Refuse r -> {
        optional("sid", r.sid(), sink);
        optional("topic", r.topic(), sink);
        sink.string("code", r.code());
        sink.string("cause", r.cause());
        sink.string("fix", r.fix());
      }
      case ServerFrame.Records r -> {
        sink.string("topic", r.topic());
        sink.string("epoch", r.epoch());
        sink.number("seq", r.seq());
        sink.string("lsn", r.lsn().toString());
        ops(r.ops(), sink);
        strings("writes", r.writes(), sink);
      }
      case ServerFrame.Gap gap -> {
        sink.string("topic", gap.topic());
        sink.string("epoch", gap.epoch());
      }
      case ServerFrame.Event e -> {
        sink.string("topic", e.topic());
        sink.string("event", e.event());
        sink.name("payload");
        sink.value(e.payload());
      }
      case ServerFrame.Presence p -> {
        sink.string("topic", p.topic());
        members("members", p.members(), sink);
        sink.number("total", p.total());
      }
      case ServerFrame.PresenceDiff d -> {
        sink.string("topic", d.topic());
        members("joins", d.joins(), sink);
        strings("leaves", d.leaves(), sink);
        sink.number("total", d.total());
      }
      case ServerFrame.Reconnect r -> {
        sink.number("delayMs", r.delayMs());
        sink.string("reason", r.reason());
      }
    }
    sink.endObject();
  }

  /**
   * The members of a {@code patch} after its {@code sid}: {@code ops}, {@code writes}, {@code cursor}. The node writes
   * them once per change and splices each subscription's {@code sid} in front.
   */
  public static void patchTail(ServerFrame.Patch p, FrameSink sink) {
    ops(p.ops(), sink);
    strings("writes", p.writes(), sink);
    cursor(p.cursor(), sink);
  }

  /** Writes {@code frame} into {@code sink} as one object; a resume cursor's ids in the cursor's order. */
  public static void write(ClientFrame frame, FrameSink sink) {
    sink.startObject();
    sink.string("t", frame.t());
    switch (frame) {
      case ClientFrame.Hello h -> {
        sink.number("v", h.v());
        optional("build", h.build(), sink);
      }
      case ClientFrame.Sub s -> {
        sink.string("sid", s.sid());
        sink.string("q", s.q());
        sink.name("in");
        sink.value(s.in());
        ResumeCursor c = s.cursor();
        if (c != null) {
          sink.name("cursor");
          sink.startObject();
          sink.string("qid", c.qid());
          sink.string("lsn", c.lsn().toString());
          sink.number("at", c.at());
          strings("ids", c.ids(), sink);
          sink.endObject();
        }
      }
      case ClientFrame.Unsub u -> sink.string("sid", u.sid());
      case ClientFrame.Join j -> {
        sink.string("topic", j.topic());
        TopicCursor c = j.cursor();
        if (c != null) {
          sink.name("cursor");
          sink.startObject();
          sink.string("epoch", c.epoch());
          sink.number("seq", c.seq());
          sink.endObject();
        }
        if (j.presence() != null) {
          sink.name("presence");
          sink.value(j.presence());
        }
      }
      case ClientFrame.Leave l -> sink.string("topic", l.topic());
    }
    sink.endObject();
  }

  private static void record(WireRecord r, FrameSink sink) {
    sink.string("type", r.type());
    sink.string("key", r.key());
    sink.name("row");
    sink.value(r.row());
  }

  private static void ops(List<Op> ops, FrameSink sink) {
    sink.name("ops");
    sink.startArray();
    for (Op op : ops) {
      sink.startObject();
      switch (op) {
        case Op.Place place -> {
          sink.string("op", "put");
          record(place.record(), sink);
          sink.stringOrNull("after", place.after());
        }
        case Op.Update update -> {
          sink.string("op", "put");
          record(update.record(), sink);
        }
        case Op.Del del -> {
          sink.string("op", "del");
          sink.string("type", del.type());
          sink.string("key", del.key());
        }
      }
      sink.endObject();
    }
    sink.endArray();
  }

  private static void cursor(Cursor c, FrameSink sink) {
    sink.name("cursor");
    sink.startObject();
    sink.string("qid", c.qid());
    sink.string("lsn", c.lsn().toString());
    sink.number("at", c.at());
    sink.endObject();
  }

  private static void members(String name, List<PresenceMember> members, FrameSink sink) {
    sink.name(name);
    sink.startArray();
    for (PresenceMember m : members) {
      sink.startObject();
      sink.string("key", m.key());
      sink.name("meta");
      sink.value(m.meta());
      sink.number("since", m.since());
      sink.endObject();
    }
    sink.endArray();
  }

  private static void strings(String name, List<String> values, FrameSink sink) {
    sink.name(name);
    sink.startArray();
    for (String v : values) {
      sink.string(v);
    }
    sink.endArray();
  }

  private static void optional(String name, @Nullable String value, FrameSink sink) {
    if (value != null) {
      sink.string(name, value);
    }
  }
}
