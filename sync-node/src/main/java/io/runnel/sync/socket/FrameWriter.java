package io.runnel.sync.socket;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import io.runnel.protocol.Cursor;
import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import io.runnel.protocol.PresenceMember;
import io.runnel.protocol.ResumeCursor;
import io.runnel.protocol.WireRecord;
import io.runnel.replicator.JacksonJson;
import io.runnel.wire.JsonValue;
import io.runnel.wire.Nullable;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Writes frames as compact JSON with Jackson's streaming generator: {@code t} first, then the fields in the order
 * {@code docs/protocol.md} lists them; optional fields left out when absent; JSON values written as they are (member
 * order and number text kept). Strings are escaped as {@code Json.write} escapes them (quote, backslash, the short
 * escapes, other controls as lower-case u-escapes; everything else as is), so the bytes match Runnel's own writer.
 */
final class FrameWriter {

  /** Lower-case hex in escapes, as {@code Json.write} and RFC 8785 spell them, so that one frame has one text. */
  private static final JsonFactory FACTORY = JsonFactory.builder()
      // One shared pool of buffers, not one per thread: every socket writes on a virtual thread of its own, and a
      // per-thread pool kept a recycler (about 8 KB) alive per socket.
      .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
      .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
      .disable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES)
      .build();

  private final JsonGenerator g;

  private FrameWriter(JsonGenerator g) {
    this.g = g;
  }

  /** A frame's text: {@code body} writes the fields after {@code t}. */
  static String write(String t, Body body) {
    StringWriter out = new StringWriter(128);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("t", t);
      body.write(new FrameWriter(g));
      g.writeEndObject();
    } catch (StreamConstraintsException e) {
      throw new IllegalArgumentException("A frame's JSON value nests too deeply to write: " + e.getOriginalMessage(),
          e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** The fields of one frame. */
  @FunctionalInterface
  interface Body {
    void write(FrameWriter w) throws IOException;
  }

  static String outbound(OutboundFrame frame) {
    if (frame instanceof OutboundFrame.Patch p) {
      return patch(p);
    }
    return whole(frame);
  }

  /** {@code frame} written field by field, never spliced. */
  static String whole(OutboundFrame frame) {
    return write(frame.t(), w -> w.fields(frame));
  }

  /** What follows {@code sid} in the last patch written, and the very lists and cursor it was written from. */
  private record PatchTail(List<Op> ops, List<String> writes, Cursor cursor, String text) {}

  private static final String PATCH_PREFIX = "{\"t\":\"patch\",\"sid\":\"\",";
  /** The last tails, a slot per hash of the ops list's identity, so windows publishing at once rarely evict each other. */
  private static final AtomicReferenceArray<@Nullable PatchTail> LAST_PATCHES = new AtomicReferenceArray<>(64);

  /**
   * A patch frame. A window hands the same ops, writes and cursor objects to every subscriber that sees the same
   * change, one after another on its lane, so the fields after {@code sid} are written once and each subscription's
   * {@code sid} is spliced in; the text is the same as {@link #whole}'s, byte for byte.
   */
  private static String patch(OutboundFrame.Patch p) {
    String sid = p.sid();
    for (int i = 0; i < sid.length(); i++) {
      char c = sid.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\' || Character.isSurrogate(c)) {
        return whole(p);
      }
    }
    int slot = System.identityHashCode(p.ops()) & (LAST_PATCHES.length() - 1);
    PatchTail last = LAST_PATCHES.get(slot);
    if (last == null || last.ops() != p.ops() || last.writes() != p.writes() || last.cursor() != p.cursor()) {
      String text = write("patch", w -> {
        w.g.writeStringField("sid", "");
        w.ops(p.ops());
        w.strings("writes", p.writes());
        w.cursor(p.cursor());
      });
      last = new PatchTail(p.ops(), p.writes(), p.cursor(), text.substring(PATCH_PREFIX.length()));
      LAST_PATCHES.set(slot, last);
    }
    return new StringBuilder(PATCH_PREFIX.length() + sid.length() + last.text().length() + 2)
        .append("{\"t\":\"patch\",\"sid\":\"").append(sid).append("\",").append(last.text()).toString();
  }

  static String inbound(InboundFrame frame) {
    return write(frame.t(), w -> w.fields(frame));
  }

  private void fields(OutboundFrame frame) throws IOException {
    switch (frame) {
      case OutboundFrame.Hello h -> {
        g.writeNumberField("v", h.v());
        g.writeStringField("node", h.node());
        g.writeStringField("actor", h.actor());
        g.writeNumberField("heartbeatMs", h.heartbeatMs());
        lsn(h.lsn());
        if (h.lagMs() != null && h.asOf() != null) {
          g.writeNumberField("lagMs", h.lagMs());
          g.writeNumberField("asOf", h.asOf());
        }
        if (h.updateAvailable() != null) {
          g.writeBooleanField("updateAvailable", h.updateAvailable());
        }
      }
      case OutboundFrame.Snapshot s -> {
        g.writeStringField("sid", s.sid());
        g.writeArrayFieldStart("records");
        for (WireRecord r : s.records()) {
          g.writeStartObject();
          record(r);
          g.writeEndObject();
        }
        g.writeEndArray();
        cursor(s.cursor());
      }
      case OutboundFrame.Patch p -> {
        g.writeStringField("sid", p.sid());
        ops(p.ops());
        strings("writes", p.writes());
        cursor(p.cursor());
      }
      case OutboundFrame.Refuse r -> {
        optionalString("sid", r.sid());
        optionalString("topic", r.topic());
        g.writeStringField("code", r.code());
        g.writeStringField("cause", r.cause());
        g.writeStringField("fix", r.fix());
      }
      case OutboundFrame.Records r -> {
        g.writeStringField("topic", r.topic());
        g.writeStringField("epoch", r.epoch());
        g.writeNumberField("seq", r.seq());
        lsn(r.lsn());
        ops(r.ops());
        strings("writes", r.writes());
      }
      case OutboundFrame.Gap gap -> {
        g.writeStringField("topic", gap.topic());
        g.writeStringField("epoch", gap.epoch());
      }
      case OutboundFrame.Event e -> {
        g.writeStringField("topic", e.topic());
        g.writeStringField("event", e.event());
        g.writeFieldName("payload");
        value(e.payload());
      }
      case OutboundFrame.Presence p -> {
        g.writeStringField("topic", p.topic());
        members("members", p.members());
        g.writeNumberField("total", p.total());
      }
      case OutboundFrame.PresenceDiff d -> {
        g.writeStringField("topic", d.topic());
        members("joins", d.joins());
        strings("leaves", d.leaves());
        g.writeNumberField("total", d.total());
      }
      case OutboundFrame.Reconnect r -> {
        g.writeNumberField("delayMs", r.delayMs());
        g.writeStringField("reason", r.reason());
      }
    }
  }

  private void fields(InboundFrame frame) throws IOException {
    switch (frame) {
      case InboundFrame.Hello h -> {
        g.writeNumberField("v", h.v());
        optionalString("build", h.build());
      }
      case InboundFrame.Sub s -> {
        g.writeStringField("sid", s.sid());
        g.writeStringField("q", s.q());
        g.writeFieldName("in");
        value(s.in());
        if (s.cursor() != null) {
          resumeCursor(s.cursor());
        }
      }
      case InboundFrame.Unsub u -> g.writeStringField("sid", u.sid());
      case InboundFrame.Join j -> {
        g.writeStringField("topic", j.topic());
        if (j.cursor() != null) {
          g.writeObjectFieldStart("cursor");
          g.writeStringField("epoch", j.cursor().epoch());
          g.writeNumberField("seq", j.cursor().seq());
          g.writeEndObject();
        }
        if (j.presence() != null) {
          g.writeFieldName("presence");
          value(j.presence());
        }
      }
      case InboundFrame.Leave l -> g.writeStringField("topic", l.topic());
    }
  }

  private void record(WireRecord r) throws IOException {
    g.writeStringField("type", r.type());
    g.writeStringField("key", r.key());
    g.writeFieldName("row");
    value(r.row());
  }

  private void ops(List<Op> ops) throws IOException {
    g.writeArrayFieldStart("ops");
    for (Op op : ops) {
      g.writeStartObject();
      switch (op) {
        case Op.Place place -> {
          g.writeStringField("op", "put");
          record(place.record());
          g.writeStringField("after", place.after());
        }
        case Op.Update update -> {
          g.writeStringField("op", "put");
          record(update.record());
        }
        case Op.Del del -> {
          g.writeStringField("op", "del");
          g.writeStringField("type", del.type());
          g.writeStringField("key", del.key());
        }
      }
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private void cursor(Cursor c) throws IOException {
    g.writeObjectFieldStart("cursor");
    g.writeStringField("qid", c.qid());
    lsn(c.lsn());
    g.writeNumberField("at", c.at());
    g.writeEndObject();
  }

  private void lsn(Position p) throws IOException {
    g.writeStringField("lsn", p.toString());
  }

  /** A resume cursor, its ids in the cursor's order. */
  private void resumeCursor(ResumeCursor c) throws IOException {
    g.writeObjectFieldStart("cursor");
    g.writeStringField("qid", c.qid());
    lsn(c.lsn());
    g.writeNumberField("at", c.at());
    strings("ids", c.ids());
    g.writeEndObject();
  }

  private void members(String name, List<PresenceMember> members) throws IOException {
    g.writeArrayFieldStart(name);
    for (PresenceMember m : members) {
      g.writeStartObject();
      g.writeStringField("key", m.key());
      g.writeFieldName("meta");
      value(m.meta());
      g.writeNumberField("since", m.since());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private void strings(String name, List<String> values) throws IOException {
    g.writeArrayFieldStart(name);
    for (String v : values) {
      g.writeString(v);
    }
    g.writeEndArray();
  }

  private void optionalString(String name, @Nullable String value) throws IOException {
    if (value != null) {
      g.writeStringField(name, value);
    }
  }

  private void value(JsonValue v) throws IOException {
    JacksonJson.write(g, v);
  }
}
