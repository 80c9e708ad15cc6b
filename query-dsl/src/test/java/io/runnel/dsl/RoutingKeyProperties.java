package io.runnel.dsl;

import static io.runnel.dsl.Filter.and;
import static io.runnel.dsl.Filter.eq;
import static io.runnel.dsl.Select.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.function.Executable;

/**
 * A select's routing key finds every row its matcher accepts: for random rows and random {@code eq} pins, each
 * accepted row's {@link ColumnType#routingValue routing value} in a pinned column equals the pin, with the same
 * hash code. Values come from small pools rich in values PostgreSQL calls equal but Java does not ({@code 1.0} and
 * {@code 1.00}, {@code -0.0} and {@code 0.0}, NaN), so a window index keyed by raw values would miss rows here.
 */
class RoutingKeyProperties {

  static final EntityRef T = EntityRef.of("t").key("id")
      .columns(c -> c.int4("id").float8("f8").float4("f4").numeric("n").text("t").int8("i8").bool("b")
          .timestamptz("at"));

  /** Per column, PostgreSQL text for values that are often equal in PostgreSQL and distinct in Java. */
  static final Map<String, List<String>> POOLS = pools();

  private static Map<String, List<String>> pools() {
    Map<String, List<String>> p = new LinkedHashMap<>();
    p.put("f8", List.of("0", "-0", "1", "1.0", "1.5", "NaN", "Infinity", "-Infinity", "1e-320", "-1e-320"));
    p.put("f4", List.of("0", "-0", "2.5", "NaN", "-Infinity"));
    p.put("n", List.of("0", "0.00", "-0.0", "1", "1.0", "1.00", "10", "1e1", "10.000", "0.1", "0.10", "NaN",
        "Infinity", "-Infinity", "-1.50", "-1.5"));
    p.put("t", List.of("", "a", "A", "a "));
    p.put("i8", List.of("0", "-1", "9223372036854775807"));
    p.put("b", List.of("true", "false"));
    p.put("at", List.of("2024-02-29 13:45:00+00", "2024-02-29 14:45:00+01", "2024-02-29 13:45:00.000001+00",
        "infinity"));
    return p;
  }

  @Property(tries = 2000)
  void everyRowTheMatcherAcceptsHasThePinnedRoutingValues(@ForAll("pins") Map<String, Object> pins,
      @ForAll("rows") Row row) {
    List<Filter> eqs = new ArrayList<>();
    pins.forEach((column, value) -> eqs.add(eq(column, value)));
    Select s = select(T).where(and(eqs.toArray(Filter[]::new)));
    boolean accepted = Matcher.of(s).matches(row);
    Statistics.label("accepted").collect(accepted);
    if (!accepted) {
      return;
    }
    Map<String, Object> key = s.routingKey();
    List<Executable> checks = new ArrayList<>();
    checks.add(() -> assertEquals(pins.keySet(), key.keySet(), "every pinned column is in the key"));
    for (Map.Entry<String, Object> pin : key.entrySet()) {
      ColumnType type = T.column(pin.getKey()).type();
      Object routed = type.routingValue(row.get(pin.getKey()));
      checks.add(() -> assertEquals(pin.getValue(), routed, pin.getKey() + ": the row's routing value is the pin"));
      checks.add(() -> assertEquals(pin.getValue().hashCode(), routed.hashCode(), pin.getKey() + ": same hash"));
    }
    assertAll(checks);
  }

  @Property(tries = 500)
  void valuesEqualUnderCompareHaveEqualRoutingValues(@ForAll("columns") String column, @ForAll("indexes") int i,
      @ForAll("indexes") int j) {
    ColumnType type = T.column(column).type();
    List<String> pool = POOLS.get(column);
    Object a = type.parse(pool.get(i % pool.size()));
    Object b = type.parse(pool.get(j % pool.size()));
    Object ra = type.routingValue(a);
    Object rb = type.routingValue(b);
    assertAll(
        () -> assertEquals(type.compare(a, b) == 0, ra.equals(rb), a + " vs " + b + ": equal iff compare says so"),
        () -> assertEquals(0, type.compare(a, ra), "the routing value is equal to the value under compare"),
        () -> assertEquals(a.getClass(), ra.getClass(), "the routing value keeps the Java class"));
  }

  /** The review's cases: PostgreSQL calls these equal, so the window they pin must find the row. */
  @Example
  void numericScaleAndNegativeZeroDoNotChangeTheRoutingKey() {
    Select numeric = select(T).where(eq("n", "1.0"));
    Select zero = select(T).where(eq("f8", 0.0));
    Row row = Row.of(Map.of("n", PgNumeric.parse("1.00"), "f8", -0.0));
    assertAll(
        () -> assertTrue(Matcher.of(numeric).matches(row)),
        () -> assertEquals(numeric.routingKey().get("n"), ColumnType.NUMERIC.routingValue(row.get("n"))),
        () -> assertEquals("1", numeric.routingKey().get("n").toString()),
        () -> assertTrue(Matcher.of(zero).matches(row)),
        () -> assertEquals(zero.routingKey().get("f8"), ColumnType.FLOAT8.routingValue(row.get("f8"))),
        () -> assertEquals(Double.NaN, ColumnType.FLOAT8.routingValue(Double.NaN), "NaN stays NaN"),
        () -> assertEquals("text", ColumnType.TEXT.routingValue("text"), "other types route by the value itself"));
  }

  @Provide
  Arbitrary<String> columns() {
    return Arbitraries.of(List.copyOf(POOLS.keySet()));
  }

  @Provide
  Arbitrary<Integer> indexes() {
    return Arbitraries.integers().between(0, 99);
  }

  @Provide
  Arbitrary<Map<String, Object>> pins() {
    return Arbitraries.subsetOf(POOLS.keySet()).ofMinSize(1).ofMaxSize(3).flatMap(columns -> {
      List<String> ordered = POOLS.keySet().stream().filter(columns::contains).toList();
      List<Arbitrary<Object>> values = ordered.stream().map(RoutingKeyProperties::value).toList();
      return Combinators.combine(values).as(vs -> {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int k = 0; k < ordered.size(); k++) {
          m.put(ordered.get(k), vs.get(k));
        }
        return m;
      });
    });
  }

  @Provide
  Arbitrary<Row> rows() {
    List<String> columns = List.copyOf(POOLS.keySet());
    List<Arbitrary<Object>> values = columns.stream().map(c -> value(c).injectNull(0.1)).toList();
    return Combinators.combine(values).as(vs -> {
      Map<String, Object> m = new HashMap<>();
      m.put("id", 1);
      for (int k = 0; k < columns.size(); k++) {
        m.put(columns.get(k), vs.get(k));
      }
      return Row.of(m);
    });
  }

  /** A value of {@code column}'s type from its pool, parsed as PostgreSQL's text. */
  private static Arbitrary<Object> value(String column) {
    ColumnType type = T.column(column).type();
    return Arbitraries.of(POOLS.get(column)).map(type::parse);
  }
}
