package io.runnel.replicator;

import static io.runnel.replicator.Changes.key;
import static io.runnel.replicator.Changes.old;
import static io.runnel.replicator.Changes.omitted;
import static io.runnel.replicator.Changes.row;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.Bytes;
import io.runnel.dsl.ColumnType;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.PgDate;
import io.runnel.dsl.PgNumeric;
import io.runnel.dsl.PgTimestamp;
import io.runnel.dsl.Row;
import io.runnel.dsl.server.Entity;
import io.runnel.protocol.Lsn;
import io.runnel.testing.Await;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Every kind of row change arrives on the bus decoded, typed, keyed and positioned as the protocol says. */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplicatorDecodeTest {

  static final EntityRef ITEMS = EntityRef.of("items").key("id")
      .columns(c -> c.int4("id").text("org").text("title").text("doc"));
  static final EntityRef FULL = EntityRef.of("full_items").key("id").columns(c -> c.int4("id").text("title"));
  static final EntityRef PAIRS = EntityRef.of("pairs").key("a", "b").columns(c -> c.text("a").int8("b").text("v"));
  static final EntityRef TYPED = EntityRef.of("typed").key("id").columns(c -> c.uuid("id").text("t").varchar("vc")
      .int2("i2").int4("i4").int8("i8").float4("f4").float8("f8").numeric("n").bool("b").date("d").timestamp("ts")
      .timestamptz("tz").json("j").jsonb("jb").bytea("by").textArray("ta").int8Array("ia"));

  TestDatabase db;
  Harness h;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    this.db = db;
    db.execute("""
        CREATE TABLE items (id int PRIMARY KEY, org text, title text, doc text, secret text);
        CREATE TABLE full_items (id int PRIMARY KEY, title text);
        ALTER TABLE full_items REPLICA IDENTITY FULL;
        CREATE TABLE pairs (a text, b bigint, v text, PRIMARY KEY (a, b));
        CREATE TABLE typed (id uuid PRIMARY KEY, t text, vc varchar(20), i2 int2, i4 int4, i8 int8, f4 float4,
          f8 float8, n numeric, b bool, d date, ts timestamp, tz timestamptz, j json, jb jsonb, by bytea, ta text[],
          ia int8[]);
        CREATE TABLE undeclared (id int PRIMARY KEY, note text);
        """);
    h = Harness.start(db, "decode", List.of(Entity.of(ITEMS), Entity.of(FULL), Entity.of(PAIRS), Entity.of(TYPED)))
        .awaitStreaming();
  }

  @AfterAll
  void stop() {
    h.close();
  }

  @Test
  void anInsertCarriesTheWholeDeclaredRowAndNothingServerOnly() throws Exception {
    db.execute("INSERT INTO items VALUES (1, 'acme', 'Hello', NULL, 'server-only')");
    ChangeEvent e = h.next();
    assertAll(
        () -> assertEquals("public.items", e.table()),
        () -> assertEquals("items", e.entity()),
        () -> assertEquals(ChangeOp.INSERT, ChangeOp.of(e)),
        () -> assertEquals("1", key(e)),
        () -> assertEquals(Row.of(map("id", 1, "org", "acme", "title", "Hello", "doc", null)), row(e),
            "NULL is null; the undeclared column 'secret' never reaches the bus"),
        () -> assertNull(old(e)),
        () -> assertEquals(List.of(), omitted(e)),
        () -> assertTrue(e.last(), "a one-row transaction's change is its last"),
        () -> assertTrue(e.lsn().toString().matches("[0-9a-f]{16}00000001"), e.lsn().toString()),
        () -> assertNull(e.write()));
  }

  @Test
  void anUpdateThatMovesTheKeyCarriesTheOldKey() throws Exception {
    db.execute("INSERT INTO items VALUES (10, 'acme', 'x', NULL, NULL)");
    h.next();
    db.execute("UPDATE items SET id = 11 WHERE id = 10");
    ChangeEvent e = h.next();
    assertAll(
        () -> assertEquals(ChangeOp.UPDATE, ChangeOp.of(e)),
        () -> assertEquals("11", key(e)),
        () -> assertEquals(Row.of(map("id", 10)), old(e), "kind K: the old key columns only"));
  }

  @Test
  void anUpdateUnderTheDefaultIdentityCarriesNoOldRowAndADeleteItsKey() throws Exception {
    db.execute("INSERT INTO items VALUES (20, 'acme', 'x', NULL, NULL)");
    h.next();
    db.execute("UPDATE items SET title = 'y' WHERE id = 20");
    ChangeEvent update = h.next();
    db.execute("DELETE FROM items WHERE id = 20");
    ChangeEvent delete = h.next();
    assertAll(
        () -> assertNull(old(update)),
        () -> assertEquals("y", row(update).get("title")),
        () -> assertEquals(ChangeOp.DELETE, ChangeOp.of(delete)),
        () -> assertEquals("20", key(delete)),
        () -> assertNull(row(delete)),
        () -> assertEquals(Row.of(map("id", 20)), old(delete)));
  }

  @Test
  void replicaIdentityFullCarriesTheWholeOldRow() throws Exception {
    db.execute("INSERT INTO full_items VALUES (1, 'before')");
    h.next();
    db.execute("UPDATE full_items SET title = 'after' WHERE id = 1");
    ChangeEvent update = h.next();
    db.execute("DELETE FROM full_items WHERE id = 1");
    ChangeEvent delete = h.next();
    assertAll(
        () -> assertEquals(Row.of(map("id", 1, "title", "before")), old(update)),
        () -> assertEquals(Row.of(map("id", 1, "title", "after")), row(update)),
        () -> assertEquals(Row.of(map("id", 1, "title", "after")), old(delete)));
  }

  @Test
  void anUpdateLeavingALargeToastedColumnListsItAsOmitted() throws Exception {
    db.execute("INSERT INTO items SELECT 30, 'acme', 't', string_agg(md5(g::text), '') FROM generate_series(1, 400) g, "
        + "(SELECT 1) x GROUP BY x");
    ChangeEvent insert = h.next();
    db.execute("UPDATE items SET title = 'u' WHERE id = 30");
    ChangeEvent update = h.next();
    assertAll(
        () -> assertEquals(12_800, ((String) row(insert).get("doc")).length(), "the insert carries the 12.8 KB value"),
        () -> assertEquals(List.of("doc"), omitted(update)),
        () -> assertFalse(row(update).has("doc"), "an omitted column is absent, not null"),
        () -> assertEquals("u", row(update).get("title")));
  }

  @Test
  void aTruncateIsOneEventPerTable() throws Exception {
    db.execute("INSERT INTO pairs VALUES ('t', 1, 'x')");
    h.next();
    db.execute("TRUNCATE pairs");
    ChangeEvent e = h.next();
    assertAll(
        () -> assertEquals(ChangeOp.TRUNCATE, ChangeOp.of(e)),
        () -> assertEquals("public.pairs", e.table()),
        () -> assertNull(key(e)),
        () -> assertNull(row(e)),
        () -> assertTrue(e.last()));
  }

  @Test
  void aCompositeKeyIsTheCanonicalJsonArrayOfItsValues() throws Exception {
    db.execute("INSERT INTO pairs VALUES ('k\"1', 9007199254740993, 'v')");
    assertEquals("[\"k\\\"1\",\"9007199254740993\"]", key(h.next()));
  }

  @Test
  void everyRowOfAMultiRowTransactionArrivesWithItsPositionAndOnlyTheFinalOneIsLast() throws Exception {
    db.execute("BEGIN; INSERT INTO items VALUES (40, 'a', '1', NULL, NULL); INSERT INTO pairs VALUES ('m', 1, 'x');"
        + " UPDATE items SET title = '2' WHERE id = 40; DELETE FROM pairs WHERE a = 'm'; COMMIT;");
    List<ChangeEvent> tx = h.take(4);
    String commit = tx.get(0).lsn().toString().substring(0, 16);
    assertAll(
        () -> assertEquals(List.of(ChangeOp.INSERT, ChangeOp.INSERT, ChangeOp.UPDATE, ChangeOp.DELETE),
            tx.stream().map(ChangeOp::of).toList()),
        () -> assertEquals(List.of(commit + "00000001", commit + "00000002", commit + "00000003", commit + "00000004"),
            tx.stream().map(e -> e.lsn().toString()).toList(), "one commit LSN, rows counted from 1"),
        () -> assertEquals(List.of(false, false, false, true), tx.stream().map(ChangeEvent::last).toList()),
        () -> assertEquals(1, tx.stream().map(ChangeEvent::xid).distinct().count(), "one xid"),
        () -> assertTrue(tx.get(3).seq() == tx.get(0).seq() + 3, "seq counts every message"));
  }

  @Test
  void aTransactionCarryingAWriteDigestTagsEveryChangeOfItAndOnlyThose() throws Exception {
    db.execute("BEGIN; SELECT pg_logical_emit_message(true, 'runnel.write', '0123456789abcdef0123456789abcdef');"
        + " INSERT INTO items VALUES (50, 'a', 'w', NULL, NULL); INSERT INTO items VALUES (51, 'a', 'w', NULL, NULL);"
        + " COMMIT; SELECT pg_logical_emit_message(false, 'runnel.write', 'not-transactional');"
        + " SELECT pg_logical_emit_message(true, 'other.prefix', 'ignored');"
        + " INSERT INTO items VALUES (52, 'a', 'plain', NULL, NULL);");
    List<ChangeEvent> events = h.take(3);
    assertAll(
        () -> assertEquals("0123456789abcdef0123456789abcdef", events.get(0).write()),
        () -> assertEquals("0123456789abcdef0123456789abcdef", events.get(1).write()),
        () -> assertNull(events.get(2).write(), "the next transaction carries no digest"));
  }

  @Test
  void aTableNoEntityDeclaresIsNotInTheCreatedPublication() throws Exception {
    db.execute("INSERT INTO undeclared VALUES (1, 'x'); INSERT INTO items VALUES (60, 'a', 'after', NULL, NULL)");
    assertEquals("public.items", h.next().table(), "the publication holds the entities' tables only");
  }

  @Test
  void whileOnlyUnpublishedTablesAreWrittenTheSlotStillAdvancesSoItHoldsNoWal() throws Exception {
    String target;
    db.execute("INSERT INTO undeclared SELECT g, 'x' FROM generate_series(100, 1100) g");
    try (var c = db.connect(); var s = c.createStatement();
        var r = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
      r.next();
      target = r.getString(1);
    }
    Lsn wanted = Lsn.parse(target);
    Lsn[] confirmed = {Lsn.ZERO};
    Await.until(() -> "the slot reaches " + wanted + " from the keepalives, now at " + confirmed[0],
        Duration.ofSeconds(20), Duration.ofMillis(50), () -> {
          try (var c = db.connect(); var s = c.createStatement();
              var r = s.executeQuery(
                  "SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = 'decode'")) {
            r.next();
            confirmed[0] = Lsn.parse(r.getString(1));
          }
          return confirmed[0].compareTo(wanted) >= 0;
        });
    assertTrue(h.events.isEmpty(), "no change of an unpublished table reached the bus");
  }

  @Test
  void everyColumnTypeArrivesTypedAsPostgresStoredIt() throws Exception {
    db.execute("""
        INSERT INTO typed VALUES ('0b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69', 'tëxt 🎉', 'vc', -32768, 2147483647,
          9223372036854775807, 1.5, 'NaN', '123.4500', true, '0044-03-15 BC', '2024-02-29 13:45:00.5',
          '2024-02-29 13:45:00.123456+05:30', '{"a": [1, 2]}', '{"b": 1, "a": 2}', '\\x00ff', '{a,"b c",NULL}',
          '{1,NULL,-9223372036854775808}');
        INSERT INTO typed (id) VALUES ('1b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69');
        """);
    Row r = row(h.next());
    Row nulls = row(h.next());
    assertAll(
        () -> assertEquals("0b7e7d8a-5a4f-4c1e-9a43-1f2d3c4b5a69", r.get("id")),
        () -> assertEquals("tëxt 🎉", r.get("t")),
        () -> assertEquals("vc", r.get("vc")),
        () -> assertEquals(-32768, r.get("i2")),
        () -> assertEquals(Integer.MAX_VALUE, r.get("i4")),
        () -> assertEquals(Long.MAX_VALUE, r.get("i8")),
        () -> assertEquals(1.5f, r.get("f4")),
        () -> assertTrue(((Double) r.get("f8")).isNaN()),
        () -> assertEquals(PgNumeric.of(new BigDecimal("123.4500")), r.get("n"), "numeric keeps its scale"),
        () -> assertEquals(true, r.get("b")),
        () -> assertEquals(PgDate.parse("0044-03-15 BC"), r.get("d")),
        () -> assertEquals(PgTimestamp.parseLocal("2024-02-29T13:45:00.5"), r.get("ts")),
        () -> assertEquals(PgTimestamp.parseWithZone("2024-02-29T08:15:00.123456Z"), r.get("tz")),
        () -> assertEquals(Json.parse("{\"a\":[1,2]}"), r.get("j")),
        () -> assertEquals(Json.parse("{\"a\":2,\"b\":1}"), r.get("jb")),
        () -> assertEquals(Bytes.of(new byte[] {0, (byte) 0xff}), r.get("by")),
        () -> assertEquals(Arrays.asList("a", "b c", null), r.get("ta")),
        () -> assertEquals(Arrays.asList(1L, null, Long.MIN_VALUE), r.get("ia")),
        () -> assertEquals(TYPED.columns().size(), nulls.values().size(), "every column present"),
        () -> assertEquals(1, nulls.values().values().stream().filter(v -> v != null).count(), "all NULL but the key"));
    for (ColumnType t : ColumnType.ALL) {
      assertTrue(TYPED.columns().stream().anyMatch(c -> c.type() == t), "the table covers " + t);
    }
  }

  private static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }
}
