package io.runnel.sync.socket.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.Cursor;
import io.runnel.protocol.FrameEncoder;
import io.runnel.protocol.FrameSink;
import io.runnel.protocol.Op;
import io.runnel.protocol.ServerFrame;
import io.runnel.replicator.JacksonJson;
import io.runnel.wire.JsonValue;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jspecify.annotations.Nullable;

/**
 * The node's {@link FrameSink}: {@link FrameEncoder}'s tokens as compact JSON through Jackson's streaming generator.
 * Strings are escaped as {@code Json.write} escapes them (quote, backslash, the short escapes, other controls as
 * lower-case u-escapes; everything else as is), so the bytes match Runnel's own writer.
 */
final class FrameWriter implements FrameSink {

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

  /** The text {@code body} writes into a fresh writer. */
  private static String write(Body body) {
    StringWriter out = new StringWriter(128);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      body.write(new FrameWriter(g));
    } catch (IOException e) {
      // Creating or closing the generator over a StringWriter.
      throw new UncheckedIOException(e);
    } catch (UncheckedIOException e) {
      // The sink's methods wrap Jackson's failures; a value nested past Jackson's limit is the caller's error.
      if (e.getCause() instanceof StreamConstraintsException s) {
        throw new IllegalArgumentException("A frame's JSON value nests too deeply to write: "
            + s.getOriginalMessage(), s);
      }
      throw e;
    }
    return out.toString();
  }

  /** What a writer is given to write. */
  @FunctionalInterface
  private interface Body {
    void write(FrameWriter w);
  }

  static String outbound(ServerFrame frame) {
    if (frame instanceof ServerFrame.Patch p) {
      return patch(p);
    }
    return whole(frame);
  }

  /** {@code frame} written field by field, never spliced. */
  static String whole(ServerFrame frame) {
    return write(w -> FrameEncoder.write(frame, w));
  }

  static String inbound(ClientFrame frame) {
    return write(w -> FrameEncoder.write(frame, w));
  }

  /** What follows {@code sid} in the last patch written, and the very lists and cursor it was written from. */
  private record PatchTail(List<Op> ops, List<String> writes, Cursor cursor, String text) {}

  private static final String PATCH_PREFIX = "{\"t\":\"patch\",\"sid\":\"\",";
  /**
   * The last tails, a slot per hash of the ops list's identity, so windows publishing at once rarely evict each other.
   */
  private static final AtomicReferenceArray<@Nullable PatchTail> LAST_PATCHES = new AtomicReferenceArray<>(64);

  /**
   * A patch frame. A window hands the same ops, writes and cursor objects to every subscriber that sees the same
   * change, one after another on its lane, so the fields after {@code sid} are written once and each subscription's
   * {@code sid} is spliced in; the text is the same as {@link #whole}'s, byte for byte.
   */
  // Identity on purpose: the same lists and cursor object mean the same patch of one window, sent to many sockets.
  @SuppressWarnings("ReferenceEquality")
  private static String patch(ServerFrame.Patch p) {
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
      String text = write(w -> {
        w.startObject();
        w.string("t", "patch");
        w.string("sid", "");
        FrameEncoder.patchTail(p, w);
        w.endObject();
      });
      last = new PatchTail(p.ops(), p.writes(), p.cursor(), text.substring(PATCH_PREFIX.length()));
      LAST_PATCHES.set(slot, last);
    }
    return "{\"t\":\"patch\",\"sid\":\"" + sid + "\"," + last.text();
  }

  @Override
  public void startObject() {
    try {
      g.writeStartObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void endObject() {
    try {
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void startArray() {
    try {
      g.writeStartArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void endArray() {
    try {
      g.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void name(String name) {
    try {
      g.writeFieldName(name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void string(String value) {
    try {
      g.writeString(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void number(long value) {
    try {
      g.writeNumber(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void bool(boolean value) {
    try {
      g.writeBoolean(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void nullValue() {
    try {
      g.writeNull();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void value(JsonValue value) {
    try {
      JacksonJson.write(g, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
