package io.runnel.replicator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.protocol.Lsn;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bus envelope's two kinds: the position heartbeat's golden bytes, the change it tells apart, and refusals. */
class BusEnvelopeTest {

  static final String GOLDEN_POSITION =
      "{\"v\":1,\"kind\":\"position\",\"lsn\":\"00000016b374d8a000000000\","
          + "\"producer\":\"5f0c2a9e81d4b3a7\",\"seq\":43}";

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static BusMessage decode(String json) {
    return BusEnvelope.decode(utf8(json), name -> null);
  }

  @Test
  void aPositionHeartbeatEncodesToItsGoldenBytesAndDecodesBack() {
    PositionEvent p = new PositionEvent(Lsn.parse("16/B374D8A0"), "5f0c2a9e81d4b3a7", 43, 0);
    assertAll(
        () -> assertEquals(GOLDEN_POSITION, new String(BusEnvelope.encode(p), StandardCharsets.UTF_8)),
        () -> assertEquals(p, decode(GOLDEN_POSITION)),
        () -> assertEquals("00000016b374d8a000000000", p.point().toString()),
        () -> assertEquals(43, switch (decode(GOLDEN_POSITION)) {
          case PositionEvent position -> position.seq();
          case ChangeEvent change -> -1L;
        }));
  }

  @Test
  void aPositionHeartbeatCarriesPostgresTimeAsAtAndLeavesItOutWhenUnknown() {
    PositionEvent timed = new PositionEvent(Lsn.parse("16/B374D8A0"), "5f0c2a9e81d4b3a7", 44, 1_764_566_400_123L);
    String json = new String(BusEnvelope.encode(timed), StandardCharsets.UTF_8);
    assertAll(
        () -> assertEquals(GOLDEN_POSITION.replace(",\"seq\":43}", ",\"seq\":44,\"at\":1764566400123}"), json),
        () -> assertEquals(timed, decode(json)),
        () -> assertEquals(0, assertInstanceOf(PositionEvent.class, decode(GOLDEN_POSITION)).at(),
            "an envelope without at (an older replicator's) is a position of unknown time"),
        () -> assertThrows(InputInvalidException.class,
            () -> decode(GOLDEN_POSITION.replace("}", ",\"at\":\"soon\"}"))));
  }

  @Test
  void aChangeFromAnyoneButTheReplicatorIsRefused() {
    String change = "{\"v\":1,\"table\":\"public.t\",\"entity\":null,\"op\":\"insert\",\"key\":\"1\","
        + "\"row\":{\"id\":1},\"old\":null,\"omitted\":[],\"lsn\":\"00000016b374d84800000001\",\"xid\":7,"
        + "\"last\":true,\"commitTime\":1,\"write\":null,\"producer\":\"p\",\"seq\":2,\"source\":\"publisher\"}";
    InputInvalidException e = assertThrows(InputInvalidException.class,
        () -> decode(change));
    assertTrue(e.cause().contains("source 'publisher'"), e.cause());
  }

  @Test
  void aChangeEnvelopeWithOrWithoutKindDecodesAsAChange() {
    String legacy = "{\"v\":1,\"table\":\"public.t\",\"entity\":null,\"op\":\"insert\",\"key\":\"1\","
        + "\"row\":{\"id\":1},"
        + "\"old\":null,\"omitted\":[],\"lsn\":\"00000016b374d84800000001\",\"xid\":7,\"last\":true,"
        + "\"commitTime\":1,\"write\":null,\"producer\":\"p\",\"seq\":2,\"source\":\"replicator\"}";
    String tagged = legacy.replace("{\"v\":1,", "{\"v\":1,\"kind\":\"change\",");
    ChangeEvent before = assertInstanceOf(ChangeEvent.class, decode(legacy), "written before kinds existed");
    assertAll(
        () -> assertEquals(before, decode(tagged)),
        () -> assertEquals("00000016b374d84800000001", before.lsn().toString()),
        () -> assertEquals(2, before.seq()));
  }

  @Test
  void aMalformedOrUnknownEnvelopeIsAnInputErrorNamingTheProblem() {
    List<String> bad = List.of(
        "not json",
        "{\"v\":2,\"kind\":\"position\",\"lsn\":\"00000016b374d8a000000000\",\"producer\":\"p\",\"seq\":1}",
        "{\"v\":1,\"kind\":\"wave\"}",
        "{\"v\":1,\"kind\":7}",
        "{\"v\":1,\"kind\":\"position\",\"lsn\":\"00000016b374d8a000000001\",\"producer\":\"p\",\"seq\":1}",
        "{\"v\":1,\"kind\":\"position\",\"lsn\":\"00000016B374D8A000000000\",\"producer\":\"p\",\"seq\":1}",
        "{\"v\":1,\"kind\":\"position\",\"lsn\":\"000000000000000000000000\",\"producer\":\"p\",\"seq\":1}",
        "{\"v\":1,\"kind\":\"position\",\"lsn\":\"00000016b374d8a000000000\",\"seq\":1}",
        "{\"v\":1,\"kind\":\"position\",\"lsn\":\"00000016b374d8a000000000\",\"producer\":\"p\",\"seq\":0}",
        "{\"v\":1,\"kind\":\"position\",\"lsn\":\"00000016b374d8a000000000\",\"producer\":\"p\",\"seq\":\"1\"}",
        "{\"v\":1,\"kind\":\"change\",\"table\":\"t\"}",
        "{\"v\":1,\"table\":\"public.t\",\"op\":\"insert\",\"row\":[1],\"lsn\":\"00000016b374d84800000001\","
            + "\"producer\":\"p\",\"seq\":1,\"source\":\"replicator\"}");
    for (String json : bad) {
      InputInvalidException e = assertThrows(InputInvalidException.class, () -> decode(json), json);
      assertAll(json,
          () -> assertEquals(ErrorCode.X_INPUT_INVALID, e.code()),
          () -> assertEquals("", e.path()));
    }
  }

  @Test
  void aPositionIsNotAChangeToTheChangeOnlyDecoder() {
    InputInvalidException e = assertThrows(InputInvalidException.class,
        () -> ChangeEnvelope.decode(utf8(GOLDEN_POSITION), name -> null));
    assertEquals(ErrorCode.X_INPUT_INVALID, e.code());
  }

  @Test
  void aPositionNamesAWalPositionAProducerAndASeqFromOne() {
    assertAll(
        () -> assertThrows(IllegalArgumentException.class, () -> new PositionEvent(Lsn.ZERO, "p", 1, 0)),
        () -> assertThrows(IllegalArgumentException.class, () -> new PositionEvent(Lsn.parse("1/0"), "", 1, 0)),
        () -> assertThrows(IllegalArgumentException.class, () -> new PositionEvent(Lsn.parse("1/0"), "p", 0, 0)),
        () -> assertThrows(IllegalArgumentException.class, () -> new PositionEvent(Lsn.parse("1/0"), "p", 1, -1)),
        () -> assertThrows(NullPointerException.class, () -> new PositionEvent(null, "p", 1, 0)));
  }
}
