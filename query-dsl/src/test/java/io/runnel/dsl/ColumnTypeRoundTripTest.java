package io.runnel.dsl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every column type against the real PostgreSQL 18: for each type a list of edge-case input literals is printed by
 * the server ({@code SELECT ?::type} in a UTC session, text results), and the codec must read that text, print it
 * back exactly, have the server read its own text back unchanged, travel through JSON as {@code docs/protocol.md}
 * ("Values") says, and compare and order as the server does.
 *
 * <p>Documented exceptions, each repeated where it applies:
 *
 * <ul>
 *   <li>{@code json}: PostgreSQL keeps a {@code json} document's input text verbatim (spacing, member order,
 *       number spelling), so there is no one text to print; Runnel re-serializes compactly ({@link Json#write}).
 *       For {@code json} the checks compare parsed {@link JsonValue}s, and that the server keeps our text.
 *   <li>{@code jsonb}: PostgreSQL normalizes numbers ({@code 1e2} becomes {@code 100}) while a {@link JsonNumber}
 *       keeps its input spelling, so reading an input literal need not give the value read from the server's
 *       text (both print the same, which is checked).
 *   <li>{@code bytea}: Runnel reads only the hex form PostgreSQL prints ({@link ColumnType#parse}), not the
 *       escape-format input PostgreSQL also accepts.
 *   <li>Years outside 1–9999 in JSON timestamps: docs/protocol.md's ISO 8601 in the expanded, signed six-digit form
 *       JavaScript reads ({@code -004712}, {@code +010000}; astronomical years), where {@code to_json} prints
 *       {@code BC} or a bare five-digit year; those are checked against the server's epoch instead.
 * </ul>
 */
@FreshDatabase
class ColumnTypeRoundTripTest {

  private static Connection pg;

  @BeforeAll
  static void connect(TestDatabase db) throws SQLException {
    Properties p = db.credentials();
    // Text results only: a server-prepared statement may switch pgjdbc to binary transfer, and getString would
    // then print the value with Java's formatting instead of PostgreSQL's.
    p.setProperty("prepareThreshold", "0");
    p.setProperty("binaryTransfer", "false");
    pg = DriverManager.getConnection(db.jdbcUrl(), p);
    try (var s = pg.createStatement()) {
      s.execute("SET TimeZone = 'UTC'; SET DateStyle = 'ISO, MDY'; SET bytea_output = 'hex'");
    }
    assertEquals("UTF8", one("SELECT current_setting('server_encoding')"), "unicode samples need UTF8");
  }

  @AfterAll
  static void disconnect() throws SQLException {
    pg.close();
  }

  // ---------------------------------------------------------------------------------------------------------
  // Samples

  private static final String MANY_BYTES = "\\x" + HexFormat.of().formatHex(manyBytes());

  private static byte[] manyBytes() {
    byte[] b = new byte[700];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (i * 7 + 3);
    }
    return b;
  }

  /** Input literals per type: NULL-free, each one PostgreSQL accepts. */
  private static final Map<ColumnType, List<String>> SAMPLES = samples();

  private static Map<ColumnType, List<String>> samples() {
    List<String> text = List.of("", "plain", "héllo wörld", "emoji 😀 and 𝄞", "it's \"quoted\"",
        "back\\slash \\\\ two", "tab\tnew\nline\rcr", "\u0001control\u001f", " leading and trailing ",
        "NULL", "null", "{braces},[brackets]", "\uE000 private use", "\uFFFD", "Z", "a", "é", "中文");
    Map<ColumnType, List<String>> m = new LinkedHashMap<>();
    m.put(ColumnType.TEXT, text);
    m.put(ColumnType.VARCHAR, text);
    m.put(ColumnType.UUID, List.of("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12}",
        "a0eebc999c0b4ef8bb6d6bb9bd380a13", "a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a14",
        "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
        "7fffffff-ffff-ffff-ffff-ffffffffffff", "80000000-0000-0000-0000-000000000000"));
    m.put(ColumnType.INT2, List.of("0", "-32768", "32767", "1", "-1", "+42", "  7  "));
    m.put(ColumnType.INT4, List.of("0", "-2147483648", "2147483647", "1", "-1", "65536"));
    m.put(ColumnType.INT8, List.of("0", "-9223372036854775808", "9223372036854775807", "9007199254740993", "-1",
        "2147483648"));
    m.put(ColumnType.FLOAT4, List.of("0", "-0", "NaN", "Infinity", "-Infinity", "1e6", "123456", "3.4028235e38",
        "1.17549435e-38", "1.4e-45", "0.1", "1e-5", "100000", "1.0000000596046448", "-2.5", "16777217",
        "3.1415927"));
    m.put(ColumnType.FLOAT8, List.of("0", "-0", "NaN", "Infinity", "-Infinity", "1e15", "1e-5", "0.1", "1e+20",
        "123456789012345", "4.9e-324", "1e-323", "2.2250738585072014e-308", "1.7976931348623157e308",
        "0.30000000000000004", "-1.5", "1e-4", "999999999999999", "9007199254740993", "1"));
    m.put(ColumnType.NUMERIC, List.of("0.10", "-0.0", "1e-20", "123456789012345678901234567890.123456789", "NaN",
        "Infinity", "-Infinity", "0", "1", "1.0", "1.00", "-1", "1E+2", "1.50e1", "-123.456",
        "0.000000000000000000000000000000000000001"));
    m.put(ColumnType.BOOL, List.of("t", "f", "true", "false", "yes", "no", "on", "off", "1", "0"));
    m.put(ColumnType.DATE, List.of("2024-02-29", "0044-03-15 BC", "4713-11-24 BC", "5874897-12-31", "infinity",
        "-infinity", "10000-01-01", "4714-11-24 BC", "1970-01-01", "1969-12-31", "0001-01-01", "0001-12-31 BC",
        "1900-03-01",
        "2000-02-29"));
    m.put(ColumnType.TIMESTAMP, List.of("2024-02-29 13:45:00", "2024-02-29 13:45:00.5",
        "2024-02-29 13:45:00.123456", "2024-02-29T13:45:00.000001", "1970-01-01 00:00:00",
        "1969-12-31 23:59:59.999999", "0044-03-15 12:00:00 BC", "4713-11-24 00:00:00 BC", "4714-11-24 00:00:00 BC",
        "infinity", "-infinity",
        "294276-12-31 23:59:59.999999", "10000-01-01 00:00:00", "2000-01-01 24:00:00", "0001-01-01 00:00:00"));
    m.put(ColumnType.TIMESTAMPTZ, List.of("2024-02-29 13:45:00+00", "2024-02-29 13:45:00.5Z",
        "2024-02-29 13:45:00.123456+00", "2024-02-29 13:45:00+05:30", "2024-02-29 13:45:00.5-00:01:15",
        "2024-02-29T00:30:00+01", "1970-01-01 00:00:00Z", "1969-12-31 23:59:59.999999+00",
        "0044-03-15 12:00:00+00 BC", "4713-11-24 00:00:00+00 BC", "4714-11-24 00:00:00+00 BC",
        "4714-11-24 05:00:00+05 BC", "infinity", "-infinity",
        "294276-12-31 23:59:59.999999+00", "10000-01-01 00:00:00+00", "0001-01-01 00:00:00+00"));
    List<String> json = List.of("{\"a\": [1, 2.50, {\"b\": null}], \"c\": \"x\"}", "[]", "{}", "\"str\"", "true",
        "123456789012345678901234567890.123456789012", "-0", "1E+2", "1e400",
        "{\"bb\":1,\"a\":2,\"aaa\":{\"z\":[true,false,null]},\"é\":\"\\u00e9\\ud83d\\ude00\\t\\n\\\"\\\\\"}",
        "[1.000000000000000000001, -1e-7, 9007199254740993]");
    m.put(ColumnType.JSON, json);
    m.put(ColumnType.JSONB, json);
    m.put(ColumnType.BYTEA, List.of("\\x", "\\x00ff", "\\xDEADBEEF", MANY_BYTES, "\\x00", "\\x0000", "\\xff",
        "abc\\000def"));
    m.put(ColumnType.TEXT_ARRAY, List.of("{}", "{a,\"b c\",NULL,\"NULL\",\"\",x\\\"y}",
        "{\"a,b\",\"{c}\",\"d\\\\e\",\"f\\\"g\",\"ü😀\",null,\"  padded  \",\"null\",\"Null\"}",
        "{ spaced , \"in quotes\" }", "{\u0001ctl,\u001fx,\u00a0nbsp,\u2003em}", "{\"tab\there\",\"v\u000bt\"}",
        "{'single'}", "{a}"));
    m.put(ColumnType.INT8_ARRAY, List.of("{}", "{1,NULL,-9223372036854775808,9223372036854775807}", "{0}",
        "{ 1 , 2 }", "{NULL}", "{-0}"));
    return m;
  }

  static Stream<ColumnType> everyType() {
    return ColumnType.ALL.stream();
  }

  static Stream<ColumnType> comparableTypes() {
    return ColumnType.ALL.stream().filter(ColumnType::comparable);
  }

  @Test
  void everyTypeHasSamples() {
    assertEquals(18, ColumnType.ALL.size());
    assertAll(ColumnType.ALL.stream().map(t -> () -> assertTrue(SAMPLES.containsKey(t), t + " has no samples")));
  }

  // ---------------------------------------------------------------------------------------------------------
  // a) Our text is PostgreSQL's text

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyType")
  void formatPrintsWhatPostgresPrints(ColumnType type) throws SQLException {
    List<Executable> checks = new ArrayList<>();
    for (String literal : SAMPLES.get(type)) {
      String printed = print(type, literal);
      checks.add(() -> {
        Object value = type.parse(printed);
        if (type == ColumnType.JSON) {
          // json keeps its input text verbatim: compare the documents, not the spelling.
          assertEquals(value, Json.parse(type.format(value)), () -> "json " + literal);
        } else {
          assertEquals(printed, type.format(value), () -> type + " literal '" + literal + "'");
        }
      });
    }
    assertAll(type + " prints as PostgreSQL", checks);
  }

  // ---------------------------------------------------------------------------------------------------------
  // b) PostgreSQL reads our text back as the same value

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyType")
  void postgresReadsBackWhatWeFormat(ColumnType type) throws SQLException {
    List<Executable> checks = new ArrayList<>();
    for (String literal : SAMPLES.get(type)) {
      String printed = print(type, literal);
      Object value = type.parse(printed);
      String ours = type.format(value);
      String again = print(type, ours);
      checks.add(() -> {
        if (type == ColumnType.JSON) {
          // json keeps our text verbatim; it must still be the same document.
          assertAll(() -> assertEquals(ours, again, "json keeps its input text"),
              () -> assertEquals(value, Json.parse(again), () -> "json " + literal));
        } else {
          assertEquals(printed, again, () -> type + " '" + ours + "' (from '" + literal + "') read back");
        }
      });
    }
    assertAll(type + " read back by PostgreSQL", checks);
  }

  /** Input forms PostgreSQL accepts read (via coerce, which takes text) to the value PostgreSQL read from them. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("everyType")
  void coerceOfPostgresInputReadsTheValuePostgresRead(ColumnType type) throws SQLException {
    List<Executable> checks = new ArrayList<>();
    for (String literal : SAMPLES.get(type)) {
      if (type == ColumnType.JSONB || (type == ColumnType.BYTEA && !literal.startsWith("\\x"))) {
        continue; // documented in the class comment: jsonb normalizes numbers; bytea reads the hex form only
      }
      String printed = print(type, literal);
      checks.add(() -> assertSameValue(type, type.parse(printed), type.coerce(literal),
          type + " input '" + literal + "' (PostgreSQL read '" + printed + "')"));
    }
    assertAll(type + " input", checks);
  }

  // ---------------------------------------------------------------------------------------------------------
  // c) JSON, as docs/protocol.md "Values" says

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyType")
  void jsonRoundTripsEveryValue(ColumnType type) throws SQLException {
    List<Executable> checks = new ArrayList<>();
    for (String literal : SAMPLES.get(type)) {
      Object value = type.parse(print(type, literal));
      checks.add(() -> {
        JsonValue json = type.toJson(value);
        assertNotEquals(JsonNull.NULL, json, "only SQL NULL is JSON null");
        Object back = type.fromJson(Json.parse(Json.write(json)), "x");
        assertSameValue(type, value, back, type + " '" + literal + "' via " + Json.write(json));
      });
    }
    assertAll(type + " through JSON", checks);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyType")
  void jsonEncodingFollowsTheProtocol(ColumnType type) throws SQLException {
    List<Executable> checks = new ArrayList<>();
    for (String literal : SAMPLES.get(type)) {
      String printed = print(type, literal);
      Object value = type.parse(printed);
      JsonValue json = type.toJson(value);
      String sql = "(?::" + type.sqlName() + ")";
      switch (type.sqlName()) {
        case "int8", "numeric" -> checks.add(() -> assertEquals(new JsonString(printed), json,
            () -> type + " travels as a string of PostgreSQL's exact digits"));
        case "int2", "int4", "float4", "float8", "bool", "text", "varchar", "uuid", "date", "text[]" -> {
          // to_json prints numbers as numbers and NaN/Infinity as strings, dates and text as strings:
          // exactly the protocol's encoding for these types.
          String server = one("SELECT to_json" + sql + "::text", literal);
          checks.add(() -> assertEquals(server, Json.write(json), () -> type + " '" + literal + "' as to_json"));
        }
        case "int8[]" -> {
          // int8 elements travel as strings: to_json of the array cast to text[] spells that.
          String server = one("SELECT to_json(" + sql + "::text[])::text", literal);
          checks.add(() -> assertEquals(server, Json.write(json), () -> "int8[] '" + literal + "'"));
        }
        case "bytea" -> {
          String server = one("SELECT replace(encode" + sql.replace(")", ", 'base64')") + ", E'\\n', '')",
              literal);
          checks.add(() -> assertEquals(new JsonString(server), json, () -> "bytea '" + literal + "' as base64"));
        }
        case "json", "jsonb" -> checks.add(() -> assertEquals(Json.parse(printed), json,
            () -> type + " is embedded, not a string"));
        case "timestamp", "timestamptz" -> {
          boolean zone = type == ColumnType.TIMESTAMPTZ;
          // Microseconds since 2000-01-01 (PostgreSQL's epoch): extract(epoch) of the timestamp itself rounds
          // near 294276 AD, where the count since 1970 passes int64; that of an interval is exact.
          String epochMicros = one("SELECT CASE WHEN isfinite" + sql + " THEN (extract(epoch FROM " + sql
              + " - '2000-01-01 00:00+00'::" + type.sqlName() + ") * 1000000)::numeric(40, 0)::text END",
              literal, literal);
          String toJson = one("SELECT to_json" + sql + "::text", literal);
          checks.add(() -> checkIsoTimestamp(zone, literal, json, epochMicros, toJson));
        }
        default -> throw new AssertionError("no JSON rule for " + type);
      }
    }
    assertAll(type + " JSON encoding", checks);
  }

  private static final Pattern ISO = Pattern.compile(
      "([+-]\\d{6}|\\d{4})-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d{0,5}[1-9])?");

  private static void checkIsoTimestamp(boolean zone, String literal, JsonValue json, String epochMicros,
      String toJson) {
    JsonString s = assertInstanceOf(JsonString.class, json, "timestamps travel as strings");
    String iso = s.value();
    if (epochMicros == null) {
      assertEquals(toJson, Json.write(json), "infinity travels as PostgreSQL spells it");
      return;
    }
    String local = zone ? iso.substring(0, iso.length() - 1) : iso;
    assertAll(literal,
        () -> assertEquals(zone, iso.endsWith("Z"), () -> iso + ": Z exactly for timestamptz"),
        () -> assertTrue(ISO.matcher(local).matches(), () -> iso + ": ISO 8601, at most 6 fraction digits, "
            + "no trailing zeros"),
        () -> {
          Instant instant = zone ? Instant.parse(iso) : LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC);
          Instant y2k = Instant.parse("2000-01-01T00:00:00Z");
          long micros = Math.addExact(Math.multiplyExact(instant.getEpochSecond() - y2k.getEpochSecond(), 1_000_000L),
              instant.getNano() / 1000);
          assertEquals(Long.parseLong(epochMicros), micros, () -> iso + " names the instant PostgreSQL holds");
        },
        () -> {
          if (iso.charAt(0) != '+' && iso.charAt(0) != '-' && !iso.startsWith("0000")) {
            // to_json prints the same ISO text, with +00:00 for Z.
            assertEquals(toJson, Json.write(new JsonString(zone ? local + "+00:00" : iso)), "as to_json");
          }
        });
  }

  // ---------------------------------------------------------------------------------------------------------
  // d) Order and equality

  @ParameterizedTest(name = "{0}")
  @MethodSource("comparableTypes")
  void comparesAndOrdersLikePostgres(ColumnType type) throws SQLException {
    List<String> printed = new ArrayList<>();
    for (String literal : SAMPLES.get(type)) {
      printed.add(print(type, literal));
    }
    List<Object> values = printed.stream().map(type::parse).toList();
    String cast = "::" + type.sqlName() + (type.textual() ? " COLLATE \"C\"" : "");

    List<Integer> server = new ArrayList<>();
    try (PreparedStatement ps = pg.prepareStatement("SELECT i FROM unnest(?::text[]) WITH ORDINALITY u(t, i) "
        + "ORDER BY t" + cast + ", i")) {
      ps.setArray(1, pg.createArrayOf("text", printed.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          server.add(rs.getInt(1) - 1);
        }
      }
    }
    List<Integer> ours = new ArrayList<>(IntStream.range(0, values.size()).boxed().toList());
    Collections.sort(ours, Comparator.comparing(values::get, type::compare)); // stable, as ", i" above

    List<Executable> checks = new ArrayList<>();
    checks.add(() -> assertEquals(texts(printed, server), texts(printed, ours), type + " sorts as ORDER BY"));
    try (PreparedStatement ps = pg.prepareStatement("SELECT a.i, b.i, CASE WHEN a.t" + cast + " < b.t" + cast
        + " THEN -1 WHEN a.t" + cast + " = b.t" + cast + " THEN 0 ELSE 1 END "
        + "FROM unnest(?::text[]) WITH ORDINALITY a(t, i), unnest(?::text[]) WITH ORDINALITY b(t, i)")) {
      ps.setArray(1, pg.createArrayOf("text", printed.toArray()));
      ps.setArray(2, pg.createArrayOf("text", printed.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          int a = rs.getInt(1) - 1;
          int b = rs.getInt(2) - 1;
          int expected = rs.getInt(3);
          checks.add(() -> assertEquals(expected, Integer.signum(type.compare(values.get(a), values.get(b))),
              () -> type + " compare('" + printed.get(a) + "', '" + printed.get(b) + "') as <, = and >"));
        }
      }
    }
    assertAll(type + " order", checks);
  }

  @Test
  void floatEqualityFollowsPostgresForNanAndNegativeZero() throws SQLException {
    assertAll(
        () -> assertEquals("t", one("SELECT 'NaN'::float8 = 'NaN'::float8")),
        () -> assertEquals(0, ColumnType.FLOAT8.compare(Double.NaN, Double.NaN), "NaN = NaN"),
        () -> assertEquals("t", one("SELECT '-0'::float4 = '0'::float4")),
        () -> assertEquals(0, ColumnType.FLOAT4.compare(-0.0f, 0.0f), "-0 = 0"),
        () -> assertEquals("t", one("SELECT 'NaN'::float8 > 'Infinity'::float8")),
        () -> assertTrue(ColumnType.FLOAT8.compare(Double.NaN, Double.POSITIVE_INFINITY) > 0, "NaN above all"),
        () -> assertEquals("t", one("SELECT 1.0::numeric = 1.00::numeric AND 'NaN'::numeric = 'NaN'::numeric")),
        () -> assertEquals(0, ColumnType.NUMERIC.compare(PgNumeric.parse("1.0"), PgNumeric.parse("1.00"))));
  }

  // ---------------------------------------------------------------------------------------------------------
  // Floats beyond the listed edges, and type names

  @Test
  void floatsPrintLikePostgresForRandomBitPatterns() throws SQLException {
    SplittableRandom random = new SplittableRandom(20240229L);
    List<String> doubles = new ArrayList<>();
    List<String> floats = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      double d = Double.longBitsToDouble(random.nextLong());
      float f = Float.intBitsToFloat(random.nextInt());
      // Subnormals and small magnitudes, where shortest digits are most often wrong.
      double small = Double.longBitsToDouble(random.nextLong(0, 1L << 53));
      float smallF = Float.intBitsToFloat(random.nextInt(0, 1 << 24));
      for (double x : new double[] {d, small}) {
        if (!Double.isNaN(x)) {
          doubles.add(Double.toString(x)); // round-trips exactly, so the server reads the same double
        }
      }
      for (float x : new float[] {f, smallF}) {
        if (!Float.isNaN(x)) {
          floats.add(Float.toString(x));
        }
      }
    }
    List<Executable> checks = new ArrayList<>();
    addPrintChecks(checks, ColumnType.FLOAT8, doubles);
    addPrintChecks(checks, ColumnType.FLOAT4, floats);
    assertAll("random floats", checks);
  }

  private static void addPrintChecks(List<Executable> checks, ColumnType type, List<String> literals)
      throws SQLException {
    try (PreparedStatement ps = pg.prepareStatement("SELECT t, t::" + type.sqlName()
        + " FROM unnest(?::text[]) WITH ORDINALITY u(t, i) ORDER BY i")) {
      ps.setArray(1, pg.createArrayOf("text", literals.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String literal = rs.getString(1);
          String printed = rs.getString(2);
          checks.add(() -> assertAll(
              () -> assertEquals(printed, type.format(type.coerce(literal)), () -> type + " " + literal),
              () -> assertEquals(printed, type.format(type.parse(printed)), () -> type + " " + printed)));
        }
      }
    }
  }

  @Test
  void everyNameAndAliasNamesTheTypePostgresGivesIt() throws SQLException {
    Map<String, ColumnType> names = new LinkedHashMap<>();
    for (ColumnType t : ColumnType.ALL) {
      names.put(t.sqlName(), t);
    }
    names.putAll(Map.ofEntries(Map.entry("integer", ColumnType.INT4), Map.entry("int", ColumnType.INT4),
        Map.entry("bigint", ColumnType.INT8), Map.entry("smallint", ColumnType.INT2),
        Map.entry("boolean", ColumnType.BOOL), Map.entry("character varying", ColumnType.VARCHAR),
        Map.entry("double precision", ColumnType.FLOAT8), Map.entry("real", ColumnType.FLOAT4),
        Map.entry("timestamp with time zone", ColumnType.TIMESTAMPTZ),
        Map.entry("timestamp without time zone", ColumnType.TIMESTAMP), Map.entry("_text", ColumnType.TEXT_ARRAY),
        Map.entry("_int8", ColumnType.INT8_ARRAY), Map.entry("bigint[]", ColumnType.INT8_ARRAY)));
    List<Executable> checks = new ArrayList<>();
    for (Map.Entry<String, ColumnType> e : names.entrySet()) {
      String server = one("SELECT to_regtype(?)::oid = to_regtype(?)::oid", e.getKey(), e.getValue().sqlName());
      checks.add(() -> assertAll(
          () -> assertEquals(e.getValue(), ColumnType.named(e.getKey()), e.getKey()),
          () -> assertEquals("t", server, () -> "PostgreSQL reads '" + e.getKey() + "' as " + e.getValue())));
    }
    assertAll("type names", checks);
  }

  @Test
  void arrayElementsWithPostgresWhitespaceAreQuotedAndOthersAreNot() throws SQLException {
    // array_out quotes an element holding scanner_isspace's characters (src/backend/parser/scansup.c) and no
    // other: a no-break space or an em space goes unquoted.
    List<String> elements = List.of("a b", "a\tb", "a\nb", "a\rb", "a\u000bb", "a\fb", "a\u00a0b", "a\u2003b",
        "a\u001cb", "\u0001", "x\u0085");
    List<Executable> checks = new ArrayList<>();
    for (String e : elements) {
      String printed = one("SELECT ARRAY[?::text]::text", e);
      checks.add(() -> assertEquals(printed, ColumnType.TEXT_ARRAY.format(List.of(e)),
          () -> "element " + e.codePoints().mapToObj(Integer::toHexString).toList()));
      checks.add(() -> assertEquals(List.of(e), ColumnType.TEXT_ARRAY.parse(printed), () -> "parse " + printed));
    }
    assertAll("array quoting", checks);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Helpers

  /** What PostgreSQL prints for {@code literal} read as {@code type}. */
  private static String print(ColumnType type, String literal) throws SQLException {
    return one("SELECT ?::" + type.sqlName(), literal);
  }

  /** The one text value of {@code sql}, each {@code ?} bound to a parameter of unknown type (as a literal). */
  private static String one(String sql, String... params) throws SQLException {
    try (PreparedStatement ps = pg.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i], Types.OTHER);
      }
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next(), sql);
        String s = rs.getString(1);
        assertFalse(rs.next(), sql);
        return s;
      }
    } catch (SQLException e) {
      throw new SQLException(e.getMessage() + " for " + sql + " " + List.of(params), e);
    }
  }

  private static List<String> texts(List<String> printed, List<Integer> order) {
    return order.stream().map(printed::get).toList();
  }

  /**
   * The same value: json by its document; every other type by PostgreSQL's text (which tells {@code -0} from
   * {@code 0} and {@code 1.0} from {@code 1.00}) and, when comparable, by compare, NaN equal to itself.
   */
  private static void assertSameValue(ColumnType type, Object expected, Object actual, String what) {
    if (type == ColumnType.JSON) {
      assertEquals(expected, actual, what);
      return;
    }
    assertAll(what,
        () -> assertEquals(type.format(expected), type.format(actual), what),
        () -> {
          if (type.comparable()) {
            assertEquals(0, type.compare(expected, actual), what + " compares equal");
          } else {
            assertEquals(expected, actual, what + " equals");
          }
        });
  }

  @Test
  void timestampsCountFromPostgresEpochSoTheWholeRangeFits() throws SQLException {
    // Regression: counted from 1970 in a long, 294247-01-10 and later overflowed and were refused.
    assertAll(
        () -> assertEquals(one("SELECT to_timestamp(1709214300.5)"),
            ColumnType.TIMESTAMPTZ.format(PgTimestamp.ofEpochMillis(1_709_214_300_500L))),
        () -> assertEquals(0L, ((PgTimestamp) ColumnType.TIMESTAMP.parse("2000-01-01 00:00:00")).micros()),
        () -> assertEquals(9_223_371_331_199_999_999L,
            ((PgTimestamp) ColumnType.TIMESTAMPTZ.parse("294276-12-31 23:59:59.999999+00")).micros(),
            "END_TIMESTAMP - 1 in datatype/timestamp.h"));
  }

  @Test
  void int8AboveTwoToTheFiftyThreeKeepsEveryDigitInJson() {
    JsonValue json = ColumnType.INT8.toJson(9007199254740993L);
    assertAll(() -> assertEquals(new JsonString("9007199254740993"), json),
        () -> assertEquals(9007199254740993L, ColumnType.INT8.fromJson(json, "x")),
        () -> assertInstanceOf(JsonArray.class, ColumnType.INT8_ARRAY.toJson(List.of(1L))));
  }
}
