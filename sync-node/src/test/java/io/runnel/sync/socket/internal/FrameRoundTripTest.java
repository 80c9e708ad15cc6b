package io.runnel.sync.socket.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.Cursor;
import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import io.runnel.protocol.PresenceMember;
import io.runnel.protocol.ResumeCursor;
import io.runnel.protocol.ServerFrame;
import io.runnel.protocol.TopicCursor;
import io.runnel.protocol.WireRecord;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/** Frames survive the codec: client frames encode and decode to themselves, node frames parse to their values. */
class FrameRoundTripTest {

  /** Any text without lone surrogates: controls, quotes, backslashes, accents, CJK and astral pairs. */
  static Arbitrary<String> texts(int min, int max) {
    Arbitrary<String> chars = Arbitraries.oneOf(
        Arbitraries.chars().range('\u0000', '\u00ff').map(String::valueOf),
        Arbitraries.chars().range('\u0100', '\ud7ff').map(String::valueOf),
        Arbitraries.of("🚀", "😀", "\"", "\\", "/", "\u2028"));
    return chars.list().ofMinSize(min).ofMaxSize(max).map(l -> String.join("", l))
        .filter(s -> s.length() >= min && s.length() <= max);
  }

  static Arbitrary<JsonValue> json(int depth) {
    Arbitrary<JsonValue> scalars = Arbitraries.oneOf(
        texts(0, 12).map(JsonString::new),
        Arbitraries.longs().map(JsonNumber::of),
        Arbitraries.bigDecimals().ofScale(3).map(FrameRoundTripTest::number),
        Arbitraries.of(JsonNull.NULL, JsonBoolean.TRUE, JsonBoolean.FALSE));
    if (depth == 0) {
      return scalars;
    }
    return Arbitraries.frequencyOf(
        Tuple.of(3, scalars),
        Tuple.of(1, json(depth - 1).list().ofMaxSize(4).map(JsonArray::new)),
        Tuple.of(1, objects(depth - 1).map(JsonValue.class::cast)));
  }

  static Arbitrary<JsonObject> objects(int depth) {
    return Arbitraries.maps(texts(0, 8), json(depth)).ofMaxSize(4).map(JsonObject::new);
  }

  private static JsonValue number(BigDecimal d) {
    return JsonNumber.of(d);
  }

  @Provide
  Arbitrary<ClientFrame> inboundFrames() {
    Arbitrary<String> sids = texts(1, 64);
    Arbitrary<String> names = texts(1, 20);
    Arbitrary<Position> lsns = Arbitraries.strings().withChars("0123456789abcdef").ofLength(24).map(Position::parse);
    Arbitrary<ResumeCursor> cursors = Combinators.combine(names, lsns, Arbitraries.longs().greaterOrEqual(0),
        texts(0, 40).set().ofMaxSize(6).map(List::copyOf)).as(ResumeCursor::new);
    return Arbitraries.oneOf(
        Combinators.combine(Arbitraries.integers(), names.injectNull(0.5)).as(ClientFrame.Hello::new),
        Combinators.combine(sids, names, objects(3), cursors.injectNull(0.5)).as(ClientFrame.Sub::new),
        sids.map(ClientFrame.Unsub::new),
        Combinators.combine(names, Combinators.combine(names, Arbitraries.longs().greaterOrEqual(0))
            .as(TopicCursor::new).injectNull(0.5), objects(2).injectNull(0.5)).as(ClientFrame.Join::new),
        names.map(ClientFrame.Leave::new));
  }

  @Property(tries = 500)
  void everyClientFrameDecodesFromItsOwnEncoding(@ForAll("inboundFrames") ClientFrame frame) {
    String text = FrameCodec.encode(frame);
    assertAll(
        () -> assertEquals(frame, FrameCodec.decode(text), "decode(encode(f)) is f: " + text),
        () -> assertEquals(text, FrameCodec.encode(FrameCodec.decode(text)), "the text is stable"),
        () -> assertEquals(Json.parse(text), Json.parse(Json.write(Json.parse(text))), "Runnel's own parser reads it"));
  }

  @Provide
  Arbitrary<ServerFrame.Patch> patches() {
    Arbitrary<WireRecord> records = Combinators.combine(texts(1, 8), texts(0, 12), objects(2)).as(WireRecord::new);
    Arbitrary<Op> ops = Arbitraries.oneOf(
        Combinators.combine(records, texts(0, 12).injectNull(0.3)).as(Op.Place::new),
        records.map(Op.Update::new),
        Combinators.combine(texts(1, 8), texts(0, 12)).as(Op.Del::new));
    Arbitrary<Cursor> cursors = Combinators.combine(texts(1, 30),
        Arbitraries.strings().withChars("0123456789abcdef").ofLength(24).map(Position::parse), Arbitraries.longs())
        .as(Cursor::new);
    return Combinators.combine(texts(1, 64), ops.list().ofMaxSize(5),
        Arbitraries.strings().withChars("0123456789abcdef").ofLength(32).list().ofMaxSize(2), cursors)
        .as(ServerFrame.Patch::new);
  }

  @Property(tries = 300)
  void aPatchParsesToTheTreeItsOpsAndCursorDescribe(@ForAll("patches") ServerFrame.Patch patch) {
    List<JsonValue> ops = new ArrayList<>();
    patch.ops().forEach(op -> ops.add(op.toJson()));
    JsonObject expected = JsonObject.builder().put("t", "patch").put("sid", patch.sid())
        .put("ops", new JsonArray(ops)).put("writes", JsonArray.ofStrings(patch.writes()))
        .put("cursor", patch.cursor().toJson()).build();
    String text = FrameCodec.encode(patch);
    assertAll(
        () -> assertEquals(expected, Json.parse(text), "the encoder agrees with Op.toJson and Cursor.toJson"),
        () -> assertEquals(Json.write(expected), text, "and writes the same bytes as Json.write"));
  }

  /**
   * A patch's fields after {@code sid} are written once per change and spliced for each subscription: the text equals
   * the frame written field by field, for plain, non-ASCII and escaped sids, and when the ops change between frames.
   */
  @Test
  void aSplicedPatchIsTheSameTextAsOneWrittenWhole() {
    Cursor c1 = new Cursor("feed:d94946c8447dc964@acme", Position.parse("00000016b374d84800000001"), 1);
    Cursor c2 = new Cursor("feed:d94946c8447dc964@acme", Position.parse("00000016b374d84800000002"), 2);
    List<Op> first = List.of(new Op.Place(new WireRecord("posts", "7", JsonObject.builder().put("id", 7)
        .put("title", "h\u00e9\"llo\n").build()), null), new Op.Del("posts", "3"));
    List<Op> second = List.of(new Op.Del("posts", "7"));
    List<String> writes = List.of("w1");
    List<String> sids = List.of("s", "sub-1", "\u00e9t\u00e9", "q\"uote", "back\\slash", "tab\tsid", "\ud83d\ude00");
    for (List<Op> ops : List.of(first, second, first)) {
      for (Cursor c : List.of(c1, c2)) {
        for (String sid : sids) {
          ServerFrame.Patch p = new ServerFrame.Patch(sid, ops, writes, c);
          assertEquals(FrameWriter.whole(p), FrameWriter.outbound(p), "sid " + sid + ", ops " + ops);
        }
      }
    }
  }

  @Test
  void framesRefuseValuesTheContractForbids() {
    Cursor c = new Cursor("feed:d94946c8447dc964@acme", Position.parse("00000016b374d84800000000"), 1);
    assertAll(
        () -> assertThrows(IllegalArgumentException.class, () -> new ServerFrame.Refuse("s1", "org.acme",
            "X_FORBIDDEN", "c", "f"), "a refusal names a sid or a topic, not both"),
        () -> assertThrows(IllegalArgumentException.class, () -> new ServerFrame.Refuse(null, null, "forbidden",
            "c", "f"), "codes are X_ and capitals"),
        () -> assertEquals("X_POST_NOT_FOUND", new ServerFrame.Refuse("s1", null, "X_POST_NOT_FOUND", "c", "f")
            .code(), "a mutator's own code is a code"),
        () -> assertThrows(IllegalArgumentException.class, () -> new ServerFrame.Snapshot("s".repeat(65),
            List.of(), c), "sid of 65"),
        () -> assertThrows(IllegalArgumentException.class, () -> new ServerFrame.Hello(1, "n", null, 0,
            Position.parse("00000016b374d84800000000"), null, null, null), "a heartbeat is positive"),
        () -> assertThrows(IllegalArgumentException.class, () -> new ServerFrame.Hello(1, "n", null, 10,
            Position.parse("16/B374D848"), null, null, null), "an lsn is 24 hex"),
        () -> assertThrows(IllegalArgumentException.class, () -> new ServerFrame.Hello(1, "n", null, 10,
            Position.parse("00000016b374d84800000000"), 5L, null, null), "lagMs comes with asOf"),
        () -> assertThrows(IllegalArgumentException.class, () -> new ServerFrame.Hello(1, "n", null, 10,
            Position.parse("00000016b374d84800000000"), -1L, 1L, null), "a lag is never negative"),
        () -> assertThrows(IllegalArgumentException.class, () -> new ServerFrame.Records("org.acme", "e", 0,
            Position.parse("00000016b374d84800000000"), List.of(), List.of()), "seq counts from 1"),
        () -> assertThrows(IllegalArgumentException.class, () -> new ServerFrame.Presence("org.acme",
            Collections.nCopies(257, new PresenceMember("k", JsonObject.EMPTY, 0)), 300),
            "a roster lists at most 256"),
        () -> assertThrows(IllegalArgumentException.class, () -> new ServerFrame.Presence("org.acme",
            List.of(new PresenceMember("k", JsonObject.EMPTY, 0)), 0), "the total counts the listed"),
        () -> assertThrows(IllegalArgumentException.class, () -> new ServerFrame.Reconnect(-1, "drain"),
            "no negative delay"),
        () -> assertThrows(IllegalArgumentException.class, () -> new ClientFrame.Sub("s1", "feed", JsonObject.EMPTY,
            new ResumeCursor("q", Position.parse("XYZ"), 0, List.of())), "a resume cursor's lsn is 24 hex"),
        () -> assertThrows(NullPointerException.class, () -> FrameCodec.decode(null), "null is no text"));
  }
}
