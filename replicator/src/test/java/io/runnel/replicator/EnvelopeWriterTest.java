package io.runnel.replicator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.ColumnType;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.ValueInvalidException;
import io.runnel.dsl.server.Entity;
import io.runnel.protocol.Lsn;
import io.runnel.protocol.Position;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * The envelope written straight from pgoutput's text ({@link EnvelopeWriter}) is the typed encoder's
 * ({@link ChangeEnvelope#encode} of {@link WalChange#event()}) byte for byte, for random rows of every column type:
 * canonical text (what PostgreSQL sends, written as it is), other text the types accept (which must take the typed
 * path), and text they refuse (which must fail the same way).
 */
class EnvelopeWriterTest {

  /** Every column type once, a composite key, and a column the entity does not declare (server-only). */
  private static final EntityRef ALL = EntityRef.of("all_types").key("i4", "t").columns(c -> {
    for (ColumnType t : ColumnType.ALL) {
      c.column(name(t), t);
    }
  });
  private static final EntityRef ONE_KEY = EntityRef.of("one_key").key("i8").columns(c -> {
    for (ColumnType t : ColumnType.ALL) {
      c.column(name(t), t);
    }
  });

  private static final EntityRef TEXT_KEY = EntityRef.of("text_key").key("t").columns(c -> {
    for (ColumnType t : ColumnType.ALL) {
      c.column(name(t), t);
    }
  });
  private static final EntityRef UUID_KEY = EntityRef.of("uuid_key").key("uuid").columns(c -> {
    for (ColumnType t : ColumnType.ALL) {
      c.column(name(t), t);
    }
  });
  private static final EntityRef NUMERIC_KEY = EntityRef.of("numeric_key").key("numeric").columns(c -> {
    for (ColumnType t : ColumnType.ALL) {
      c.column(name(t), t);
    }
  });

  private static String name(ColumnType t) {
    return switch (t.sqlName()) {
      case "text[]" -> "ta";
      case "int8[]" -> "ia";
      case "timestamptz" -> "tz";
      case "timestamp" -> "ts";
      case "varchar" -> "vc";
      case "int2" -> "i2";
      case "int4" -> "i4";
      case "int8" -> "i8";
      case "text" -> "t";
      default -> t.sqlName();
    };
  }

  private static final Map<String, Integer> OIDS = Map.ofEntries(Map.entry("bool", 16), Map.entry("bytea", 17),
      Map.entry("int8", 20), Map.entry("int2", 21), Map.entry("int4", 23), Map.entry("text", 25),
      Map.entry("json", 114), Map.entry("float4", 700), Map.entry("float8", 701), Map.entry("text[]", 1009),
      Map.entry("int8[]", 1016), Map.entry("varchar", 1043), Map.entry("date", 1082),
      Map.entry("timestamp", 1114), Map.entry("timestamptz", 1184), Map.entry("numeric", 1700),
      Map.entry("uuid", 2950), Map.entry("jsonb", 3802));

  /** The relation pgoutput would describe: every type, then a server-only column, keys flagged on i4 and t. */
  private static WalMessage.Relation relation(String table) {
    List<WalMessage.RelationColumn> columns = new ArrayList<>();
    for (ColumnType t : ColumnType.ALL) {
      String n = name(t);
      columns.add(new WalMessage.RelationColumn(n.equals("i4") || n.equals("t"), n, OIDS.get(t.sqlName()), -1));
    }
    columns.add(new WalMessage.RelationColumn(false, "secret", 25, -1));
    return new WalMessage.Relation(16384, "public", table, 'd', List.copyOf(columns));
  }

  private static final List<TableSchema> SCHEMAS = List.of(
      new TableSchema(relation("all_types"), Entity.of(ALL)),
      new TableSchema(relation("one_key"), Entity.of(ONE_KEY)),
      new TableSchema(relation("text_key"), Entity.of(TEXT_KEY)),
      new TableSchema(relation("uuid_key"), Entity.of(UUID_KEY)),
      new TableSchema(relation("numeric_key"), Entity.of(NUMERIC_KEY)),
      new TableSchema(relation("undeclared"), null));

  @Test
  void randomRowsOfEveryTypeEncodeAsTheTypedEncoderDoesByteForByte() {
    EnvelopeWriter writer = new EnvelopeWriter();
    int compared = 0;
    int refused = 0;
    for (long seed = 1; seed <= 6_000; seed++) {
      Random r = new Random(seed);
      TableSchema schema = SCHEMAS.get(r.nextInt(SCHEMAS.size()));
      WalChange change = change(r, schema, seed);
      String typed;
      try {
        typed = new String(ChangeEnvelope.encode(change.event(), schema.columnTypes()), StandardCharsets.UTF_8);
      } catch (RuntimeException e) {
        RuntimeException fast = null;
        try {
          writer.encode(change);
        } catch (RuntimeException f) {
          fast = f;
        }
        assertEquals(e.getClass(), fast == null ? null : fast.getClass(), "seed " + seed + ": a value the typed"
            + " path refuses (" + e.getMessage() + ") is refused by the writer too");
        assertEquals(e.getMessage(), fast.getMessage(), "seed " + seed + ": the same refusal");
        refused++;
        continue;
      }
      String fast = new String(writer.encode(change), StandardCharsets.UTF_8);
      assertEquals(typed, fast, "seed " + seed + ": the same envelope, byte for byte");
      String expectedKey;
      String key;
      try {
        expectedKey = change.tuple() != null ? schema.keyOf(schema.read(change.tuple(), false).row()) : null;
        if (expectedKey == null && change.oldTuple() != null) {
          expectedKey = schema.keyOf(schema.read(change.oldTuple(), change.oldKeyOnly()).row());
        }
      } catch (ValueInvalidException e) {
        expectedKey = "refused";
      }
      try {
        key = change.tuple() != null ? schema.keyOf(change.tuple()) : null;
        if (key == null && change.oldTuple() != null) {
          key = schema.keyOf(change.oldTuple());
        }
      } catch (ValueInvalidException e) {
        key = "refused";
      }
      assertEquals(expectedKey, key, "seed " + seed + ": the key read from the text is the typed row's");
      compared++;
    }
    int c = compared;
    int f = refused;
    assertAll(
        () -> assertTrue(c > 3_000, "most random changes are valid, so the comparison covers them: " + c),
        () -> assertTrue(f > 50, "some carry a refused value, so refusals are compared too: " + f));
  }

  @Test
  void theCanonicalFormsAreExactlyTheOnesWrittenAsTheyAre() {
    assertAll(
        () -> assertTrue(TextValues.canonicalInteger("-9223372036854775808", Long.MIN_VALUE, Long.MAX_VALUE)),
        () -> assertTrue(TextValues.canonicalInteger("9223372036854775807", Long.MIN_VALUE, Long.MAX_VALUE)),
        () -> assertFalse(TextValues.canonicalInteger("9223372036854775808", Long.MIN_VALUE, Long.MAX_VALUE),
            "past int8: the typed path refuses it"),
        () -> assertFalse(TextValues.canonicalInteger("-9223372036854775809", Long.MIN_VALUE, Long.MAX_VALUE)),
        () -> assertFalse(TextValues.canonicalInteger("32768", Short.MIN_VALUE, Short.MAX_VALUE), "past int2"),
        () -> assertFalse(TextValues.canonicalInteger("-0", Long.MIN_VALUE, Long.MAX_VALUE), "typed gives 0"),
        () -> assertFalse(TextValues.canonicalInteger("007", Long.MIN_VALUE, Long.MAX_VALUE), "typed gives 7"),
        () -> assertFalse(TextValues.canonicalInteger("+7", Long.MIN_VALUE, Long.MAX_VALUE), "typed gives 7"),
        () -> assertFalse(TextValues.canonicalInteger("", Long.MIN_VALUE, Long.MAX_VALUE)),
        () -> assertFalse(TextValues.canonicalInteger("-", Long.MIN_VALUE, Long.MAX_VALUE)),
        () -> assertTrue(TextValues.canonicalInteger("0", 0, 0)),
        () -> assertTrue(TextValues.canonicalNumeric("-0.5")),
        () -> assertTrue(TextValues.canonicalNumeric("0.00"), "a zero keeps its scale"),
        () -> assertFalse(TextValues.canonicalNumeric("-0.00"), "typed drops a zero's sign"),
        () -> assertFalse(TextValues.canonicalNumeric("1e5"), "typed writes 100000"),
        () -> assertFalse(TextValues.canonicalNumeric("01.5")),
        () -> assertFalse(TextValues.canonicalNumeric(".5")),
        () -> assertFalse(TextValues.canonicalNumeric("5.")),
        () -> assertFalse(TextValues.canonicalNumeric("NaN"), "typed, though the same text: no special cases"),
        () -> assertTrue(TextValues.canonicalUuid("0b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69")),
        () -> assertFalse(TextValues.canonicalUuid("0B7E7D8A-5A4F-4C1E-9A43-1F2D3C4B5A69"), "typed lower-cases"),
        () -> assertFalse(TextValues.canonicalUuid("0b7e7d8a5a4f4c1e9a431f2d3c4b5a69"), "typed adds hyphens"),
        () -> assertFalse(TextValues.plainText("a\0b"), "typed refuses NUL"),
        () -> assertEquals("2026-11-30T01:55:00.123Z", TextValues.isoTimestamp("2026-11-30 01:55:00.123+00", true)),
        () -> assertEquals("2024-02-29T00:00:00", TextValues.isoTimestamp("2024-02-29 00:00:00", false)),
        () -> assertEquals(null, TextValues.isoTimestamp("2024-02-29 13:45:00+05:30", true), "typed converts"),
        () -> assertEquals(null, TextValues.isoTimestamp("2023-02-29 00:00:00+00", true), "no such day"),
        () -> assertEquals(null, TextValues.isoTimestamp("2024-02-29 00:00:00.50+00", true), "typed drops the 0"),
        () -> assertEquals(null, TextValues.isoTimestamp("0044-03-15 12:00:00+00 BC", true)),
        () -> assertEquals(null, TextValues.isoTimestamp("2024-02-29 24:00:00+00", true)),
        () -> assertEquals(List.of("TEXT", "TEXT", "UUID", "INT_NUMBER", "INT_NUMBER", "INT8_STRING", "TYPED", "TYPED",
            "NUMERIC", "BOOL", "TYPED", "TIMESTAMP", "TIMESTAMPTZ", "TYPED", "TYPED", "TYPED", "TYPED", "TYPED"),
            ColumnType.ALL.stream().map(t -> TextValues.kindOf(t).name()).toList(),
            "the random rows above reach a fast path for each of these types, the typed path for the rest"));
  }

  @Test
  void aRefusedValueLeavesTheWriterCleanForTheNextEnvelope() {
    TableSchema schema = SCHEMAS.get(2);
    EnvelopeWriter writer = new EnvelopeWriter();
    List<WalMessage.TupleValue> bad = tuple(schema, i -> schema.columnName(i).equals("i4") ? "x" : null);
    List<WalMessage.TupleValue> good = tuple(schema, i -> schema.columnName(i).equals("i4") ? "7" : null);
    WalChange refused = new WalChange(schema, ChangeOp.INSERT, null, bad, null, false,
        Position.parse("0".repeat(23) + "1"), 1, true, 0, null, "p", 1);
    WalChange next = new WalChange(schema, ChangeOp.INSERT, null, good, null, false,
        Position.parse("0".repeat(23) + "2"), 1, true, 0, null, "p", 2);
    RuntimeException e = Assertions.assertThrows(RuntimeException.class, () -> writer.encode(refused));
    assertAll(
        () -> assertTrue(e instanceof ValueInvalidException, "the type's own refusal: " + e),
        () -> assertEquals(new String(ChangeEnvelope.encode(next.event(), schema.columnTypes()),
            StandardCharsets.UTF_8), new String(writer.encode(next), StandardCharsets.UTF_8),
            "nothing of the refused envelope leaks into the next"));
  }

  private static List<WalMessage.TupleValue> tuple(TableSchema schema,
      IntFunction<@Nullable String> text) {
    List<WalMessage.TupleValue> values = new ArrayList<>();
    for (int i = 0; i < schema.width(); i++) {
      String t = text.apply(i);
      values.add(t == null ? new WalMessage.Null() : new WalMessage.Text(t));
    }
    return values;
  }

  private static WalChange change(Random r, TableSchema schema, long seed) {
    ChangeOp op = ChangeOp.values()[r.nextInt(3)];
    List<WalMessage.TupleValue> tuple = op == ChangeOp.DELETE ? null : randomTuple(r, schema, true, false);
    List<WalMessage.TupleValue> old = null;
    boolean keyOnly = false;
    if (op == ChangeOp.DELETE || (op == ChangeOp.UPDATE && r.nextBoolean())) {
      keyOnly = r.nextBoolean();
      old = randomTuple(r, schema, false, keyOnly);
    }
    String key;
    try {
      key = tuple != null ? schema.keyOf(tuple) : null;
      if (key == null && old != null) {
        key = schema.keyOf(old);
      }
    } catch (ValueInvalidException e) {
      // The assembler refuses such a change before it is written; here it still tests the writer's refusal.
      key = null;
    }
    String write = r.nextInt(4) == 0 ? "0123456789abcdef0123456789abcdef" : null;
    return new WalChange(schema, op, key, tuple, old, keyOnly, Lsn.parse("16/B374D848").row(1 + r.nextInt(50)),
        r.nextInt() & 0xffffffffL, r.nextBoolean(), 1_732_880_000_000L + r.nextInt(1_000_000), write,
        "5f0c2a9e81d4b3a7", seed);
  }

  /** Random text {@code type} accepts (canonical or not). */
  private static String acceptedText(Random r, ColumnType type) {
    while (true) {
      String t = RandomPgText.of(r, type);
      try {
        type.parse(t);
        return t;
      } catch (ValueInvalidException e) {
        // Draw again.
      }
    }
  }

  /** A tuple as pgoutput sends one: a value, NULL, or (new tuples only) unchanged TOAST per column. */
  private static List<WalMessage.TupleValue> randomTuple(Random r, TableSchema schema, boolean mayBeUnchanged,
      boolean keyOnly) {
    // Most tuples hold only text the types accept, so most envelopes are compared; the rest may hold refused text.
    boolean clean = r.nextInt(6) != 0;
    List<WalMessage.TupleValue> values = new ArrayList<>();
    int width = schema.width() - (r.nextInt(20) == 0 ? 1 : 0);
    for (int i = 0; i < width; i++) {
      if (keyOnly && !schema.keyColumn(i)) {
        values.add(new WalMessage.Null());
        continue;
      }
      int roll = r.nextInt(20);
      if (roll == 0) {
        values.add(new WalMessage.Null());
      } else if (roll == 1 && mayBeUnchanged) {
        values.add(new WalMessage.Unchanged());
      } else {
        ColumnType type = schema.kept(i) ? schema.type(i) : ColumnType.TEXT;
        values.add(new WalMessage.Text(clean ? acceptedText(r, type) : RandomPgText.of(r, type)));
      }
    }
    return values;
  }
}
