package io.runnel.dsl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.Json;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Runnel accepts exactly the values PostgreSQL accepts at the edges of its ranges, checked against the real server:
 * {@code numeric}'s 131072 digits before the point and 16383 after it (reported as a denial of service: {@code
 * 1e99999999} once burned CPU and memory in {@code setScale}), and {@code timestamptz}'s offsets up to ±15:59:59.
 */
@FreshDatabase
class PostgresLimitsTest {

  private static final Duration AT_ONCE = Duration.ofSeconds(5);

  /** Texts at and across each numeric limit, with the exponent forms that reach them. */
  private static final List<String> NUMERIC_EDGES = List.of(
      "1e131071", "1e131072", "-1e131071", "9.9e131071", "10e131071", "1.5e131071",
      "9".repeat(131_072), "9".repeat(131_073), "0000" + "9".repeat(131_072), "0.000001e131077", "0.000001e131078",
      "0." + "0".repeat(16_382) + "1", "0." + "0".repeat(16_383) + "1", "1." + "0".repeat(16_383),
      "1e-16383", "1e-16384", "0.5e-16382", "0.5e-16383", "0e-16383", "0e-16384", "0.0e-16383",
      "0e131072", "0e1073741823", "0e1073741824", "1e+0000000000000000005",
      "1e99999999999999999999", "12.50", "-0.00", "1e-5");

  @Test
  void numericAcceptsExactlyWhatPostgresAcceptsAtItsLimits(TestDatabase db) throws SQLException {
    List<Executable> checks = new ArrayList<>();
    try (Connection c = db.connect()) {
      for (String text : NUMERIC_EDGES) {
        String postgres = postgresText(c, "numeric", text);
        String label = text.length() > 40 ? text.substring(0, 20) + "…(" + text.length() + " chars)" : text;
        if (postgres == null) {
          checks.add(() -> {
            ValueInvalidException e = assertThrows(ValueInvalidException.class, () -> PgNumeric.parse(text),
                label + " is refused as PostgreSQL refuses it");
            assertEquals(ErrorCode.X_VALUE_INVALID, e.code(), label);
          });
        } else {
          checks.add(
              () -> assertEquals(postgres, PgNumeric.parse(text).text(), label + " reads as PostgreSQL reads it"));
        }
      }
    }
    assertAll(checks);
  }

  @Test
  void hugeExponentsAreRefusedAtOnceOnEveryWayIn() {
    assertTimeoutPreemptively(AT_ONCE, () -> assertAll(
        () -> assertThrows(ValueInvalidException.class, () -> PgNumeric.parse("1e99999999")),
        () -> assertThrows(ValueInvalidException.class, () -> PgNumeric.parse("1e-999999999")),
        () -> assertThrows(ValueInvalidException.class, () -> ColumnType.NUMERIC.coerce("1e99999999")),
        () -> assertThrows(ValueInvalidException.class,
            () -> ColumnType.NUMERIC.coerce(new BigDecimal(BigInteger.ONE, -999_999_999))),
        () -> assertThrows(ValueInvalidException.class,
            () -> ColumnType.NUMERIC.coerce(new BigDecimal(BigInteger.ONE, 999_999_999))),
        () -> assertThrows(ValueInvalidException.class, () -> PgNumeric.of(new BigDecimal("1e-999999999"))),
        () -> assertThrows(ValueInvalidException.class, () -> ColumnType.JSONB.parse("{\"a\": 1e99999999}")),
        () -> assertThrows(ValueInvalidException.class,
            () -> ColumnType.JSONB.coerce(Json.parse("[1e-999999999]"))),
        // A document built in Java skips every check; writing it still refuses at once, never expands the digits.
        () -> assertThrows(ValueInvalidException.class,
            () -> ColumnType.JSONB.format(new JsonNumber("1e99999999")))));
  }

  @Test
  void aHugeNumericInJsonIsAnInputErrorNamingThePath() {
    InputInvalidException string = assertThrows(InputInvalidException.class,
        () -> ColumnType.NUMERIC.fromJson(new JsonString("1e99999999"), "items[2].price"));
    InputInvalidException number = assertThrows(InputInvalidException.class,
        () -> ColumnType.NUMERIC.fromJson(new JsonNumber("1e-999999999"), "price"));
    InputInvalidException inDocument = assertThrows(InputInvalidException.class,
        () -> ColumnType.JSONB.fromJson(Json.parse("{\"a\": [1, 1e99999999]}"), "meta"));
    assertAll(
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, string.code()),
        () -> assertEquals("items[2].price", string.path()),
        () -> assertTrue(string.cause().contains("131072"), string.cause()),
        () -> assertEquals("price", number.path()),
        () -> assertEquals("meta.a[1]", inDocument.path()),
        () -> assertEquals(JsonObject.builder().put("a", new JsonNumber("1e5")).build(),
            ColumnType.JSONB.fromJson(Json.parse("{\"a\": 1e5}"), "meta"), "numbers in range pass"),
        () -> assertEquals(Json.parse("[1e99999999]"), ColumnType.JSON.fromJson(Json.parse("[1e99999999]"), "doc"),
            "json (not jsonb) keeps any number's text, as PostgreSQL's json does"));
  }

  @Test
  void jsonbAcceptsTheNumbersPostgresJsonbAccepts(TestDatabase db) throws SQLException {
    List<String> documents = List.of("[1e131071]", "[1e131072]", "{\"a\": 1e-16383}", "{\"a\": 1e-16384}",
        "{\"a\": [0e-16384]}");
    List<Executable> checks = new ArrayList<>();
    try (Connection c = db.connect()) {
      for (String doc : documents) {
        String postgres = postgresText(c, "jsonb", doc);
        if (postgres == null) {
          checks.add(() -> assertThrows(ValueInvalidException.class, () -> ColumnType.JSONB.parse(doc), doc));
        } else {
          checks.add(() -> assertEquals(postgres, ColumnType.JSONB.format(ColumnType.JSONB.parse(doc)), doc));
        }
      }
    }
    assertAll(checks);
  }

  @Test
  void timestamptzOffsetsReachFifteenFiftyNineFiftyNineAsInPostgres(TestDatabase db) throws SQLException {
    List<String> offsets = List.of("+15:59:59", "-15:59:59", "+15:59", "-15", "+16", "-16:00", "+16:00:00",
        "+15:60", "-15:00:60", "+99", "+00:00:01", "+05:30");
    List<Executable> checks = new ArrayList<>();
    try (Connection c = db.connect()) {
      try (Statement s = c.createStatement()) {
        s.execute("SET TIME ZONE 'UTC'");
      }
      for (String offset : offsets) {
        String text = "2024-02-29 13:45:00" + offset;
        String postgres = postgresText(c, "timestamptz", text);
        if (postgres == null) {
          checks.add(() -> {
            ValueInvalidException e = assertThrows(ValueInvalidException.class,
                () -> ColumnType.TIMESTAMPTZ.parse(text), text + " is refused as PostgreSQL refuses it");
            assertTrue(e.cause().contains("offset"), e.cause());
          });
        } else {
          checks.add(() -> assertEquals(postgres, ColumnType.TIMESTAMPTZ.format(ColumnType.TIMESTAMPTZ.parse(text)),
              text));
        }
      }
    }
    assertAll(checks);
  }

  /** PostgreSQL's text for {@code text} read as {@code type}, or null when PostgreSQL refuses it. */
  private static String postgresText(Connection c, String type, String text) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT (?::" + type + ")::text")) {
      s.setString(1, text);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getString(1);
      }
    } catch (SQLException e) {
      if (e.getSQLState() != null && (e.getSQLState().startsWith("22"))) {
        return null; // data exception: out of range, invalid text representation, datetime field overflow
      }
      throw e;
    }
  }
}
