package io.runnel.dsl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * {@link ColumnType#same} and {@link EntityRef#sameRow}/{@link EntityRef#sameValue} agree with Java's
 * {@code equals}, which they replace in client code so that a bundle does not link every class's {@code equals}.
 */
class SameValuesTest {

  private static final Map<ColumnType, List<String>> TEXTS = Map.ofEntries(
      Map.entry(ColumnType.TEXT, List.of("a", "b", "", "A")),
      Map.entry(ColumnType.VARCHAR, List.of("a", "ab")),
      Map.entry(ColumnType.UUID, List.of("00000000-0000-0000-0000-000000000001",
          "00000000-0000-0000-0000-000000000002")),
      Map.entry(ColumnType.INT2, List.of("1", "2", "-1")),
      Map.entry(ColumnType.INT4, List.of("1", "2", "0")),
      Map.entry(ColumnType.INT8, List.of("1", "2", "9223372036854775807")),
      Map.entry(ColumnType.FLOAT4, List.of("0", "-0", "NaN", "1.5", "Infinity")),
      Map.entry(ColumnType.FLOAT8, List.of("0", "-0", "NaN", "0.1", "-Infinity")),
      Map.entry(ColumnType.NUMERIC, List.of("1", "1.0", "1.00", "2", "NaN")),
      Map.entry(ColumnType.BOOL, List.of("t", "f")),
      Map.entry(ColumnType.DATE, List.of("2024-01-01", "2024-01-02", "infinity")),
      Map.entry(ColumnType.TIMESTAMP, List.of("2024-01-01 00:00:00", "2024-01-01 00:00:01")),
      Map.entry(ColumnType.TIMESTAMPTZ, List.of("2024-01-01 00:00:00+00", "2024-01-01 01:00:00+01",
          "2024-01-01 00:00:01+00")),
      Map.entry(ColumnType.JSON, List.of("{\"a\":1}", "{\"a\":1.0}", "[1,2]", "null")),
      Map.entry(ColumnType.JSONB, List.of("{\"a\":1}", "{\"a\":2}")),
      Map.entry(ColumnType.BYTEA, List.of("\\x00", "\\x0001", "\\x")),
      Map.entry(ColumnType.TEXT_ARRAY, List.of("{a,b}", "{a,NULL}", "{NULL,NULL}", "{}", "{a}")),
      Map.entry(ColumnType.INT8_ARRAY, List.of("{1,2}", "{1,NULL}", "{1}", "{}")));

  @Test
  void eachTypeCallsTwoOfItsValuesTheSameExactlyWhenEqualsDoes() {
    List<Executable> checks = new ArrayList<>();
    for (ColumnType type : ColumnType.ALL) {
      List<Object> values = new ArrayList<>();
      for (String text : TEXTS.get(type)) {
        values.add(type.parse(text));
        values.add(type.parse(text));
      }
      for (Object a : values) {
        for (Object b : values) {
          checks.add(() -> assertEquals(a.equals(b), type.same(a, b),
              () -> type.sqlName() + ": " + type.format(a) + " against " + type.format(b)));
        }
      }
    }
    assertAll(checks);
  }

  @Test
  void aValueOfAnotherClassThanItsTypesIsComparedAsEqualsWould() {
    assertAll(
        () -> assertTrue(ColumnType.INT8.same(5, 5), "an Integer in an int8 column equals the same Integer"),
        () -> assertFalse(ColumnType.INT8.same(5, 5L), "an Integer is not equal to a Long"),
        () -> assertFalse(ColumnType.INT4.same("5", 5), "text in an int4 column is not its number"),
        () -> assertTrue(ColumnType.INT4.same("5", "5"), "the same text is the same in any column"),
        () -> assertTrue(ColumnType.TEXT.same(true, true), "a Boolean in a text column equals itself"),
        () -> assertTrue(ColumnType.BOOL.same(List.of("a"), List.of("a")), "on the JVM any class uses its equals"),
        () -> assertFalse(ColumnType.TEXT_ARRAY.same(List.of("a"), Set.of("a")), "a list is never a set"),
        () -> assertFalse(ColumnType.TEXT_ARRAY.same(List.of("a"), "a"), "a list is never its element"));
  }

  @Test
  void anEntityCallsTwoRowsTheSameExactlyWhenRowEqualsDoes() {
    EntityRef posts = EntityRef.of("posts").key("id")
        .columns(c -> c.uuid("id").text("title").float8("score").int8Array("tags").numeric("price"));
    String id = "00000000-0000-0000-0000-000000000001";
    List<Row> rows = new ArrayList<>();
    rows.add(Row.of(Map.of("id", id)));
    rows.add(Row.of(Map.of("id", id, "title", "a")));
    rows.add(Row.of(Map.of("title", "a", "id", id)));
    rows.add(Row.of(Map.of("id", id, "title", "b")));
    rows.add(Row.of(Map.of("id", id, "score", -0.0)));
    rows.add(Row.of(Map.of("id", id, "score", 0.0)));
    rows.add(Row.of(Map.of("id", id, "price", PgNumeric.parse("1.0"))));
    rows.add(Row.of(Map.of("id", id, "price", PgNumeric.parse("1"))));
    rows.add(Row.of(Map.of("id", id, "tags", List.of(1L, 2L))));
    rows.add(Row.of(Map.of("id", id, "tags", List.of(1L))));
    rows.add(Row.of(Map.of("id", id, "extra", "x")));
    rows.add(Row.of(Map.of("id", id, "extra", "y")));
    Map<String, Object> withNull = new HashMap<>();
    withNull.put("id", id);
    withNull.put("title", null);
    rows.add(Row.of(withNull));
    Map<String, Object> otherNull = new LinkedHashMap<>();
    otherNull.put("id", id);
    otherNull.put("score", null);
    rows.add(Row.of(otherNull));
    List<Executable> checks = new ArrayList<>();
    for (Row a : rows) {
      for (Row b : rows) {
        checks.add(() -> assertEquals(a.equals(b), posts.sameRow(a, b), () -> a + " against " + b));
      }
    }
    assertAll(checks);
  }

  @Test
  void anEntityComparesOneColumnsValuesAsObjectsEqualsDoes() {
    EntityRef posts = EntityRef.of("posts").key("id").columns(c -> c.uuid("id").float8("score"));
    List<Object> values = new ArrayList<>();
    values.add(null);
    values.add(0.0);
    values.add(-0.0);
    values.add(Double.NaN);
    values.add("0");
    List<Executable> checks = new ArrayList<>();
    for (Object a : values) {
      for (Object b : values) {
        checks.add(() -> assertEquals(Objects.equals(a, b), posts.sameValue("score", a, b),
            () -> "declared: " + a + " against " + b));
        checks.add(() -> assertEquals(Objects.equals(a, b), posts.sameValue("undeclared", a, b),
            () -> "undeclared: " + a + " against " + b));
      }
    }
    assertAll(checks);
  }
}
