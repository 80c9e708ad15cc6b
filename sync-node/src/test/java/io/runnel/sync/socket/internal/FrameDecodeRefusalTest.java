package io.runnel.sync.socket.internal;

import static io.runnel.sync.socket.internal.FrameVectors.refusalOf;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.protocol.FrameException;
import io.runnel.protocol.ServerFrame;
import io.runnel.wire.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Every way a client frame is refused: always a coded {@link FrameException} naming the field, never a crash. */
class FrameDecodeRefusalTest {

  private static final String LSN = "00000016b374d84800000003";

  /** Checks that {@code text} is refused as {@code X_FRAME_INVALID} at {@code field}, carrying {@code sid}. */
  private static Executable frameInvalid(String text, @Nullable String field, @Nullable String sid) {
    return () -> {
      FrameException e = refusalOf(text);
      assertAll(text,
          () -> assertEquals(ErrorCode.X_FRAME_INVALID, e.code(), "code of " + text),
          () -> assertEquals(field, e.field(), "field of " + text + " (cause: " + e.cause() + ")"),
          () -> assertEquals(sid, e.sid(), "sid of " + text),
          () -> assertTrue(field == null || e.cause().startsWith(field + " "), "the cause names " + field + ": "
              + e.cause()),
          () -> assertTrue(e.fix().startsWith("Send"), "the fix says what to send: " + e.fix()));
    };
  }

  @Test
  void textThatIsNotOneJsonObjectIsRefusedAsAWhole() {
    assertAll(
        frameInvalid("", null, null),
        frameInvalid("   ", null, null),
        frameInvalid("{\"t\":\"hello\",\"v\":1", null, null),
        frameInvalid("{\"t\":\"hello\" \"v\":1}", null, null),
        frameInvalid("{'t':'hello'}", null, null),
        frameInvalid("{\"t\":\"hello\",\"v\":01}", null, null),
        frameInvalid("{\"t\":\"hello\",\"v\":NaN}", null, null),
        frameInvalid("[{\"t\":\"hello\",\"v\":1}]", null, null),
        frameInvalid("\"hello\"", null, null),
        frameInvalid("42", null, null),
        frameInvalid("null", null, null),
        frameInvalid("{\"t\":\"hello\",\"v\":1} {\"t\":\"hello\",\"v\":1}", null, null),
        frameInvalid("{\"t\":\"hello\",\"v\":1}x", null, null),
        frameInvalid("{\"t\":\"unsub\",\"sid\":\"a\",\"sid\":\"b\"}", null, null),
        frameInvalid("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"feed\",\"in\":{\"a\":1,\"a\":2}}", null, null),
        frameInvalid("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"feed\",\"in\":{\"a\":\"\\ud800\"}}", null, null),
        frameInvalid("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"feed\",\"in\":{\"\\udc00\":1}}", null, null),
        frameInvalid("{\"t\":\"hello\",\"v\":1}\uFFFD", null, null),
        frameInvalid("{\"t\":\"hello\",\"v\":1,\"build\":\"\uFFFD}", null, null));
  }

  @Test
  void aMissingOrUnknownKindIsRefusedNamingT() {
    assertAll(
        frameInvalid("{}", "t", null),
        frameInvalid("{\"v\":1}", "t", null),
        frameInvalid("{\"t\":1}", "t", null),
        frameInvalid("{\"t\":null}", "t", null),
        frameInvalid("{\"t\":\"subscribe\",\"sid\":\"s1\"}", "t", null),
        frameInvalid("{\"t\":\"Hello\",\"v\":1}", "t", null),
        frameInvalid("{\"t\":\"snapshot\",\"sid\":\"s1\"}", "t", null),
        () -> assertEquals("t names no client frame kind: 'subscribe'.",
            refusalOf("{\"t\":\"subscribe\"}").cause(), "the unknown kind is echoed"),
        () -> assertTrue(refusalOf("{\"t\":\"" + "x".repeat(10_000) + "\"}").cause().length() < 100,
            "a hostile kind is cut short in the cause"));
  }

  @Test
  void subNeedsASidOf1To64CharactersAQueryNameAndAnInputObject() {
    String sid65 = "s".repeat(65);
    assertAll(
        frameInvalid("{\"t\":\"sub\",\"q\":\"feed\",\"in\":{}}", "sub.sid", null),
        frameInvalid("{\"t\":\"sub\",\"sid\":\"" + sid65 + "\",\"q\":\"feed\",\"in\":{}}", "sub.sid", null),
        frameInvalid("{\"t\":\"sub\",\"sid\":\"\",\"q\":\"feed\",\"in\":{}}", "sub.sid", null),
        frameInvalid("{\"t\":\"sub\",\"sid\":7,\"q\":\"feed\",\"in\":{}}", "sub.sid", null),
        frameInvalid("{\"t\":\"sub\",\"sid\":null,\"q\":\"feed\",\"in\":{}}", "sub.sid", null),
        frameInvalid("{\"t\":\"sub\",\"sid\":\"s1\",\"in\":{}}", "sub.q", "s1"),
        frameInvalid("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"\",\"in\":{}}", "sub.q", "s1"),
        frameInvalid("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":[\"feed\"],\"in\":{}}", "sub.q", "s1"),
        frameInvalid("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"feed\"}", "sub.in", "s1"),
        frameInvalid("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"feed\",\"in\":null}", "sub.in", "s1"),
        frameInvalid("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"feed\",\"in\":[]}", "sub.in", "s1"),
        frameInvalid("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"feed\",\"in\":\"acme\"}", "sub.in", "s1"),
        () -> assertEquals("sub.sid must be a string of 1–64 characters, but it is the string '"
            + "s".repeat(32) + "…' of 65 characters.",
            refusalOf("{\"t\":\"sub\",\"sid\":\"" + sid65 + "\",\"q\":\"feed\",\"in\":{}}").cause(),
            "the cause names the field, the rule and what came"),
        () -> assertEquals("sub.sid must be a string of 1–64 characters, but it is the number 7.",
            refusalOf("{\"t\":\"sub\",\"sid\":7,\"q\":\"feed\",\"in\":{}}").cause(), "a wrong type is named"),
        () -> assertEquals("sub.in must be an object (the query's input), but it is an array.",
            refusalOf("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"feed\",\"in\":[]}").cause(), "in is an object"));
  }

  @Test
  void aResumeCursorNeedsItsQidLsnAtAndIds() {
    String head = "{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"feed\",\"in\":{},\"cursor\":";
    String qid = "\"qid\":\"feed:d94946c8447dc964@acme\"";
    String ids = "\"ids\":[\"1\"]";
    List<Executable> checks = new ArrayList<>();
    for (String badLsn : List.of("\"00000016B374D84800000003\"", "\"00000016b374d848\"", "\"16/B374D848\"",
        "\"00000016b374d8480000000g\"", "\"00000016b374d848000000030\"", "3", "null")) {
      checks.add(frameInvalid(head + "{" + qid + ",\"lsn\":" + badLsn + ",\"at\":1," + ids + "}}", "sub.cursor.lsn",
          "s1"));
    }
    checks.add(frameInvalid(head + "{" + qid + ",\"at\":1," + ids + "}}", "sub.cursor.lsn", "s1"));
    checks.add(frameInvalid(head + "[]}", "sub.cursor", "s1"));
    checks.add(frameInvalid(head + "\"" + LSN + "\"}", "sub.cursor", "s1"));
    checks.add(frameInvalid(head + "{\"lsn\":\"" + LSN + "\",\"at\":1," + ids + "}}", "sub.cursor.qid", "s1"));
    checks.add(frameInvalid(head + "{" + qid + ",\"lsn\":\"" + LSN + "\"," + ids + "}}", "sub.cursor.at", "s1"));
    checks.add(frameInvalid(head + "{" + qid + ",\"lsn\":\"" + LSN + "\",\"at\":-1," + ids + "}}", "sub.cursor.at",
        "s1"));
    checks.add(frameInvalid(head + "{" + qid + ",\"lsn\":\"" + LSN + "\",\"at\":1.5," + ids + "}}", "sub.cursor.at",
        "s1"));
    checks.add(frameInvalid(head + "{" + qid + ",\"lsn\":\"" + LSN + "\",\"at\":\"1\"," + ids + "}}",
        "sub.cursor.at", "s1"));
    checks.add(frameInvalid(head + "{" + qid + ",\"lsn\":\"" + LSN + "\",\"at\":99999999999999999999," + ids + "}}",
        "sub.cursor.at", "s1"));
    checks.add(frameInvalid(head + "{" + qid + ",\"lsn\":\"" + LSN + "\",\"at\":1}}", "sub.cursor.ids", "s1"));
    checks.add(frameInvalid(head + "{" + qid + ",\"lsn\":\"" + LSN + "\",\"at\":1,\"ids\":\"1\"}}", "sub.cursor.ids",
        "s1"));
    checks.add(frameInvalid(head + "{" + qid + ",\"lsn\":\"" + LSN + "\",\"at\":1,\"ids\":[\"1\",2]}}",
        "sub.cursor.ids[1]", "s1"));
    assertAll(checks);
  }

  @Test
  void unsubJoinLeaveAndHelloNameTheirFaultyFieldAndCarryWhatTheyCouldRead() {
    assertAll(
        frameInvalid("{\"t\":\"unsub\"}", "unsub.sid", null),
        frameInvalid("{\"t\":\"unsub\",\"sid\":\"" + "u".repeat(65) + "\"}", "unsub.sid", null),
        frameInvalid("{\"t\":\"join\"}", "join.topic", null),
        frameInvalid("{\"t\":\"join\",\"topic\":\"\"}", "join.topic", null),
        frameInvalid("{\"t\":\"leave\",\"topic\":3}", "leave.topic", null),
        frameInvalid("{\"t\":\"hello\"}", "hello.v", null),
        frameInvalid("{\"t\":\"hello\",\"v\":\"1\"}", "hello.v", null),
        frameInvalid("{\"t\":\"hello\",\"v\":1.5}", "hello.v", null),
        frameInvalid("{\"t\":\"hello\",\"v\":1e0}", "hello.v", null),
        frameInvalid("{\"t\":\"hello\",\"v\":4294967296}", "hello.v", null),
        frameInvalid("{\"t\":\"hello\",\"v\":1,\"build\":7}", "hello.build", null),
        () -> {
          FrameException e = refusalOf("{\"t\":\"join\",\"topic\":\"org.acme\",\"presence\":\"Ada\"}");
          assertAll(
              () -> assertEquals("join.presence", e.field(), "the meta is an object"),
              () -> assertEquals("org.acme", e.topic(), "the join can be refused by topic"),
              () -> assertNull(e.sid(), "a join has no sid"),
              () -> assertEquals(new ServerFrame.Refuse(null, "org.acme", "X_FRAME_INVALID", e.cause(), e.fix()),
                  ServerFrame.Refuse.of(e), "the refusal names the topic"));
        },
        () -> assertEquals("join.cursor.seq",
            refusalOf("{\"t\":\"join\",\"topic\":\"org.acme\",\"cursor\":{\"epoch\":\"e1\",\"seq\":-1}}").field(),
            "a channel cursor's seq is at least 0"),
        () -> assertEquals("join.cursor.epoch",
            refusalOf("{\"t\":\"join\",\"topic\":\"org.acme\",\"cursor\":{\"seq\":1}}").field(),
            "a channel cursor has an epoch"),
        () -> assertEquals(new ServerFrame.Refuse("s1", null, "X_FRAME_INVALID",
                "sub.q must be a non-empty string, but it is missing.",
                "Send sub.q as a non-empty string (docs/protocol.md, \"Socket frames\")."),
            ServerFrame.Refuse.of(refusalOf("{\"t\":\"sub\",\"sid\":\"s1\",\"in\":{}}")),
            "a sub refused after its sid was read is refused by sid"));
  }
}
