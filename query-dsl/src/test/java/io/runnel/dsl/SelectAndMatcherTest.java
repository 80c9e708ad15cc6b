package io.runnel.dsl;

import static io.runnel.dsl.Filter.and;
import static io.runnel.dsl.Filter.eq;
import static io.runnel.dsl.Filter.ilike;
import static io.runnel.dsl.Filter.in;
import static io.runnel.dsl.Filter.like;
import static io.runnel.dsl.Filter.neq;
import static io.runnel.dsl.Filter.not;
import static io.runnel.dsl.Order.asc;
import static io.runnel.dsl.Order.desc;
import static io.runnel.dsl.Select.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.SqlRenderer;
import io.runnel.dsl.server.SqlStatement;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** The select's derived parts and the matcher's SQL semantics on hand-picked cases. */
class SelectAndMatcherTest {

  static final EntityRef T = EntityRef.of("t").key("id")
      .columns(c -> c.int4("id").text("org").text("title").int4("n").timestamptz("at"));

  static Row row(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    for (String col : List.of("id", "org", "title", "n", "at")) {
      m.put(col, null);
    }
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return Row.of(m);
  }

  @Test
  void theRoutingKeyIsWhatTopLevelEqualitiesPin() {
    assertAll(
        () -> assertEquals(Map.of("org", "a"), select(T).where(eq("org", "a")).routingKey()),
        () -> assertEquals(Map.of("org", "a", "n", 3),
            select(T).where(and(eq("org", "a"), eq("n", 3), like("title", "x%"))).routingKey()),
        () -> assertEquals(Map.of(), select(T).where(not(eq("org", "a"))).routingKey(), "negated pins nothing"),
        () -> assertEquals(Map.of(), select(T).where(neq("org", "a")).routingKey(), "neq pins nothing"),
        () -> assertEquals(Map.of(), select(T).where(eq("org", null)).routingKey(), "= NULL pins nothing"),
        () -> assertEquals(Map.of("org", "a"), select(T).where(eq("org", "a")).where(in("n", List.of(1, 2)))
            .routingKey(), "where twice ANDs"));
  }

  @Test
  void theKeyIsAppendedAsTheLastTieBreakerUnlessOrderedAlready() {
    assertAll(
        () -> assertEquals(List.of(desc("at"), asc("id")), select(T).orderBy(desc("at")).effectiveOrder()),
        () -> assertEquals(List.of(desc("id")), select(T).orderBy(desc("id")).effectiveOrder()),
        () -> assertEquals(List.of(asc("id")), select(T).effectiveOrder()));
  }

  @Test
  void comparisonsWithNullAreUnknownAndNotOfUnknownIsUnknown() {
    Matcher m = Matcher.of(select(T).where(not(eq("n", 1))));
    assertAll(
        () -> assertEquals(Truth.UNKNOWN, m.evaluate(row("id", 1, "n", null))),
        () -> assertFalse(m.matches(row("id", 1, "n", null)), "unknown does not pass"),
        () -> assertTrue(m.matches(row("id", 1, "n", 2))),
        () -> assertEquals(Truth.UNKNOWN, Matcher.of(select(T).where(in("n", Arrays.asList(1, null))))
            .evaluate(row("id", 1, "n", 2)), "x IN (1, NULL) is unknown when x is not 1"),
        () -> assertEquals(Truth.TRUE, Matcher.of(select(T).where(in("n", Arrays.asList(1, null))))
            .evaluate(row("id", 1, "n", 1))),
        () -> assertEquals(Truth.FALSE, Matcher.of(select(T).where(and(eq("n", 1), eq("org", null))))
            .evaluate(row("id", 1, "n", 2)), "false wins over unknown in AND"));
  }

  /** Found by the sync node's hostile-input test: a NUL in a LIKE pattern reached PostgreSQL and failed the read. */
  @Test
  void aLikePatternHoldingNulIsRefusedAsInputWhenTheSelectIsBuilt() {
    InputInvalidException e = Assertions.assertThrows(
        InputInvalidException.class, () -> select(T).where(like("title", "a\u0000%")));
    InputInvalidException i = Assertions.assertThrows(
        InputInvalidException.class, () -> select(T).where(ilike("title", "\u0000")));
    assertAll(
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, e.code()),
        () -> assertTrue(e.cause().contains("NUL"), e.cause()),
        () -> assertEquals("t.title", e.path(), "the column the pattern is for"),
        () -> assertTrue(i.cause().contains("NUL"), "ILIKE too: " + i.cause()));
  }

  @Test
  void likeMatchesCodePointsAndIlikeFoldsAsciiOnly() {
    assertAll(
        () -> assertTrue(Matcher.of(select(T).where(like("title", "a_c"))).matches(row("id", 1, "title", "a😀c")),
            "_ is one code point, not one UTF-16 unit"),
        () -> assertTrue(Matcher.of(select(T).where(like("title", "50\\%"))).matches(row("id", 1, "title", "50%"))),
        () -> assertFalse(Matcher.of(select(T).where(like("title", "50\\%"))).matches(row("id", 1, "title", "500"))),
        () -> assertTrue(Matcher.of(select(T).where(ilike("title", "HELLO%")))
            .matches(row("id", 1, "title", "hello!"))),
        () -> assertFalse(Matcher.of(select(T).where(ilike("title", "É"))).matches(row("id", 1, "title", "é")),
            "under COLLATE \"C\" only ASCII letters fold"),
        () -> assertTrue(Matcher.of(select(T).where(like("title", "%a%b%")))
            .matches(row("id", 1, "title", "xxaxxbxx"))));
  }

  @Test
  void rowsOrderAsPostgresOrdersThem() {
    Matcher m = Matcher.of(select(T).orderBy(desc("n"), asc("title")));
    List<Row> rows = new ArrayList<>(List.of(
        row("id", 1, "n", 1, "title", "b"),
        row("id", 2, "n", null, "title", "a"),
        row("id", 3, "n", 1, "title", "B"),
        row("id", 4, "n", 5, "title", "\uE000"),
        row("id", 5, "n", 5, "title", "😀")));
    rows.sort(m);
    assertEquals(List.of(2, 4, 5, 3, 1), rows.stream().map(r -> r.int4("id")).toList(),
        "DESC puts NULL first; text by code point: 'B' < 'b', U+E000 < U+1F600 (unlike UTF-16 order)");
  }

  @Test
  void sqlIsParameterizedQuotedAndComparesTextUnderCollateC() {
    Entity e = Entity.of(T).table("app.t").tenant("org");
    SqlStatement s = SqlRenderer.render(e,
        select(T).where(and(like("title", "x%"), in("n", List.of(1, 2)))).orderBy(desc("at")).limit(5), "acme");
    assertAll(
        () -> assertEquals("SELECT \"id\", \"org\", \"title\", \"n\", \"at\" FROM \"app\".\"t\" WHERE "
            + "(\"title\" COLLATE \"C\" LIKE ?::text AND \"n\" IN (?::int4, ?::int4)) AND \"org\" = ?::text "
            + "ORDER BY \"at\" DESC NULLS FIRST, \"id\" ASC NULLS LAST LIMIT 5", s.sql()),
        () -> assertEquals(List.of(new SqlStatement.Parameter("x%", "text"), new SqlStatement.Parameter("1", "int4"),
            new SqlStatement.Parameter("2", "int4"), new SqlStatement.Parameter("acme", "text")), s.parameters()));
  }
}
