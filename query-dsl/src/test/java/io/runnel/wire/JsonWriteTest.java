package io.runnel.wire;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Json#write(JsonValue)} and the escaping it shares with {@link CanonicalJson#write(JsonValue)}. */
class JsonWriteTest {

  private static String write(String s) {
    return Json.write(new JsonString(s));
  }

  private static String canonical(String s) {
    return CanonicalJson.write(new JsonString(s));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "null", "true", "false", "0", "-0", "1.50", "1E+3", "1e-7", "123456789012345678901234567890.000", "\"\"",
      "\"a\\\"b\\\\c\\n\"", "[]", "{}", "[1,[2,[3,{}]],\"x\"]", "{\"z\":1,\"a\":{\"y\":[true,false,null]},\"m\":\"\"}",
      "\"\\u0000\\u001f\\b\\f\\n\\r\\t\"", "\"\u00e9\u20ac\uD83D\uDE00\u007f/\"", "{\"\":{\"\":[]}}"})
  void compactInputIsWrittenBackUnchanged(String text) {
    assertEquals(text, Json.write(Json.parse(text)), "write(parse(x)) == x for compact x");
  }

  @Test
  void whitespaceIsDroppedAndMemberOrderAndNumberTextAreKept() {
    assertEquals("{\"b\":1.0,\"a\":[1E2,-0]}", Json.write(Json.parse(" { \"b\" : 1.0 ,\n \"a\" : [ 1E2 , -0 ] } ")));
  }

  @Test
  void escapedSolidusAndNeedlessUnicodeEscapesAreWrittenMinimally() {
    assertEquals("\"/A\u00e9\uD83D\uDE00\"", Json.write(Json.parse("\"\\/\\u0041\\u00e9\\ud83d\\ude00\"")));
  }

  @Test
  void controlCharactersUseShortEscapesOrLowerCaseSixCharacterEscapes() {
    for (char c = 0; c < 0x20; c++) {
      String expected = switch (c) {
        case '\b' -> "\\b";
        case '\f' -> "\\f";
        case '\n' -> "\\n";
        case '\r' -> "\\r";
        case '\t' -> "\\t";
        default -> String.format("\\u%04x", (int) c);
      };
      String q = "\"" + expected + "\"";
      String s = String.valueOf(c);
      assertAll("control U+" + String.format("%04X", (int) c),
          () -> assertEquals(q, write(s), "Json.write"),
          () -> assertEquals(q, canonical(s), "CanonicalJson.write"));
    }
  }

  @Test
  void sixCharacterEscapesUseLowerCaseHex() {
    assertAll(
        () -> assertEquals("\"\\u001b\\u001f\\u000b\"", write("\u001b\u001f\u000b")),
        () -> assertEquals("\"\\u001b\\u001f\\u000b\"", canonical("\u001b\u001f\u000b")));
  }

  @Test
  void quoteAndBackslashAreEscaped() {
    assertAll(
        () -> assertEquals("\"a\\\"b\\\\c\"", write("a\"b\\c")),
        () -> assertEquals("\"a\\\"b\\\\c\"", canonical("a\"b\\c")));
  }

  @Test
  void delSolidusAndNonAsciiAreWrittenAsThemselves() {
    String s = "\u007f/\u0080\u00f6\u2028\u2029\u20ac\uFEFF\uFFFF\uD83D\uDE00\uDBFF\uDFFF";
    assertAll(
        () -> assertEquals("\"" + s + "\"", write(s), "Json.write"),
        () -> assertEquals("\"" + s + "\"", canonical(s), "CanonicalJson.write"));
  }

  @Test
  void loneSurrogatesAreEscapedByJsonWrite() {
    assertAll(
        () -> assertEquals("\"a\\ud800b\"", write("a\uD800b"), "lone high"),
        () -> assertEquals("\"a\\udc00b\"", write("a\uDC00b"), "lone low"),
        () -> assertEquals("\"\\ud800\"", write("\uD800"), "high at the end"),
        () -> assertEquals("\"\\udfff\"", write("\uDFFF"), "low at the start"),
        () -> assertEquals("\"\\udc00\\ud800\"", write("\uDC00\uD800"), "reversed pair is two lone surrogates"),
        () -> assertEquals("\"\\ud800\uD800\uDC00\"", write("\uD800\uD800\uDC00"), "lone high before a pair"),
        () -> assertEquals("\"\uD800\uDC00\\udc00\"", write("\uD800\uDC00\uDC00"), "lone low after a pair"));
  }

  @Test
  void loneSurrogateInMemberNameIsEscapedByJsonWrite() {
    assertEquals("{\"\\ud83d\":1}", Json.write(JsonObject.builder().put("\uD83D", 1).build()));
  }

  @Test
  void loneSurrogatesMakeCanonicalJsonThrow() {
    assertAll(
        () -> assertThrows(IllegalArgumentException.class, () -> canonical("a\uD800b"), "lone high"),
        () -> assertThrows(IllegalArgumentException.class, () -> canonical("a\uDC00"), "lone low"),
        () -> assertThrows(IllegalArgumentException.class, () -> canonical("\uDC00\uD800"), "reversed pair"),
        () -> assertThrows(IllegalArgumentException.class,
            () -> CanonicalJson.write(JsonObject.builder().put("\uD800", 1).build()), "in a member name"),
        () -> assertThrows(IllegalArgumentException.class,
            () -> CanonicalJson.write(JsonArray.of(JsonNull.NULL, new JsonString("\uDFFF"))), "nested"));
  }

  @Test
  void escapedLoneSurrogateOutputIsRefusedByTheParser() {
    // Json.write keeps a lone surrogate visible, but it is not I-JSON: the parser refuses it again.
    String text = write("\uD800");
    JsonSyntaxException e = assertThrows(JsonSyntaxException.class, () -> Json.parse(text));
    assertEquals(ErrorCode.X_INPUT_INVALID, e.code());
  }

  @Test
  void toStringOfValuesIsTheirCompactJson() {
    JsonObject o = JsonObject.builder().put("a", "x\n").put("b", JsonArray.of(JsonNumber.of(1), JsonNull.NULL))
        .build();
    assertAll(
        () -> assertEquals("{\"a\":\"x\\n\",\"b\":[1,null]}", o.toString(), "object"),
        () -> assertEquals("[1,null]", o.get("b").toString(), "array"),
        () -> assertEquals("\"x\\n\"", o.get("a").toString(), "string"),
        () -> assertTrue(JsonNull.NULL.toString().equals("null") && JsonBoolean.TRUE.toString().equals("true"),
            "literals"));
  }
}
