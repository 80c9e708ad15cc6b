package io.runnel.wire;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link Json#parse(String)}: strict RFC 8259 plus I-JSON's refusals, each with its code and offset. */
class ParserTest {

  /** Parses {@code text}, expecting a refusal, and checks its code and offset. */
  private static JsonSyntaxException assertRefusedAt(String text, int offset) {
    JsonSyntaxException e = assertThrows(JsonSyntaxException.class, () -> Json.parse(text),
        () -> "expected a refusal of " + visible(text));
    assertAll("refusal of " + visible(text),
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, e.code(), "code"),
        () -> assertEquals(offset, e.offset(), () -> "offset; cause was: " + e.cause()),
        () -> assertTrue(e.cause().contains("at offset " + offset), () -> "cause names the offset: " + e.cause()),
        () -> assertTrue(e.getMessage().startsWith("X_INPUT_INVALID: "), "message starts with the code"));
    return e;
  }

  private static String visible(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      b.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c));
    }
    return b.toString();
  }

  @Nested
  class EveryJsonType {

    @Test
    void literalsParseToTheirSingletons() {
      assertAll(
          () -> assertSame(JsonNull.NULL, Json.parse("null"), "null"),
          () -> assertSame(JsonBoolean.TRUE, Json.parse("true"), "true"),
          () -> assertSame(JsonBoolean.FALSE, Json.parse("false"), "false"));
    }

    @ParameterizedTest
    @CsvSource({"0", "-0", "1", "-1", "123456789012345678901234567890", "1.5", "-0.25", "1e3", "1E3", "1e+3", "1E-3",
        "0.0e0", "2.5E+300"})
    void numbersKeepTheirExactText(String text) {
      JsonValue v = Json.parse(text);
      assertEquals(new JsonNumber(text), v, "number text is kept as is");
    }

    @Test
    void stringsObjectsAndArraysParseIntoTheTree() {
      JsonValue v = Json.parse(" { \"a\" : [ 1 , \"x\" , { } , [ ] , null ] , \"b\" : { \"c\" : true } } ");
      JsonObject expected = JsonObject.builder()
          .put("a", JsonArray.of(new JsonNumber("1"), new JsonString("x"), JsonObject.EMPTY, JsonArray.EMPTY,
              JsonNull.NULL))
          .put("b", JsonObject.builder().put("c", true).build())
          .build();
      assertEquals(expected, v);
    }

    @Test
    void objectMembersKeepTheirTextOrder() {
      JsonObject o = (JsonObject) Json.parse("{\"z\":1,\"a\":2,\"m\":3}");
      assertEquals(List.of("z", "a", "m"), List.copyOf(o.members().keySet()), "member order as parsed");
    }

    @Test
    void whitespaceOfAllFourKindsIsAllowedAroundTokens() {
      assertEquals(JsonArray.of(JsonBoolean.TRUE), Json.parse("\t\r\n [\t\r\n true\t\r\n ]\t\r\n "));
    }

    @Test
    void emptyStringAndEmptyContainersParse() {
      assertAll(
          () -> assertEquals(new JsonString(""), Json.parse("\"\"")),
          () -> assertEquals(JsonObject.EMPTY, Json.parse("{}")),
          () -> assertEquals(JsonArray.EMPTY, Json.parse("[]")));
    }
  }

  @Nested
  class Escapes {

    @Test
    void everyShortEscapeDecodesToItsCharacter() {
      assertEquals(new JsonString("\"\\/\b\f\n\r\t"), Json.parse("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""));
    }

    @Test
    void unicodeEscapesDecodeInEitherCase() {
      assertAll(
          () -> assertEquals(new JsonString("A"), Json.parse("\"\\u0041\""), "ASCII"),
          () -> assertEquals(new JsonString("\u00e9\u00e9"), Json.parse("\"\\u00e9\\u00E9\""), "lower and upper hex"),
          () -> assertEquals(new JsonString("\u0000"), Json.parse("\"\\u0000\""), "NUL may be escaped"),
          () -> assertEquals(new JsonString("\u20ac"), Json.parse("\"\\u20AC\""), "BMP"));
    }

    @Test
    void escapedSurrogatePairDecodesToOneAstralCodePoint() {
      JsonString s = (JsonString) Json.parse("\"x\\uD83D\\uDE00y\"");
      assertAll(
          () -> assertEquals("x\uD83D\uDE00y", s.value()),
          () -> assertEquals(0x1F600, s.value().codePointAt(1), "the pair is one code point"));
    }

    @Test
    void rawAstralCharacterAndRawNonAsciiAreKept() {
      assertEquals(new JsonString("\uD83D\uDE00 \u00f6 \u007f"), Json.parse("\"\uD83D\uDE00 \u00f6 \u007f\""));
    }

    @Test
    void invalidEscapeIsRefusedAtTheEscapedCharacter() {
      assertRefusedAt("\"\\x\"", 2);
    }

    @Test
    void truncatedUnicodeEscapeIsRefused() {
      assertRefusedAt("\"\\u12\"", 3);
    }

    @Test
    void nonHexDigitInUnicodeEscapeIsRefusedAtThatDigit() {
      assertRefusedAt("\"\\u12g4\"", 5);
    }

    @Test
    void nonAsciiDigitsInAUnicodeEscapeAreRefused() {
      assertAll(
          () -> assertRefusedAt("\"\\u\u0660\u0660\u0664\u0661\"", 3),
          () -> assertRefusedAt("\"\\u\uFF10\uFF10\uFF14\uFF21\"", 3));
    }
  }

  @Nested
  class Refusals {

    @Test
    void trailingCommaInArrayIsRefusedAtTheClosingBracket() {
      assertRefusedAt("[1,]", 3);
    }

    @Test
    void trailingCommaInObjectIsRefusedWhereTheNameShouldBe() {
      assertRefusedAt("{\"a\":1,}", 7);
    }

    @ParameterizedTest(name = "{0} at {1}")
    @CsvSource(delimiter = '|', value = {
        "01|0", "-01|0", "00|0", "1.|0", "1.e3|0", ".5|0", "+1|0", "-|0", "1e|0", "1e+|0", "--1|0", "1.5.2|0",
        "[01]|1", "[1, -]|4", "0x10|1", "1 2|2", "NaN|0", "Infinity|0", "-Infinity|0"})
    void malformedNumberIsRefusedWhereItStarts(String text, int offset) {
      assertRefusedAt(text, offset);
    }

    @Test
    void leadingZeroMessageNamesTheMalformedNumber() {
      JsonSyntaxException e = assertRefusedAt("01", 0);
      assertTrue(e.cause().contains("malformed number '01'"), e.cause());
    }

    @Test
    void everyUnescapedControlCharacterIsRefusedAtItsOffset() {
      for (char c = 0; c < 0x20; c++) {
        assertRefusedAt("\"ab" + c + "\"", 3);
      }
    }

    @Test
    void rawLoneHighSurrogateIsRefused() {
      assertAll(
          () -> assertRefusedAt("\"a\uD800b\"", 2),
          () -> assertRefusedAt("\"a\uD800\"", 2),
          () -> assertRefusedAt("\"\uD800", 1));
    }

    @Test
    void rawLoneLowSurrogateIsRefused() {
      assertAll(
          () -> assertRefusedAt("\"a\uDC00b\"", 2),
          () -> assertRefusedAt("\"\uDE00\uD83D\"", 1));
    }

    @Test
    void escapedLoneHighSurrogateIsRefused() {
      assertAll(
          () -> assertRefusedAt("\"\\uD800\"", 7),
          () -> assertRefusedAt("\"\\uD800x\"", 7),
          () -> assertRefusedAt("\"\\uD800\\u0041\"", 13),
          () -> assertRefusedAt("\"\\uD800\\uD800\"", 13));
    }

    @Test
    void escapedLoneLowSurrogateIsRefused() {
      assertRefusedAt("\"\\uDC00\"", 7);
    }

    @Test
    void escapedHighSurrogateWithRawLowSurrogateIsRefused() {
      // The raw low surrogate is itself a lone surrogate in the JSON text.
      assertRefusedAt("\"\\uD83D\uDE00\"", 7);
    }

    @Test
    void duplicateMemberNameIsRefusedWithItsOffset() {
      JsonSyntaxException e = assertRefusedAt("{\"a\":1,\"a\":2}", 7);
      assertTrue(e.cause().contains("duplicate member name 'a'"), e.cause());
    }

    @Test
    void duplicateMemberNameIsRefusedInNestedObjectsAndWhenSpelledWithEscapes() {
      assertAll(
          () -> assertRefusedAt("[{\"b\":{\"x\":1, \"x\":1}}]", 14),
          () -> assertRefusedAt("{\"A\":1,\"\\u0041\":1}", 7));
    }

    @Test
    void sameNameInSiblingObjectsIsAllowed() {
      assertEquals(2, ((JsonArray) Json.parse("[{\"a\":1},{\"a\":2}]")).size());
    }

    @Test
    void nestingOf512IsAllowedAnd513IsRefusedAtTheTooDeepBracket() {
      String ok = "[".repeat(512) + "]".repeat(512);
      String tooDeep = "[".repeat(513) + "]".repeat(513);
      String tooDeepObjects = "{\"a\":".repeat(512) + "{}" + "}".repeat(512);
      assertAll(
          () -> assertEquals(512, Json.MAX_PARSE_DEPTH, "the guard"),
          () -> assertEquals(512, depthOf(Json.parse(ok)), "512 levels parse"),
          () -> assertRefusedAt(tooDeep, 512),
          () -> assertRefusedAt(tooDeepObjects, 512 * 5));
    }

    private static int depthOf(JsonValue v) {
      int d = 0;
      while (v instanceof JsonArray a) {
        d++;
        v = a.size() == 0 ? null : a.get(0);
      }
      return d;
    }

    @Test
    void trailingTextIsRefusedWhereItStarts() {
      assertAll(
          () -> assertRefusedAt("{} x", 3),
          () -> assertRefusedAt("1 2", 2),
          () -> assertRefusedAt("truex", 4),
          () -> assertRefusedAt("[]]", 2),
          () -> assertRefusedAt("\"a\"\"b\"", 3));
    }

    @Test
    void emptyInputIsRefusedAtOffsetZero() {
      JsonSyntaxException e = assertRefusedAt("", 0);
      assertTrue(e.cause().contains("unexpected end of input"), e.cause());
    }

    @Test
    void whitespaceOnlyInputIsRefusedAtItsEnd() {
      assertRefusedAt(" \t\r\n", 4);
    }

    @Test
    void whitespaceOutsideRfc8259IsRefused() {
      assertAll(
          () -> assertRefusedAt("\u00a0 1", 0),
          () -> assertRefusedAt("\f1", 0),
          () -> assertRefusedAt("\uFEFF1", 0));
    }

    @Test
    void truncatedDocumentsAreRefusedAtTheirEnd() {
      assertAll(
          () -> assertRefusedAt("[1", 2),
          () -> assertRefusedAt("{\"a\"", 4),
          () -> assertRefusedAt("{\"a\":", 5),
          () -> assertRefusedAt("\"abc", 4),
          () -> assertRefusedAt("\"abc\\", 5));
    }

    @Test
    void misspelledLiteralsAndStrayTokensAreRefused() {
      assertAll(
          () -> assertRefusedAt("nul", 0),
          () -> assertRefusedAt("True", 0),
          () -> assertRefusedAt("[1 2]", 3),
          () -> assertRefusedAt("{\"a\" 1}", 5),
          () -> assertRefusedAt("{a:1}", 1),
          () -> assertRefusedAt("{'a':1}", 1),
          () -> assertRefusedAt("['a']", 1),
          () -> assertRefusedAt("{\"a\":1 \"b\":2}", 7));
    }

    @Test
    void refusalBodyHasTheCodeCauseAndFix() {
      JsonSyntaxException e = assertRefusedAt("[", 1);
      JsonObject body = e.toJson();
      assertAll(
          () -> assertEquals(List.of("code", "cause", "fix"), List.copyOf(body.members().keySet())),
          () -> assertEquals(new JsonString("X_INPUT_INVALID"), body.get("code"), "code"),
          () -> assertEquals(new JsonString(e.cause()), body.get("cause"), "cause"),
          () -> assertEquals(new JsonString(e.fix()), body.get("fix"), "fix"));
    }
  }
}
