package io.runnel.sync.socket.internal;

import static io.runnel.sync.socket.internal.FrameVectors.refusalOf;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.FrameException;
import io.runnel.protocol.Position;
import io.runnel.protocol.ResumeCursor;
import io.runnel.protocol.ServerFrame;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonLimits;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the decoder accepts, and how it bounds nesting and size. */
class FrameDecodeTest {

  private static final String SUB = "{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"feed\",\"in\":";

  private static String nested(int depth, String open, String close) {
    return open.repeat(depth) + close.repeat(depth);
  }

  @Test
  void unknownMembersAreIgnoredAndOptionalFieldsMayBeNull() {
    assertAll(
        () -> assertEquals(new ClientFrame.Hello(1, null),
            FrameCodec.decode("{\"v\":1,\"t\":\"hello\",\"build\":null,\"future\":{\"x\":[1,2]}}"),
            "a newer client's extra member is ignored, in any order, and a null build is none"),
        () -> assertEquals(new ClientFrame.Sub("s1", "feed", JsonObject.EMPTY, null),
            FrameCodec.decode(SUB + "{},\"cursor\":null,\"priority\":\"high\"}"), "a null cursor is a fresh sub"),
        () -> assertEquals(new ClientFrame.Join("org.acme", null, null),
            FrameCodec.decode("{\"t\":\"join\",\"topic\":\"org.acme\",\"cursor\":null,\"presence\":null}"),
            "a join without cursor or presence"),
        () -> assertEquals(new ClientFrame.Unsub("s1"), FrameCodec.decode(" \n{\"t\":\"unsub\",\"sid\":\"s1\"}\t "),
            "white space around the object is JSON"));
  }

  @Test
  void aHelloOfAnotherVersionDecodesForTheNodeToRefuse() {
    assertAll(
        () -> assertEquals(new ClientFrame.Hello(2, null), FrameCodec.decode("{\"t\":\"hello\",\"v\":2}"),
            "v 2 is the node's to refuse with X_PROTOCOL_VERSION"),
        () -> assertEquals(new ClientFrame.Hello(0, null), FrameCodec.decode("{\"t\":\"hello\",\"v\":0}"), "v 0"),
        () -> assertEquals(new ClientFrame.Hello(-1, null), FrameCodec.decode("{\"t\":\"hello\",\"v\":-1}"), "v -1"));
  }

  @Test
  void theInputKeepsItsNumberTextAndIsLeftToTheLiveEngineToLimit() {
    ClientFrame.Sub sub = (ClientFrame.Sub) FrameCodec.decode(SUB + "{\"n\":1.50,\"e\":1E+3,\"big\":"
        + "123456789012345678901234567890,\"deep\":" + nested(40, "[", "]") + "}}");
    assertAll(
        () -> assertEquals(new JsonNumber("1.50"), sub.in().get("n"), "trailing zeros kept"),
        () -> assertEquals(new JsonNumber("1E+3"), sub.in().get("e"), "exponent spelled as sent"),
        () -> assertEquals(new JsonNumber("123456789012345678901234567890"), sub.in().get("big"), "no rounding"),
        () -> assertEquals("deep", assertThrows(InputInvalidException.class,
            () -> JsonLimits.INPUT_DEFAULTS.check(sub.in())).path().substring(0, 4),
            "40 levels pass the codec; the engine's limit of 32 refuses them"));
  }

  @Test
  void anInputNested10000LevelsDeepIsACodedInputRefusalCarryingTheSid() {
    String deepArrays = nested(10_000, "[", "]");
    String deepObjects = "{\"a\":".repeat(10_000) + "1" + "}".repeat(10_000);
    FrameException sidFirst = refusalOf(SUB + deepArrays + "}");
    FrameException sidLast = refusalOf("{\"t\":\"sub\",\"q\":\"feed\",\"in\":" + deepObjects + ",\"sid\":\"s9\"}");
    FrameException unclosed = refusalOf("{\"t\":\"sub\",\"in\":" + "[".repeat(10_000) + ",\"sid\":\"s9\"}");
    FrameException badSid = refusalOf("{\"t\":\"sub\",\"in\":" + deepArrays + ",\"sid\":\"" + "s".repeat(65) + "\"}");
    assertAll(
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, sidFirst.code(), "the input's fault"),
        () -> assertEquals("sub.in", sidFirst.field(), "names in"),
        () -> assertEquals("s1", sidFirst.sid(), "sid read before in"),
        () -> assertTrue(sidFirst.cause().startsWith("sub.in nests deeper than 256 levels"), sidFirst.cause()),
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, sidLast.code(), "objects too"),
        () -> assertEquals("s9", sidLast.sid(), "sid found after in by reading the frame without it"),
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, unclosed.code(), "an unclosed deep input"),
        () -> assertNull(unclosed.sid(), "no sid can be found past an input that never closes"),
        () -> assertNull(badSid.sid(), "only a valid sid is carried"),
        () -> assertEquals(new ServerFrame.Refuse("s1", null, "X_INPUT_INVALID", sidFirst.cause(), sidFirst.fix()),
            ServerFrame.Refuse.of(sidFirst), "the node refuses the sub by its sid"));
  }

  @Test
  void deepNestingOutsideTheInputIsACodedFrameRefusal() {
    FrameException inUnknownMember = refusalOf("{\"t\":\"hello\",\"v\":1,\"x\":" + nested(10_000, "[", "]") + "}");
    FrameException inCursor = refusalOf(SUB + "{},\"cursor\":" + "{\"a\":".repeat(10_000) + "}");
    FrameException inPresence = refusalOf("{\"t\":\"join\",\"topic\":\"org.acme\",\"presence\":"
        + nested(10_000, "[", "]") + "}");
    FrameException bare = refusalOf(nested(10_000, "[", "]"));
    FrameException bareObjects = refusalOf("{\"a\":".repeat(10_000) + "}".repeat(10_000));
    assertAll(
        () -> assertEquals(ErrorCode.X_FRAME_INVALID, inUnknownMember.code(), "an unknown member too deep"),
        () -> assertEquals("hello.x", inUnknownMember.field(), "names the member"),
        () -> assertEquals(ErrorCode.X_FRAME_INVALID, inCursor.code(), "a cursor too deep"),
        () -> assertEquals("sub.cursor", inCursor.field(), "names the cursor"),
        () -> assertEquals("s1", inCursor.sid(), "carries the sid read before it"),
        () -> assertEquals("org.acme", inPresence.topic(), "a join carries its topic"),
        () -> assertEquals(ErrorCode.X_FRAME_INVALID, bare.code(), "a bare deep array is no object"),
        () -> assertEquals(ErrorCode.X_FRAME_INVALID, bareObjects.code(), "a deep object outside in"),
        () -> assertNull(bareObjects.sid(), "no sid"));
  }

  @Test
  void nestingWithinTheBoundDecodes() {
    ClientFrame.Sub sub = (ClientFrame.Sub) FrameCodec.decode(SUB + "{\"a\":" + nested(254, "[", "]") + "}}");
    JsonValue v = sub.in().get("a");
    int depth = 0;
    while (v instanceof JsonArray a) {
      depth++;
      v = a.size() == 0 ? null : a.get(0);
    }
    int levels = depth;
    assertAll(
        () -> assertEquals(254, levels, "frame, in and 254 arrays make 256 levels: the bound itself"),
        () -> assertEquals(ErrorCode.X_INPUT_INVALID,
            refusalOf(SUB + "{\"a\":" + nested(255, "[", "]") + "}}").code(), "one level more is refused"));
  }

  @Test
  void aValidFrameOf200KibDecodes() {
    List<String> keys = new ArrayList<>();
    StringBuilder ids = new StringBuilder();
    for (int i = 0; ids.length() < 200 * 1024; i++) {
      String key = "0b7e7d8a-5a4f-4c1e-9a43-" + String.format("%012d", i);
      keys.add(key);
      ids.append(i == 0 ? "" : ",").append('"').append(key).append('"');
    }
    String text = SUB + "{\"orgId\":\"acme\"},\"cursor\":{\"qid\":\"feed:d94946c8447dc964@acme\",\"lsn\":"
        + "\"00000016b374d84800000003\",\"at\":1732880000000,\"ids\":[" + ids + "]}}";
    ClientFrame f = FrameCodec.decode(text);
    assertAll(
        () -> assertTrue(text.length() > 200 * 1024, "the frame is over 200 KiB"),
        () -> assertInstanceOf(ClientFrame.Sub.class, f, "a resume"),
        () -> assertEquals(new ResumeCursor("feed:d94946c8447dc964@acme", Position.parse("00000016b374d84800000003"),
            1_732_880_000_000L, keys), ((ClientFrame.Sub) f).cursor(), "every id read"));
  }

  @Test
  void aLongStringInTheInputDecodes() {
    String big = "é".repeat(200 * 1024);
    ClientFrame.Sub sub = (ClientFrame.Sub) FrameCodec.decode(SUB + "{\"text\":\"" + big + "\"}}");
    assertEquals(new JsonString(big), sub.in().get("text"), "200 Ki characters in one string");
  }
}
