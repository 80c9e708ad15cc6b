package io.runnel.replicator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.ColumnType;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.PgNumeric;
import io.runnel.dsl.Row;
import io.runnel.protocol.Lsn;
import io.runnel.protocol.Position;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.RunnelException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** LSNs, the bus envelope and the pgoutput decoder's refusals. */
class WireFormatTest {

  static final EntityRef POSTS = EntityRef.of("posts").key("id").columns(c -> c.int8("id").text("title").numeric("n"));

  @Test
  void lsnsParseAndSpellAsPostgresAndTheProtocolDo() {
    Lsn l = Lsn.parse("16/B374D848");
    assertAll(
        () -> assertEquals(0x16B374D848L, l.value()),
        () -> assertEquals("16/B374D848", l.toString()),
        () -> assertEquals("00000016b374d848", l.hex16()),
        () -> assertEquals("00000016b374d84800000001", l.row(1).toString()),
        () -> assertEquals("00000016b374d8480000002a", l.row(42).toString()),
        () -> assertEquals("00000016b374d84800000000", l.point().toString(),
            "a point sorts before every row of its commit"),
        () -> assertTrue(l.point().compareTo(l.row(1)) < 0),
        () -> assertEquals(l, l.row(7).lsn()),
        () -> assertEquals(l, Lsn.parse("00000016b374d848")),
        () -> assertTrue(Lsn.parse("FFFFFFFF/0").compareTo(Lsn.parse("1/0")) > 0, "compared unsigned"),
        () -> assertThrows(IllegalArgumentException.class, () -> l.row(0)),
        () -> assertThrows(IllegalArgumentException.class, () -> Lsn.parse("nope")),
        () -> assertThrows(IllegalArgumentException.class, () -> Position.parse("00000016B374D84800000001")));
  }

  @Test
  void aPositionOnAWalPageBoundaryMovesPastThatPagesHeaderAndNoFurther() {
    WalLayout layout = new WalLayout(8192, 16L * 1024 * 1024);
    assertAll(
        () -> assertEquals(Lsn.parse("0/1A2B3C8"), layout.recordStart(Lsn.parse("0/1A2B3C8")), "mid-page: itself"),
        () -> assertEquals(Lsn.parse("0/1A2C018"), layout.recordStart(Lsn.parse("0/1A2C000")), "a page: +24"),
        () -> assertEquals(Lsn.parse("0/2000028"), layout.recordStart(Lsn.parse("0/2000000")), "a segment: +40"),
        () -> assertEquals(Lsn.ZERO, layout.recordStart(Lsn.ZERO)),
        () -> assertThrows(IllegalArgumentException.class, () -> new WalLayout(8000, 16L * 1024 * 1024)),
        () -> assertThrows(IllegalArgumentException.class, () -> new WalLayout(8192, 4096)));
  }

  @Test
  void anEnvelopeRoundTripsWithStableFieldNames() {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("id", 9007199254740993L);
    values.put("title", null);
    values.put("n", PgNumeric.parse("0.10"));
    ChangeEvent e = new ChangeEvent.Update("public.posts", "posts", "9007199254740993", Row.of(values),
        Row.of(Map.of("id", 1L)), List.of("body"), false, Position.parse("00000016b374d84800000001"), 4_000_000_000L,
        true, 1_732_880_000_000L, "0123456789abcdef0123456789abcdef", "abcd", 7);
    Map<String, ColumnType> types = new LinkedHashMap<>();
    POSTS.columns().forEach(c -> types.put(c.name(), c.type()));
    byte[] bytes = ChangeEnvelope.encode(e, types);
    JsonObject json = (JsonObject) Json.parse(new String(bytes, StandardCharsets.UTF_8));
    assertAll(
        () -> assertEquals(
            List.of("v", "kind", "table", "entity", "op", "key", "row", "old", "omitted", "lsn", "xid", "last",
            "commitTime", "write", "producer", "seq", "source"), List.copyOf(json.members().keySet())),
        () -> assertEquals("{\"id\":\"9007199254740993\",\"title\":null,\"n\":\"0.10\"}", Json.write(json.get("row")),
            "values as docs/protocol.md spells them"),
        () -> assertEquals("update", json.get("op").toString().replace("\"", "")),
        () -> assertEquals(e, ChangeEnvelope.decode(bytes, name -> "posts".equals(name) ? POSTS : null)));
  }

  @Test
  void anOversizedChangeKeepsOnlyItsKeyNamesEveryOtherColumnAndRoundTrips() {
    ChangeEvent.Update whole = new ChangeEvent.Update("public.posts", "posts", "7",
        Row.of(Map.of("id", 7L, "title", "long text", "n", PgNumeric.parse("1"))),
        Row.of(Map.of("id", 6L)), List.of(), false, Position.parse("00000016b374d84800000002"), 5, false, 1L, null,
        "abcd", 8);
    ChangeEvent.Update cut = whole.keyOnly(List.of("id"), List.of("id", "title", "n"));
    Map<String, ColumnType> types = new LinkedHashMap<>();
    POSTS.columns().forEach(c -> types.put(c.name(), c.type()));
    byte[] bytes = ChangeEnvelope.encode(cut, types);
    JsonObject json = (JsonObject) Json.parse(new String(bytes, StandardCharsets.UTF_8));
    assertAll(
        () -> assertEquals(Row.of(Map.of("id", 7L)), cut.row()),
        () -> assertEquals(Row.of(Map.of("id", 6L)), cut.old()),
        () -> assertEquals(List.of("title", "n"), cut.omitted(), "every column but the key's, in table order"),
        () -> assertTrue(cut.oversized()),
        () -> assertEquals(List.of(whole.lsn(), whole.seq(), whole.key()), List.of(cut.lsn(), cut.seq(), cut.key())),
        () -> assertEquals("true", Json.write(json.get("oversized"))),
        () -> assertEquals(List.of("v", "kind", "table", "entity", "op", "key", "row", "old", "omitted", "oversized",
            "lsn", "xid", "last", "commitTime", "write", "producer", "seq", "source"),
            List.copyOf(json.members().keySet())),
        () -> assertEquals(cut, ChangeEnvelope.decode(bytes, name -> "posts".equals(name) ? POSTS : null)),
        () -> assertThrows(IllegalArgumentException.class, () -> new ChangeEvent.Truncate("public.posts", "posts",
            Position.parse("00000016b374d84800000001"), 5, true, 1L, null, "abcd", 9)
            .keyOnly(List.of("id"), List.of("id"))));
  }

  @Test
  void aMalformedEnvelopeIsACodedRefusal() {
    assertAll(
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, assertThrows(RunnelException.class,
            () -> ChangeEnvelope.decode("not json".getBytes(StandardCharsets.UTF_8), n -> null)).code()),
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, assertThrows(RunnelException.class,
            () -> ChangeEnvelope.decode("{\"v\":2}".getBytes(StandardCharsets.UTF_8), n -> null)).code()),
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, assertThrows(RunnelException.class,
            () -> ChangeEnvelope.decode("{\"v\":1,\"table\":\"t\"}".getBytes(StandardCharsets.UTF_8), n -> null))
                .code()));
  }

  @Test
  void anEnvelopeWhosePartsDoNotFitItsOpIsACodedRefusal() {
    String head = "{\"v\":1,\"kind\":\"change\",\"table\":\"public.posts\",\"entity\":null,\"op\":";
    String tail = ",\"lsn\":\"00000016b374d84800000001\",\"xid\":5,\"last\":true,\"commitTime\":1,"
        + "\"write\":null,\"producer\":\"abcd\",\"seq\":1,\"source\":\"replicator\"}";
    Map<String, String> misfits = new LinkedHashMap<>();
    misfits.put("a delete with a row", "\"delete\",\"key\":\"1\",\"row\":{\"id\":1},\"old\":{\"id\":1},\"omitted\":[]");
    misfits.put("a delete without an old row", "\"delete\",\"key\":\"1\",\"row\":null,\"old\":null,\"omitted\":[]");
    misfits.put("an insert with an old row",
        "\"insert\",\"key\":\"1\",\"row\":{\"id\":1},\"old\":{\"id\":1},\"omitted\":[]");
    misfits.put("an update without a row", "\"update\",\"key\":\"1\",\"row\":null,\"old\":null,\"omitted\":[]");
    misfits.put("a truncate with a key", "\"truncate\",\"key\":\"1\",\"row\":null,\"old\":null,\"omitted\":[]");
    misfits.put("an oversized truncate",
        "\"truncate\",\"key\":null,\"row\":null,\"old\":null,\"omitted\":[],\"oversized\":true");
    String truncate = "\"truncate\",\"key\":null,\"row\":null,\"old\":null,\"omitted\":[]";
    assertAll(misfits.entrySet().stream().map(m -> () -> assertEquals(ErrorCode.X_INPUT_INVALID,
        assertThrows(RunnelException.class, () -> ChangeEnvelope.decode(
            (head + m.getValue() + tail).getBytes(StandardCharsets.UTF_8), n -> null), m.getKey()).code())));
    assertEquals(new ChangeEvent.Truncate("public.posts", null, Position.parse("00000016b374d84800000001"), 5, true,
        1L, null, "abcd", 1),
        ChangeEnvelope.decode((head + truncate + tail).getBytes(StandardCharsets.UTF_8), n -> null),
        "a truncate as the replicator writes it");
  }

  @Test
  void theDecoderRefusesWhatPgoutputMustNotSendWithTheFix() {
    ReplicationException streamed = assertThrows(ReplicationException.class,
        () -> PgOutputDecoder.decode(ByteBuffer.wrap(new byte[] {'S', 0, 0, 0, 1, 1})));
    ReplicationException truncated = assertThrows(ReplicationException.class,
        () -> PgOutputDecoder.decode(ByteBuffer.wrap(new byte[] {'B', 0, 0})));
    assertAll(
        () -> assertEquals(ErrorCode.X_REPLICATION_FAILED, streamed.code()),
        () -> assertTrue(streamed.fix().contains("pgoutput"), streamed.fix()),
        () -> assertTrue(truncated.cause().contains("truncated"), truncated.cause()));
  }

  @Test
  void aBeginAndARelationDecode() {
    ByteBuffer b = ByteBuffer.allocate(64);
    b.put((byte) 'B').putLong(0x16B374D848L).putLong(123L).putInt(-5);
    b.flip();
    WalMessage.Begin begin = (WalMessage.Begin) PgOutputDecoder.decode(b);
    ByteBuffer r = ByteBuffer.allocate(64);
    r.put((byte) 'R').putInt(42).put(new byte[] {0}).put("t".getBytes(StandardCharsets.UTF_8)).put((byte) 0)
        .put((byte) 'f').putShort((short) 1).put((byte) 1).put("id".getBytes(StandardCharsets.UTF_8)).put((byte) 0)
        .putInt(23).putInt(-1);
    r.flip();
    WalMessage.Relation rel = (WalMessage.Relation) PgOutputDecoder.decode(r);
    assertAll(
        () -> assertEquals(Lsn.parse("16/B374D848"), begin.finalLsn()),
        () -> assertEquals(4294967291L, Integer.toUnsignedLong(begin.xid()), "xid is unsigned"),
        () -> assertEquals("pg_catalog", rel.namespace(), "an empty namespace is pg_catalog"),
        () -> assertEquals('f', rel.replicaIdentity()),
        () -> assertEquals(List.of(new WalMessage.RelationColumn(true, "id", 23, -1)), rel.columns()));
  }
}
