package io.runnel.dsl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.SqlRenderer;
import io.runnel.dsl.server.SqlStatement;
import io.runnel.testing.EmbeddedPostgresServer;
import io.runnel.testing.TestDatabase;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.function.Executable;

/**
 * The differential test of the in-process {@link Matcher} against a real PostgreSQL 18: for random rows and random
 * selects, the records PostgreSQL returns for {@link SqlRenderer}'s SQL, in their order, are exactly the records the
 * matcher keeps and sorts. This proves the design rule that text is compared and ordered under an explicit
 * {@code COLLATE "C"}, so code point order and ASCII-only case folding agree with the database whatever the column's
 * collation (one column here is {@code COLLATE "en-US-x-icu"}).
 *
 * <p>Approach: one table per container, with a uuid key and one column of every supported type. Each try
 * generates a fresh batch of 0–60 rows, replaces the table's contents with them (every value sent as PostgreSQL
 * input text with an explicit cast), and reads them back as PostgreSQL prints them, in a session time zone chosen
 * by the try; the matcher sees {@link EntityRef#rowFromText} of that text, so parse bugs surface too, and each
 * printed scalar must format back to the same text. Values come from small pools (so equality, ties and LIKE hits
 * are common) mixed with edge values: int8 bounds, numerics with many digits, NaN and the infinities, float
 * subnormals and -0, timestamps in many zones and at PostgreSQL's range limits, BC dates, text with accents,
 * astral characters and private-use characters (whose UTF-16 order differs from code point order), and with
 * {@code %}, {@code _} and backslashes. Each try then generates a filter tree (depth ≤ 3) whose values come from
 * the same pools, an order of 1–3 terms and a limit, and checks, for every row, that {@link Matcher#evaluate}
 * gives PostgreSQL's truth value of the WHERE expression (localising a filter bug to its row), and that the
 * rendered select returns the matcher's keys in the matcher's order. Per-try batches make shrinking reduce the rows
 * as well as the select.
 *
 * <p>Coverage is counted in static counters and reported as jqwik statistics; after the container, every operator
 * and every column must have been exercised, or the build fails.
 */
class MatcherDifferentialTest {

  private static final String TABLE = "public.t";
  private static final List<String> OPERATORS =
      List.of("eq", "neq", "lt", "lte", "gt", "gte", "in", "isNull", "isNotNull", "like", "ilike", "not", "and");
  private static final List<String> SESSION_ZONES =
      List.of("UTC", "America/St_Johns", "Asia/Kathmandu", "Pacific/Kiritimati", "Europe/Amsterdam", "Etc/GMT+12");

  private static final List<Long> ID_PREFIXES = List.of(0x0L, 0x7fffffffL, 0x80000000L, 0xffffffffL, 0x1234abcdL);

  private static final List<String> TEXT_POOL = List.of("", "a", "A", "b", "B", "ab", "Ab", "AB", "abc", "abd",
      "a b", "é", "É", "e", "E", "ée", "Éé", "ß", "SS", "ss", "ı", "I", "i", "İ", "🎉", "a🎉", "\uE000", "\uFFFD",
      "\uFF21", "\uFB00", "z", "Z", "~", "%", "_", "\\", "a%", "a_b", "a\\b", "50%", "\\%", "e\u0301", "Σ", "σ", "ς",
      "0", "10", "9", "𝄞", "\u00A0", " a", "a ", "NULL", "\t", "x\ny");
  private static final List<String> TEXT_ATOMS = List.of("a", "A", "b", "é", "É", "🎉", "𝄞", "\uE000", "\uFFFF",
      "%", "_", "\\", " ", "z", "ß", "\u0001");

  /**
   * PostgreSQL's last timestamp (294276-12-31 23:59:59.999999, {@code END_TIMESTAMP} in {@code datatype/timestamp.h}).
   */
  private static final String LAST_TIMESTAMP = "294276-12-31 23:59:59.999999";

  private static final List<Spec> SPECS = specs();
  private static final EntityRef REF = EntityRef.of("t").key("id").columns(MatcherDifferentialTest::declare);
  private static final Entity ENTITY = Entity.of(REF).table(TABLE);

  private static final Map<String, Integer> OPERATOR_COUNTS = new TreeMap<>();
  private static final Map<String, Integer> FILTERED_COLUMN_COUNTS = new TreeMap<>();
  private static final Map<String, Integer> ORDERED_COLUMN_COUNTS = new TreeMap<>();
  private static int cases;

  private static TestDatabase database;
  private static Connection connection;

  @BeforeContainer
  static void createTheTableWithEveryColumnType() throws SQLException {
    database = EmbeddedPostgresServer.shared().createDatabase("MatcherDifferentialTest");
    Properties p = database.credentials();
    // Text results only: pgjdbc's binary transfer would format some values itself instead of PostgreSQL.
    p.setProperty("binaryTransfer", "false");
    connection = DriverManager.getConnection(database.jdbcUrl(), p);
    String columns = SPECS.stream().map(s -> s.name() + " " + s.ddl()).collect(Collectors.joining(", "));
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE TABLE " + TABLE + " (" + columns + ")");
    }
  }

  @AfterContainer
  static void everyOperatorAndEveryColumnWasExercised() throws SQLException {
    try {
      List<Executable> checks = new ArrayList<>();
      checks.add(() -> assertTrue(cases >= 500, "at least 500 cases ran, not " + cases));
      for (String op : OPERATORS) {
        checks.add(() -> assertTrue(OPERATOR_COUNTS.getOrDefault(op, 0) > 0,
            "operator " + op + " was exercised; counts " + OPERATOR_COUNTS));
      }
      for (Spec s : SPECS) {
        if (!s.name().equals("id")) {
          checks.add(() -> assertTrue(FILTERED_COLUMN_COUNTS.getOrDefault(s.name(), 0) > 0,
              "column " + s.name() + " (" + s.ddl() + ") was filtered on; counts " + FILTERED_COLUMN_COUNTS));
        }
        if (s.type().comparable()) {
          checks.add(() -> assertTrue(ORDERED_COLUMN_COUNTS.getOrDefault(s.name(), 0) > 0,
              "column " + s.name() + " (" + s.ddl() + ") was ordered by; counts " + ORDERED_COLUMN_COUNTS));
        }
      }
      assertAll("coverage of the differential test", checks);
    } finally {
      if (connection != null) {
        connection.close();
      }
      if (database != null) {
        database.close();
      }
    }
  }

  @Property(tries = 800)
  void postgresAndTheMatcherSelectTheSameRecordsInTheSameOrder(@ForAll("cases") Case c) throws SQLException {
    count(c);
    Select ordered = Select.select(REF).where(c.filter()).orderBy(c.orders().toArray(Order[]::new));
    Select select = c.limit() > 0 ? ordered.limit(c.limit()) : ordered;
    Matcher matcher = Matcher.of(select);

    List<Map<String, String>> printed = store(c);
    List<Row> rows = printed.stream().map(REF::rowFromText).toList();
    assertAll("every value PostgreSQL prints reads back and formats to the same text",
        printed.stream().flatMap(r -> r.entrySet().stream()).filter(e -> e.getValue() != null)
            .map(e -> () -> assertFormatsBack(e.getKey(), e.getValue(), c.sessionZone())));

    SqlStatement where = SqlRenderer.where(REF, Objects.requireNonNull(select.filter()));
    Map<String, Truth> pgTruth = truthPerRow(where);
    Map<String, Truth> matcherTruth = new TreeMap<>();
    for (Row r : rows) {
      matcherTruth.put(REF.keyOf(r), matcher.evaluate(r));
    }
    Map<String, String> differing = new TreeMap<>();
    for (Row r : rows) {
      String key = REF.keyOf(r);
      if (pgTruth.get(key) != matcherTruth.get(key)) {
        differing.put(key, "PostgreSQL " + pgTruth.get(key) + ", matcher " + matcherTruth.get(key) + " on " + r);
      }
    }
    assertEquals(Map.of(), differing, () -> "The filter's truth differs per row.\n" + describe(where)
        + "\nselect: " + c.filter());

    SqlStatement sql = SqlRenderer.render(ENTITY, select, null);
    List<String> expected = rows.stream().filter(matcher::matches).sorted(matcher).limit(select.limit())
        .map(REF::keyOf).toList();
    List<String> actual = keys(sql);
    assertEquals(expected, actual, () -> "The selected records or their order differ.\n" + describe(sql)
        + "\nmatcher:    " + expected + "\npostgresql: " + actual + "\n" + orderDiff(rows, expected, actual, select));

    Statistics.label("selected").collect(expected.isEmpty() ? "none" : expected.size() == rows.size() ? "all" : "some");
  }

  /**
   * PostgreSQL's text for a value parses, and formatting the value gives that text again: timestamptz only in a UTC
   * session (format prints {@code +00}), json and jsonb never (format writes compact JSON). In every case the
   * formatted text parses back to the same value.
   */
  private static void assertFormatsBack(String column, String printed, String sessionZone) {
    ColumnType type = REF.column(column).type();
    Object value = type.parse(printed);
    String formatted = type.format(value);
    boolean sameText = type != ColumnType.JSON && type != ColumnType.JSONB
        && (type != ColumnType.TIMESTAMPTZ || sessionZone.equals("UTC"));
    assertAll(
        () -> assertEquals(value, type.parse(formatted),
            "parse(format(value)) of " + column + " (" + type.sqlName() + ") printed as " + printed),
        () -> assertTrue(!sameText || formatted.equals(printed),
            "format of " + column + " (" + type.sqlName() + ") is PostgreSQL's text " + printed + ", not "
                + formatted));
  }

  // ---- generation ----------------------------------------------------------------------------------------------

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<List<Map<String, String>>> rows = rowValues().list().ofMaxSize(60).map(MatcherDifferentialTest::withIds);
    Arbitrary<Integer> limit = Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.integers().between(1, 10)),
        Tuple.of(3, Arbitraries.integers().between(11, 80)),
        Tuple.of(2, Arbitraries.just(0)));
    return Combinators.combine(rows, Arbitraries.of(SESSION_ZONES), filter(3), orders(), limit).as(Case::new);
  }

  private static Arbitrary<Map<String, String>> rowValues() {
    List<Arbitrary<String>> values = new ArrayList<>();
    for (Spec s : SPECS) {
      if (!s.name().equals("id")) {
        values.add(s.values().injectNull(0.15));
      }
    }
    return Combinators.combine(values).as(list -> {
      Map<String, String> row = new LinkedHashMap<>();
      int i = 0;
      for (Spec s : SPECS) {
        if (!s.name().equals("id")) {
          row.put(s.name(), list.get(i++));
        }
      }
      return row;
    });
  }

  /** Unique ids: a row's index, behind a prefix from a small pool so that key order is not insertion order. */
  private static List<Map<String, String>> withIds(List<Map<String, String>> rows) {
    List<Map<String, String>> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Map<String, String> row = new LinkedHashMap<>();
      row.put("id", id(ID_PREFIXES.get(Math.floorMod(rows.get(i).hashCode(), ID_PREFIXES.size())), i));
      row.putAll(rows.get(i));
      out.add(row);
    }
    return out;
  }

  private static String id(long prefix, int index) {
    return String.format(Locale.ROOT, "%08x-0000-4000-8000-%012x", prefix, index);
  }

  private static Arbitrary<Filter> filter(int depth) {
    if (depth == 0) {
      return leaf();
    }
    return Arbitraries.frequencyOf(
        Tuple.of(5, leaf()),
        Tuple.of(2, filter(depth - 1).map(Filter::not)),
        Tuple.of(2, filter(depth - 1).list().ofMinSize(2).ofMaxSize(3).map(l -> Filter.and(l.toArray(Filter[]::new)))));
  }

  private static Arbitrary<Filter> leaf() {
    // Text columns weigh three times as much, for LIKE and ILIKE; no edge cases, which favour the list's ends.
    List<Spec> weighted = SPECS.stream().flatMap(s -> Collections.nCopies(s.type().textual() ? 3 : 1, s).stream())
        .toList();
    return Arbitraries.of(weighted).withoutEdgeCases().flatMap(s -> {
      Arbitrary<Filter> nullTests = Arbitraries.of(Filter.isNull(s.name()), Filter.isNotNull(s.name()));
      if (!s.type().comparable()) {
        return nullTests;
      }
      Arbitrary<String> value = s.filterValues().injectNull(0.05);
      Arbitrary<Filter> compare = Combinators.combine(Arbitraries.of(Filter.Op.values()), value)
          .as((op, v) -> new Filter.Compare(s.name(), op, v)).map(MatcherDifferentialTest::viaFactory);
      Arbitrary<Filter> in = s.filterValues().injectNull(0.1).list().ofMinSize(1).ofMaxSize(5)
          .map(vs -> Filter.in(s.name(), vs));
      if (!s.type().textual()) {
        return Arbitraries.frequencyOf(Tuple.of(6, compare), Tuple.of(2, in), Tuple.of(1, nullTests));
      }
      Arbitrary<Filter> like = Combinators.combine(likePattern().injectNull(0.05), Arbitraries.of(false, true))
          .as((pattern, ci) -> ci ? Filter.ilike(s.name(), pattern) : Filter.like(s.name(), pattern));
      return Arbitraries.frequencyOf(Tuple.of(3, compare), Tuple.of(1, in), Tuple.of(1, nullTests), Tuple.of(5, like));
    });
  }

  /** The same comparison, built with the factory app code uses. */
  private static Filter viaFactory(Filter f) {
    Filter.Compare c = (Filter.Compare) f;
    return switch (c.op()) {
      case EQ -> Filter.eq(c.column(), c.value());
      case NEQ -> Filter.neq(c.column(), c.value());
      case LT -> Filter.lt(c.column(), c.value());
      case LTE -> Filter.lte(c.column(), c.value());
      case GT -> Filter.gt(c.column(), c.value());
      case GTE -> Filter.gte(c.column(), c.value());
    };
  }

  /**
   * LIKE patterns made from a pool text: each code point kept (escaped when it is a wildcard or a backslash),
   * escaped anyway, kept raw (so a {@code %} in the value acts as a wildcard), replaced by {@code _} or {@code %},
   * dropped, or with its case changed (also non-ASCII: {@code É} for {@code é}); optional {@code %} at either end.
   */
  private static Arbitrary<String> likePattern() {
    Arbitrary<String> base = Arbitraries.frequencyOf(
        Tuple.of(2, text()),
        Tuple.of(1, text().map(t -> t.toUpperCase(Locale.ROOT))),
        Tuple.of(1, text().map(t -> t.toLowerCase(Locale.ROOT))));
    Arbitrary<String> made = Combinators.combine(base,
        Arbitraries.integers().between(0, 11).list().ofMinSize(1).ofMaxSize(6), Arbitraries.integers().between(0, 3))
        .as(MatcherDifferentialTest::pattern);
    return Arbitraries.frequencyOf(Tuple.of(3, made), Tuple.of(1, Arbitraries.of(CASE_PATTERNS)));
  }

  /** Patterns where full Unicode case folding and ILIKE's ASCII-only folding under COLLATE "C" disagree. */
  private static final List<String> CASE_PATTERNS =
      List.of("é", "É", "%é%", "%É%", "ß", "SS", "%Σ%", "σ", "İ", "i", "%ı%", "I", "%I%", "éE", "ÉE", "a%É");

  static String pattern(String base, List<Integer> ops, int ends) {
    StringBuilder p = new StringBuilder();
    if ((ends & 1) != 0) {
      p.append('%');
    }
    int[] cps = base.codePoints().toArray();
    for (int i = 0; i < cps.length; i++) {
      int c = cps[i];
      switch (ops.get(i % ops.size())) {
        case 0 -> p.append('_');
        case 1 -> p.append('%');
        case 2 -> { }
        case 3 -> p.append('\\').appendCodePoint(c);
        case 4 -> p.appendCodePoint(c);
        case 5 -> literal(p, Character.toUpperCase(c));
        case 6 -> literal(p, Character.toLowerCase(c));
        default -> literal(p, c);
      }
    }
    if ((ends & 2) != 0) {
      p.append('%');
    }
    int trailing = 0;
    for (int i = p.length() - 1; i >= 0 && p.charAt(i) == '\\'; i--) {
      trailing++;
    }
    if (trailing % 2 == 1) {
      p.append('\\');
    }
    return p.toString();
  }

  private static void literal(StringBuilder p, int c) {
    if (c == '%' || c == '_' || c == '\\') {
      p.append('\\');
    }
    p.appendCodePoint(c);
  }

  private static Arbitrary<List<Order>> orders() {
    List<String> comparable = SPECS.stream().filter(s -> s.type().comparable()).map(Spec::name).toList();
    return Arbitraries.of(comparable).list().uniqueElements().ofMinSize(1).ofMaxSize(3)
        .flatMap(columns -> Arbitraries.integers().between(0, 5).list().ofSize(columns.size()).map(styles ->
            IntStream.range(0, columns.size()).mapToObj(i -> order(columns.get(i), styles.get(i))).toList()));
  }

  private static Order order(String column, int style) {
    return switch (style) {
      case 0 -> Order.asc(column);
      case 1 -> Order.desc(column);
      case 2 -> Order.asc(column).nullsFirst();
      case 3 -> Order.desc(column).nullsLast();
      case 4 -> Order.asc(column).nullsLast();
      default -> Order.desc(column).nullsFirst();
    };
  }

  // ---- the value pools -----------------------------------------------------------------------------------------

  private static List<Spec> specs() {
    List<Spec> s = new ArrayList<>();
    s.add(new Spec("id", "uuid PRIMARY KEY", ColumnType.UUID,
        Combinators.combine(Arbitraries.of(ID_PREFIXES), Arbitraries.integers().between(0, 80))
            .as(MatcherDifferentialTest::id)));
    s.add(new Spec("c_text", "text", ColumnType.TEXT, text()));
    s.add(new Spec("c_varchar", "varchar(40)", ColumnType.VARCHAR, text()));
    s.add(new Spec("c_icu", "text COLLATE \"en-US-x-icu\"", ColumnType.TEXT, text()));
    s.add(new Spec("c_uuid", "uuid", ColumnType.UUID, uuids()));
    s.add(new Spec("c_int2", "int2", ColumnType.INT2, pooled(
        List.of("-32768", "32767", "-1", "0", "1", "2", "42", "-42", "+7", " 8 "),
        Arbitraries.shorts().map(String::valueOf))));
    s.add(new Spec("c_int4", "int4", ColumnType.INT4, pooled(
        List.of("-2147483648", "2147483647", "-1", "0", "1", "2", "1000", "-1000", "65536"),
        Arbitraries.integers().map(String::valueOf))));
    s.add(new Spec("c_int8", "int8", ColumnType.INT8, pooled(
        List.of("-9223372036854775808", "9223372036854775807", "-1", "0", "1", "2", "9007199254740993",
            "-9007199254740993", "4294967296"),
        Arbitraries.longs().map(String::valueOf))));
    s.add(new Spec("c_float4", "float4", ColumnType.FLOAT4, pooled(
        List.of("NaN", "Infinity", "-Infinity", "-0", "0", "1", "-1", "0.1", "1.5", "3.4028235e+38", "-3.4028235e+38",
            "1.1754944e-38", "1.1754942e-38", "1e-40", "1e+20", "16777216", "16777217", "100000", "1e+06", "0.0001",
            "1e-05"),
        Arbitraries.integers().map(bits -> Float.toString(Float.intBitsToFloat(bits))))
));
    s.add(new Spec("c_float8", "float8", ColumnType.FLOAT8, pooled(
        List.of("NaN", "Infinity", "-Infinity", "-0", "0", "1", "-1", "0.1", "0.30000000000000004", "1.5",
            "1.7976931348623157e+308", "-1.7976931348623157e+308", "2.2250738585072014e-308", "1e+15", "1e+16",
            "2.225073858507201e-308", "1e-310", "123456789012345.6", "9007199254740993", "0.0001", "1e-05"),
        Arbitraries.longs().map(bits -> Double.toString(Double.longBitsToDouble(bits))))
));
    s.add(new Spec("c_numeric", "numeric", ColumnType.NUMERIC, pooled(
        List.of("NaN", "Infinity", "-Infinity", "0", "0.0", "-0", "-0.00", "0.1", "0.10", "1", "1.000", "-1", "2",
            "123456789012345678901234567890.123456789012345678901", "-99999999999999999999999999999999999999",
            "1e-20", "1.5e3", "-2.50E-2", "9223372036854775808", "0.000000000000000000000000000001"),
        Combinators.combine(Arbitraries.bigIntegers().between(BigInteger.TEN.pow(40).negate(), BigInteger.TEN.pow(40)),
            Arbitraries.integers().between(0, 30))
                .as((unscaled, scale) -> new BigDecimal(unscaled, scale).toPlainString()))));
    s.add(new Spec("c_bool", "bool", ColumnType.BOOL,
        Arbitraries.of("t", "f", "true", "FALSE", "yes", "off", "1", "0")));
    s.add(new Spec("c_date", "date", ColumnType.DATE, pooled(
        List.of("2024-02-29", "2024-03-01", "1970-01-01", "2000-01-01", "0001-01-01", "0001-12-31 BC", "0044-03-15 BC",
            "4714-11-24 BC", "5874897-12-31", "10000-01-01", "infinity", "-infinity"),
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.longs().between(Calendar.MIN_DAY, Calendar.MAX_DATE_DAY)),
            Tuple.of(3, Arbitraries.longs().between(-40_000, 40_000))).map(MatcherDifferentialTest::dateText))));
    s.add(new Spec("c_timestamp", "timestamp", ColumnType.TIMESTAMP, pooled(
        List.of("2024-02-29 13:45:00", "2024-02-29 13:45:00.5", "2024-02-29T13:45:00.000001", "1970-01-01 00:00:00",
            "2000-01-01 00:00:00", "0044-03-15 10:00:00 BC", "4714-11-24 00:00:00 BC", LAST_TIMESTAMP, "infinity",
            "-infinity"),
        timestampText())));
    s.add(new Spec("c_timestamptz", "timestamptz", ColumnType.TIMESTAMPTZ, pooled(
        List.of("2024-02-29 13:45:00+00", "2024-02-29 19:15:00+05:30", "2024-02-29T13:45:00Z",
            "2024-02-29 10:15:00-03:30", "2024-03-01 03:45:00+14", "2024-02-29 01:45:00-12", "1970-01-01 00:00:00+00",
            "0044-03-15 10:00:00+01 BC", "4714-11-24 00:00:00+00 BC", LAST_TIMESTAMP + "+00",
            "2024-02-29 19:30:00+0545", "1900-01-01 00:19:32+00:19:32", "infinity", "-infinity"),
        Combinators.combine(timestampText(), Arbitraries.of("+00", "Z", "+05:30", "-03:30", "+14", "-12", "+0545",
            "-00:30", "+01:00:30")).as((t, zone) -> t.contains("infinity") ? t
            : t.endsWith(" BC") ? t.substring(0, t.length() - 3) + zone + " BC" : t + zone))));
    s.add(new Spec("c_bytea", "bytea", ColumnType.BYTEA, pooled(
        List.of("\\x", "\\x00", "\\x0000", "\\x7f", "\\x80", "\\xff", "\\x00ff", "\\xff00", "\\xDEADBEEF", "\\x61"),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(4).map(b -> Bytes.of(b).hex()))));
    s.add(new Spec("c_json", "json", ColumnType.JSON, Arbitraries.of("{\"a\": 1}", "[1, 2.50, \"x\"]", "null", "\"é🎉\"",
        "  {\"k\" : {\"c\":[true,false,null]}}  ", "1e3", "{}", "[]")));
    s.add(new Spec("c_jsonb", "jsonb", ColumnType.JSONB, Arbitraries.of("{\"a\": 1}", "[1, 2.50, \"x\"]", "null",
        "\"é🎉\"", "{\"k\" : {\"c\":[true,false,null]}}", "1e3", "{}", "[]", "{\"b\":1,\"a\":2}")));
    s.add(new Spec("c_text_array", "text[]", ColumnType.TEXT_ARRAY, Arbitraries.of("{}", "{a,b}",
        "{\"a b\",NULL,\"NULL\",\"\"}", "{\"\\\"q\\\"\",\"back\\\\slash\"}", "{é,🎉,\uE000}", "{\"{x}\",\"a,b\"}")));
    s.add(new Spec("c_int8_array", "int8[]", ColumnType.INT8_ARRAY, Arbitraries.of("{}", "{1,2,3}",
        "{NULL,-9223372036854775808}", "{9223372036854775807}", "{0}")));
    return List.copyOf(s);
  }

  private static void declare(EntityRef.Columns c) {
    for (Spec s : specs()) {
      c.column(s.name(), s.type());
    }
  }

  /** Mostly the pool (so values repeat and tie), sometimes anything the type holds. */
  private static Arbitrary<String> pooled(List<String> pool, Arbitrary<String> any) {
    return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(pool)), Tuple.of(1, any));
  }

  private static Arbitrary<String> text() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.of(TEXT_POOL)),
        Tuple.of(1, Arbitraries.of(TEXT_ATOMS).list().ofMaxSize(4).map(l -> String.join("", l))));
  }

  private static Arbitrary<String> uuids() {
    Arbitrary<String> same = Arbitraries.of("00000000-0000-0000-0000-000000000000",
        "ffffffff-ffff-ffff-ffff-ffffffffffff", "80000000-0000-0000-0000-000000000000",
        "7fffffff-ffff-ffff-ffff-ffffffffffff", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
        "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}",
        "a0eebc999c0b4ef8bb6d6bb9bd380a11", "a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a12");
    Arbitrary<String> any = Combinators.combine(Arbitraries.longs(), Arbitraries.longs())
        .as((hi, lo) -> new UUID(hi, lo).toString());
    return Arbitraries.frequencyOf(Tuple.of(3, same), Tuple.of(1, any));
  }

  /** A date as PostgreSQL reads it, from days since 1970-01-01 (astronomical years printed with BC). */
  static String dateText(long epochDay) {
    LocalDate d = LocalDate.ofEpochDay(epochDay);
    int year = d.getYear();
    String ymd = String.format(Locale.ROOT, "%04d-%02d-%02d", year <= 0 ? 1 - year : year, d.getMonthValue(),
        d.getDayOfMonth());
    return year <= 0 ? ymd + " BC" : ymd;
  }

  /** Timestamps without zone: pooled days and times (ties), or any microsecond in PostgreSQL's range (margins). */
  private static Arbitrary<String> timestampText() {
    long micros = Calendar.MICROS_PER_DAY;
    Arbitrary<String> near = Combinators.combine(Arbitraries.of(-1L, 0L, 19_782L, 19_783L, -711_000L),
        Arbitraries.of(0L, 1L, 500_000L, 3_600_000_000L, micros - 1)).as(MatcherDifferentialTest::timestampText);
    // Day and microsecond apart: PostgreSQL's range does not fit in microseconds since 1970 in a long. A day of
    // margin at each end leaves room for the zones timestamptz adds; the pools hold the exact ends.
    Arbitrary<String> any = Combinators.combine(
        Arbitraries.longs().between(Calendar.MIN_DAY + 2, Calendar.MAX_TIMESTAMP_DAY - 1),
        Arbitraries.longs().between(0, micros - 1)).as(MatcherDifferentialTest::timestampText);
    return Arbitraries.frequencyOf(Tuple.of(2, near), Tuple.of(1, any));
  }

  static String timestampText(long epochDay, long microOfDay) {
    LocalDateTime t = LocalDateTime.ofEpochSecond(epochDay * 86_400L + microOfDay / 1_000_000L,
        (int) (microOfDay % 1_000_000L) * 1000, ZoneOffset.UTC);
    int year = t.getYear();
    String s = String.format(Locale.ROOT, "%04d-%02d-%02d %02d:%02d:%02d.%06d", year <= 0 ? 1 - year : year,
        t.getMonthValue(), t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond(), t.getNano() / 1000);
    return year <= 0 ? s + " BC" : s;
  }

  // ---- PostgreSQL ----------------------------------------------------------------------------------------------

  /** Replaces the table's rows with the case's, then reads them back as PostgreSQL prints them. */
  private static List<Map<String, String>> store(Case c) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute("SET TIME ZONE '" + c.sessionZone() + "'");
      s.execute("DELETE FROM " + TABLE);
    }
    if (!c.rows().isEmpty()) {
      String tuple = SPECS.stream().map(s -> "?::" + s.ddl().replace(" PRIMARY KEY", "").replaceAll(" COLLATE .*", ""))
          .collect(Collectors.joining(", ", "(", ")"));
      String names = SPECS.stream().map(Spec::name).collect(Collectors.joining(", "));
      String sql = "INSERT INTO " + TABLE + " (" + names + ") VALUES "
          + String.join(", ", Collections.nCopies(c.rows().size(), tuple));
      try (PreparedStatement ps = connection.prepareStatement(sql)) {
        int i = 1;
        for (Map<String, String> row : c.rows()) {
          for (Spec s : SPECS) {
            bind(ps, i++, row.get(s.name()));
          }
        }
        ps.executeUpdate();
      }
    }
    List<Map<String, String>> out = new ArrayList<>();
    String names = SPECS.stream().map(Spec::name).collect(Collectors.joining(", "));
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT " + names + " FROM " + TABLE)) {
      while (rs.next()) {
        Map<String, String> row = new LinkedHashMap<>();
        for (Spec spec : SPECS) {
          row.put(spec.name(), rs.getString(spec.name()));
        }
        out.add(row);
      }
    }
    return out;
  }

  private static Map<String, Truth> truthPerRow(SqlStatement where) throws SQLException {
    Map<String, Truth> out = new TreeMap<>();
    try (PreparedStatement ps = connection.prepareStatement("SELECT id, (" + where.sql() + ") FROM " + TABLE)) {
      bind(ps, where);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String key = rs.getString(1);
          boolean b = rs.getBoolean(2);
          out.put(key, rs.wasNull() ? Truth.UNKNOWN : Truth.of(b));
        }
      }
    }
    return out;
  }

  private static List<String> keys(SqlStatement sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (PreparedStatement ps = connection.prepareStatement(sql.sql())) {
      bind(ps, sql);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString("id"));
        }
      }
    }
    return out;
  }

  private static void bind(PreparedStatement ps, SqlStatement sql) throws SQLException {
    for (int i = 0; i < sql.parameters().size(); i++) {
      bind(ps, i + 1, sql.parameters().get(i).text());
    }
  }

  /** Binds PostgreSQL input text as an untyped parameter, so the {@code ?::type} cast in the SQL reads it. */
  private static void bind(PreparedStatement ps, int index, String text) throws SQLException {
    if (text == null) {
      ps.setNull(index, Types.OTHER);
    } else {
      ps.setObject(index, text, Types.OTHER);
    }
  }

  // ---- reporting -----------------------------------------------------------------------------------------------

  private static void count(Case c) {
    cases++;
    Set<String> ops = new LinkedHashSet<>();
    Set<String> columns = new LinkedHashSet<>();
    walk(c.filter(), ops, columns);
    ops.forEach(op -> {
      OPERATOR_COUNTS.merge(op, 1, Integer::sum);
      Statistics.label("operator").collect(op);
    });
    columns.forEach(col -> {
      FILTERED_COLUMN_COUNTS.merge(col, 1, Integer::sum);
      Statistics.label("type").collect(col + " " + REF.column(col).type().sqlName());
    });
    c.orders().forEach(o -> ORDERED_COLUMN_COUNTS.merge(o.column(), 1, Integer::sum));
    Statistics.label("rows").collect(c.rows().size() < 10 ? "0-9" : c.rows().size() < 40 ? "10-39" : "40-60");
  }

  private static void walk(Filter f, Set<String> ops, Set<String> columns) {
    switch (f) {
      case Filter.Compare c -> {
        ops.add(c.op().name().toLowerCase(Locale.ROOT));
        columns.add(c.column());
      }
      case Filter.In in -> {
        ops.add("in");
        columns.add(in.column());
      }
      case Filter.IsNull n -> {
        ops.add(n.negated() ? "isNotNull" : "isNull");
        columns.add(n.column());
      }
      case Filter.Like l -> {
        ops.add(l.caseInsensitive() ? "ilike" : "like");
        columns.add(l.column());
      }
      case Filter.Not n -> {
        ops.add("not");
        walk(n.filter(), ops, columns);
      }
      case Filter.And a -> {
        ops.add("and");
        a.filters().forEach(p -> walk(p, ops, columns));
      }
    }
  }

  private static String describe(SqlStatement sql) {
    return "SQL: " + sql.sql() + "\nparameters: " + sql.parameters().stream()
        .map(p -> p.text() == null ? "NULL::" + p.type() : "'" + p.text() + "'::" + p.type())
        .collect(Collectors.joining(", ", "[", "]"));
  }

  /** The rows at the first position where the two key lists differ, with the ordered columns' values. */
  private static String orderDiff(List<Row> rows, List<String> expected, List<String> actual, Select select) {
    int i = 0;
    while (i < expected.size() && i < actual.size() && expected.get(i).equals(actual.get(i))) {
      i++;
    }
    Map<String, Row> byKey = rows.stream().collect(Collectors.toMap(REF::keyOf, r -> r));
    StringBuilder s = new StringBuilder("first difference at position ").append(i).append('\n');
    Consumer<String> show = key -> {
      Row r = byKey.get(key);
      s.append("  ").append(key).append(':');
      for (Order o : select.effectiveOrder()) {
        s.append(' ').append(o.column()).append('=').append(r == null ? "?" : r.get(o.column()));
      }
      s.append('\n');
    };
    if (i < expected.size()) {
      s.append("matcher has\n");
      show.accept(expected.get(i));
    }
    if (i < actual.size()) {
      s.append("postgresql has\n");
      show.accept(actual.get(i));
    }
    return s.toString();
  }

  /**
   * One table column: its name, DDL type, Runnel type and the PostgreSQL input texts its rows hold.
   *
   * @param name the column
   * @param ddl its type in CREATE TABLE
   * @param type its Runnel type
   * @param values input texts for rows (and for filter values when comparable)
   */
  private record Spec(String name, String ddl, ColumnType type, Arbitrary<String> values) {

    /** Filter values: the row values, in the form Java's parser also reads. */
    Arbitrary<String> filterValues() {
      return values;
    }

  }

  /**
   * One generated case.
   *
   * @param rows the rows as PostgreSQL input text by column, null for NULL
   * @param sessionZone the session time zone PostgreSQL prints timestamptz in
   * @param filter the filter, unbound
   * @param orders the order terms
   * @param limit the limit, or 0 for the default
   */
  record Case(List<Map<String, String>> rows, String sessionZone, Filter filter, List<Order> orders, int limit) {
    @Override
    public String toString() {
      return "Case[zone " + sessionZone + ", filter " + filter + ", orders " + orders + ", limit " + limit + ", "
          + rows.size() + " rows:\n  " + rows.stream().map(Object::toString).collect(Collectors.joining("\n  ")) + "]";
    }
  }
}
