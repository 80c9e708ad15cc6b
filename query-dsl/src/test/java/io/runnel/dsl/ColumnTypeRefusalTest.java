package io.runnel.dsl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.Json;
import io.runnel.wire.JsonValue;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every column type refuses, and how: malformed PostgreSQL text and Java values with {@code X_VALUE_INVALID}
 * and a message naming the type and the value; JSON of the wrong shape with {@code X_INPUT_INVALID} naming the field
 * path; and unsupported type names.
 */
class ColumnTypeRefusalTest {

  // ---------------------------------------------------------------------------------------------------------
  // parse: PostgreSQL text

  static Stream<Arguments> malformedText() {
    return Stream.of(
        Arguments.of(ColumnType.TEXT, List.of("nul \u0000 inside")),
        Arguments.of(ColumnType.VARCHAR, List.of("\u0000")),
        Arguments.of(ColumnType.UUID, List.of("not-a-uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1",
            "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111", "-a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
            "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-", "g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
            "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11", "")),
        Arguments.of(ColumnType.INT2, List.of("32768", "-32769", "1.5", "", "abc", "1e3", "١")),
        Arguments.of(ColumnType.INT4, List.of("2147483648", "-2147483649", "1.0", "12 3", "--1")),
        Arguments.of(ColumnType.INT8, List.of("9223372036854775808", "-9223372036854775809",
            "99999999999999999999", "1.", "- 1")),
        Arguments.of(ColumnType.FLOAT4, List.of("abc", "3.5e38", "1e-50", "", "1.2.3", "infinit", "1e")),
        Arguments.of(ColumnType.FLOAT8, List.of("1e309", "-1e309", "1e-400", "NaN1", "1,5", "e5")),
        Arguments.of(ColumnType.NUMERIC, List.of("abc", "1.2.3", "", "1e", "NaNa", "--1", "1,5")),
        Arguments.of(ColumnType.BOOL, List.of("maybe", "", "yes please", "2")),
        Arguments.of(ColumnType.DATE, List.of("2024-02-30", "2023-02-29", "2024-13-01", "2024-00-10",
            "4714-11-23 BC", "5874898-01-01", "infinityx", "2024-02-29 junk", "0000-01-01 BC",
            "２０２４-02-29", "2024-02-2٩")),
        Arguments.of(ColumnType.TIMESTAMP, List.of("2024-02-29 13:45:00+00", "2024-02-29 13:45:00Z",
            "2024-02-29 25:00:00", "2024-02-29 13:60:00", "2024-02-29 13:45:00.1234567", "2024-02-29 13",
            "294277-01-01 00:00:00", "4714-11-23 23:59:59 BC", "5874897-12-31 00:00:00",
            "2024-02-29 13:45:00.٥", "2024-02-29 24:00:01")),
        Arguments.of(ColumnType.TIMESTAMPTZ, List.of("2024-02-29 13:45:00", "2024-02-29T13:45:00.5",
            "294276-12-31 23:59:59.999999-01", "2024-02-29 13:45:00.1234567Z", "4714-11-24 00:00:00+01 BC")),
        Arguments.of(ColumnType.JSON, List.of("{", "{\"a\":1,\"a\":2}", "[1,]", "'single'", "")),
        Arguments.of(ColumnType.JSONB, List.of("}", "{\"a\":1,\"a\":2}", "NaN", "tru")),
        Arguments.of(ColumnType.BYTEA, List.of("\\x0", "\\xzz", "\\x１２", "\\x0g", "\\x0 0")),
        Arguments.of(ColumnType.TEXT_ARRAY, List.of("{a", "a}", "{{a},{b}}", "[1:1]={a}", "{\"a}", "{a,,b}",
            "{a,}", "{,a}", "{\"a\"b}", "{a\\}", "{nul\u0000}")),
        Arguments.of(ColumnType.INT8_ARRAY, List.of("{1,x}", "{1,1.5}", "{9223372036854775808}", "{1 2}",
            "1,2")));
  }

  @Test
  void everyTypeHasMalformedTextSamples() {
    List<ColumnType> covered = malformedText().map(a -> (ColumnType) a.get()[0]).toList();
    assertEquals(ColumnType.ALL, covered);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedText")
  void parseRefusesMalformedTextNamingTheTypeAndValue(ColumnType type, List<String> texts) {
    List<Executable> checks = new ArrayList<>();
    for (String text : texts) {
      checks.add(() -> {
        ValueInvalidException e = assertThrows(ValueInvalidException.class, () -> type.parse(text),
            () -> type + " parse('" + text + "')");
        assertAll(text,
            () -> assertEquals(ErrorCode.X_VALUE_INVALID, e.code()),
            () -> assertTrue(e.cause().startsWith("The " + type.sqlName() + " value '" + text + "'"),
                () -> "names the type and the value: " + e.cause()),
            () -> assertTrue(e.fix().contains(type.sqlName()), e.fix()));
      });
    }
    assertAll(type + " refusals", checks);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedText")
  void coerceOfMalformedTextIsRefusedAsParseIs(ColumnType type, List<String> texts) {
    List<Executable> checks = new ArrayList<>();
    for (String text : texts) {
      checks.add(() -> assertEquals(ErrorCode.X_VALUE_INVALID,
          assertThrows(ValueInvalidException.class, () -> type.coerce(text), () -> type + " '" + text + "'")
              .code()));
    }
    assertAll(type + " coerce refusals", checks);
  }

  @Test
  void longValuesAreAbbreviatedInTheMessage() {
    String text = "x".repeat(200);
    ValueInvalidException e = assertThrows(ValueInvalidException.class, () -> ColumnType.UUID.parse(text));
    assertAll(() -> assertTrue(e.cause().contains("x".repeat(77) + "..."), e.cause()),
        () -> assertTrue(e.cause().length() < 160, e.cause()));
  }

  // ---------------------------------------------------------------------------------------------------------
  // fromJson: the wire

  static Stream<Arguments> wrongJson() {
    return Stream.of(
        Arguments.of(ColumnType.TEXT, List.of("5", "true", "[\"a\"]", "{}", "\"nul \\u0000\"")),
        Arguments.of(ColumnType.VARCHAR, List.of("1.5", "\"\\u0000\"")),
        Arguments.of(ColumnType.UUID, List.of("\"not-a-uuid\"", "5", "\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1\"")),
        Arguments.of(ColumnType.INT2, List.of("32768", "-32769", "1.5", "\"1\"", "1e2", "true", "1.0")),
        Arguments.of(ColumnType.INT4, List.of("2147483648", "1.5", "\"12\"", "-2147483649")),
        Arguments.of(ColumnType.INT8, List.of("1.5", "\"1.5\"", "\"9223372036854775808\"", "9223372036854775808",
            "\"01\"", "\"+1\"", "\" 1\"", "true", "\"1e3\"", "\"\"")),
        Arguments.of(ColumnType.FLOAT4, List.of("1e39", "\"abc\"", "true", "\"nan\"", "1e-50")),
        Arguments.of(ColumnType.FLOAT8, List.of("1e309", "\"NaN \"", "\"inf\"", "[1]", "1e-400")),
        Arguments.of(ColumnType.NUMERIC, List.of("true", "\"abc\"", "[]", "\"1.2.3\"")),
        Arguments.of(ColumnType.BOOL, List.of("\"true\"", "1", "\"t\"")),
        Arguments.of(ColumnType.DATE, List.of("\"2024-02-30\"", "20240229", "\"2024-02-29T00:00:00\"")),
        Arguments.of(ColumnType.TIMESTAMP, List.of("\"2024-02-29T13:45:00Z\"", "\"2024-02-29T13:45:00+01:00\"",
            "\"2024-02-29T13:45:00.1234567\"", "1709214300000")),
        Arguments.of(ColumnType.TIMESTAMPTZ, List.of("\"2024-02-29T13:45:00\"", "\"2024-02-29T13:45:00.1234567Z\"",
            "1709214300000", "\"2024-02-30T00:00:00Z\"")),
        Arguments.of(ColumnType.BYTEA, List.of("\"AB==\"", "\"AAA\"", "\"AA=A\"", "\"A===\"", "\"@@@@\"", "5",
            "\"\\\\x00\"", "\"AA==AA==\"", "\"YQ\"", "\"YR==\"")),
        Arguments.of(ColumnType.TEXT_ARRAY, List.of("\"{a}\"", "{}")),
        Arguments.of(ColumnType.INT8_ARRAY, List.of("\"{1}\"", "1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("wrongJson")
  void fromJsonRefusesTheWrongShapeNamingThePath(ColumnType type, List<String> jsonTexts) {
    List<Executable> checks = new ArrayList<>();
    for (String text : jsonTexts) {
      JsonValue json = Json.parse(text);
      checks.add(() -> {
        InputInvalidException e = assertThrows(InputInvalidException.class, () -> type.fromJson(json, "row.col"),
            () -> type + " fromJson(" + text + ")");
        assertAll(text,
            () -> assertEquals(ErrorCode.X_INPUT_INVALID, e.code()),
            () -> assertEquals("row.col", e.path()),
            () -> assertTrue(e.cause().startsWith("Field 'row.col' "), e.cause()),
            () -> assertTrue(!e.fix().isBlank(), "says what to send"));
      });
    }
    assertAll(type + " JSON refusals", checks);
  }

  @Test
  void nonCanonicalBase64IsRefusedAndCanonicalAccepted() {
    assertAll(
        () -> assertEquals(Bytes.of(new byte[] {0}), ColumnType.BYTEA.fromJson(Json.parse("\"AA==\""), "x")),
        () -> assertThrows(InputInvalidException.class, () -> ColumnType.BYTEA.fromJson(Json.parse("\"AB==\""),
            "x"), "AB== carries non-zero padding bits"),
        () -> assertEquals(Bytes.of(new byte[] {'a'}), ColumnType.BYTEA.fromJson(Json.parse("\"YQ==\""), "x")));
  }

  static Stream<Arguments> wrongArrayElements() {
    return Stream.of(
        Arguments.of(ColumnType.TEXT_ARRAY, "[\"a\", 5]", "x[1]"),
        Arguments.of(ColumnType.TEXT_ARRAY, "[1]", "x[0]"),
        Arguments.of(ColumnType.TEXT_ARRAY, "[null, \"a\", \"b\\u0000\"]", "x[2]"),
        Arguments.of(ColumnType.TEXT_ARRAY, "[[\"nested\"]]", "x[0]"),
        Arguments.of(ColumnType.INT8_ARRAY, "[\"1\", 1.5]", "x[1]"),
        Arguments.of(ColumnType.INT8_ARRAY, "[null, \"a\"]", "x[1]"),
        Arguments.of(ColumnType.INT8_ARRAY, "[\"9223372036854775808\"]", "x[0]"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("wrongArrayElements")
  void arrayRefusalsNameTheElement(ColumnType type, String json, String path) {
    InputInvalidException e = assertThrows(InputInvalidException.class,
        () -> type.fromJson(Json.parse(json), "x"));
    assertAll(() -> assertEquals(path, e.path()),
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, e.code()),
        () -> assertTrue(e.cause().startsWith("Field '" + path + "' "), e.cause()));
  }

  @Test
  void arraysAcceptNullElementsFromJson() {
    assertEquals(Arrays.asList(null, 1L), ColumnType.INT8_ARRAY.fromJson(Json.parse("[null, \"1\"]"), "x"));
  }

  // ---------------------------------------------------------------------------------------------------------
  // coerce: Java values

  static Stream<Arguments> wrongJavaValues() {
    return Stream.of(
        Arguments.of(ColumnType.TEXT, List.of(5, 'c', new StringBuilder("sb"), "nul\u0000")),
        Arguments.of(ColumnType.VARCHAR, List.of(1.5, true)),
        Arguments.of(ColumnType.UUID, List.of(UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), 5)),
        Arguments.of(ColumnType.INT2, List.of(40_000, 1.5, 7L << 40, true)),
        Arguments.of(ColumnType.INT4, List.of(3_000_000_000L, 1.5d, true, "2147483648")),
        Arguments.of(ColumnType.INT8, List.of(1.5d, "1.5", 'x', List.of(1))),
        Arguments.of(ColumnType.FLOAT4, List.of(true, "abc", 1e300)),
        Arguments.of(ColumnType.FLOAT8, List.of('x', "1e-400", true)),
        Arguments.of(ColumnType.NUMERIC, List.of(true, "x", 'c')),
        Arguments.of(ColumnType.BOOL, List.of(1, 0, "maybe")),
        Arguments.of(ColumnType.DATE, List.of(LocalDate.of(2024, 2, 29), 19782, "2024-02-30")),
        Arguments.of(ColumnType.TIMESTAMP, List.of(Instant.EPOCH, 0L, PgDate.INFINITY)),
        Arguments.of(ColumnType.TIMESTAMPTZ, List.of(Instant.EPOCH, new Date(0), "2024-02-29 00:00")),
        Arguments.of(ColumnType.JSON, List.of(Map.of("a", 1), 5, "{")),
        Arguments.of(ColumnType.JSONB, List.of(List.of(1), true)),
        Arguments.of(ColumnType.BYTEA, List.of(List.of((byte) 1), "\\xzz", 5)),
        Arguments.of(ColumnType.TEXT_ARRAY, List.of(new String[] {"a"}, List.of(1), 5)),
        Arguments.of(ColumnType.INT8_ARRAY, List.of(new long[] {1}, List.of("x"), List.of(1.5))));
  }

  @Test
  void everyTypeHasWrongJavaValueSamples() {
    assertEquals(ColumnType.ALL, wrongJavaValues().map(a -> (ColumnType) a.get()[0]).toList());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("wrongJavaValues")
  void coerceRefusesWrongJavaValues(ColumnType type, List<Object> values) {
    List<Executable> checks = new ArrayList<>();
    for (Object value : values) {
      checks.add(() -> {
        ValueInvalidException e = assertThrows(ValueInvalidException.class, () -> type.coerce(value),
            () -> type + " coerce(" + value.getClass().getSimpleName() + " " + value + ")");
        assertAll(() -> assertEquals(ErrorCode.X_VALUE_INVALID, e.code()),
            () -> assertTrue(e.cause().contains(" value '"), e.cause()));
      });
    }
    assertAll(type + " coerce refusals", checks);
  }

  @Test
  void coerceAcceptsTheTypesOwnClassAndCompatibleNumbers() {
    assertAll(
        () -> assertEquals(7, ColumnType.INT4.coerce((short) 7)),
        () -> assertEquals(7L, ColumnType.INT8.coerce(7)),
        () -> assertEquals((short) 7 + 0, ColumnType.INT2.coerce(7L)),
        () -> assertEquals(1.5f, ColumnType.FLOAT4.coerce(1.5d)),
        () -> assertEquals(2.0d, ColumnType.FLOAT8.coerce(2)),
        () -> assertEquals(PgNumeric.parse("1.50"), ColumnType.NUMERIC.coerce(new BigDecimal("1.50"))),
        () -> assertEquals(PgNumeric.parse("100"), ColumnType.NUMERIC.coerce(new BigDecimal("1E+2"))),
        () -> assertEquals("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
            ColumnType.UUID.coerce("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11")),
        () -> assertEquals(Bytes.of(new byte[] {1, 2}), ColumnType.BYTEA.coerce(new byte[] {1, 2})),
        () -> assertEquals(List.of("a", "b"), ColumnType.TEXT_ARRAY.coerce(List.of("a", "b"))),
        () -> assertSame(PgDate.INFINITY, ColumnType.DATE.coerce(PgDate.INFINITY)));
  }

  // ---------------------------------------------------------------------------------------------------------
  // ColumnType.named

  @Test
  void namedFindsEveryTypeByItsSqlName() {
    assertAll(ColumnType.ALL.stream().map(t -> () -> assertAll(
        () -> assertSame(t, ColumnType.named(t.sqlName()), t.sqlName()),
        () -> assertSame(t, ColumnType.named(" " + t.sqlName().toUpperCase() + " "), "case and space"))));
  }

  @Test
  void namedAcceptsPostgresSpellingsOfTheSameTypes() {
    Map<String, ColumnType> aliases = Map.ofEntries(Map.entry("integer", ColumnType.INT4),
        Map.entry("int", ColumnType.INT4), Map.entry("bigint", ColumnType.INT8),
        Map.entry("smallint", ColumnType.INT2), Map.entry("boolean", ColumnType.BOOL),
        Map.entry("character varying", ColumnType.VARCHAR), Map.entry("double precision", ColumnType.FLOAT8),
        Map.entry("real", ColumnType.FLOAT4), Map.entry("timestamp with time zone", ColumnType.TIMESTAMPTZ),
        Map.entry("timestamp without time zone", ColumnType.TIMESTAMP), Map.entry("_text", ColumnType.TEXT_ARRAY),
        Map.entry("_int8", ColumnType.INT8_ARRAY), Map.entry("bigint[]", ColumnType.INT8_ARRAY),
        Map.entry("Double Precision", ColumnType.FLOAT8));
    assertAll(aliases.entrySet().stream().map(e -> () -> assertSame(e.getValue(), ColumnType.named(e.getKey()),
        e.getKey())));
  }

  @ParameterizedTest
  @ValueSource(strings = {"money", "", "texts", "int4[]", "varchar(10)", "time", "interval", "json[]", "serial"})
  void namedRefusesAnUnsupportedTypeNamingIt(String name) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ColumnType.named(name));
    assertTrue(e.getMessage().contains("'" + name + "'"), e.getMessage());
  }
}
