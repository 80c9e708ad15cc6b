package io.runnel.wire;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link CanonicalJson#write(JsonValue)}: RFC 8785 (JCS). */
class CanonicalJsonTest {

  /**
   * RFC 8785, section 3.2.3, the sorting example: the input's members in the RFC's order, the output sorted by
   * UTF-16 code units (so U+1F600, a surrogate pair starting with 0xD83D, sorts before U+FB33).
   */
  @Test
  void rfc8785SortingExampleOrdersMembersByUtf16CodeUnits() {
    JsonObject input = JsonObject.builder()
        .put("\u20ac", "Euro Sign")
        .put("\r", "Carriage Return")
        .put("\ufb33", "Hebrew Letter Dalet With Dagesh")
        .put("1", "One")
        .put("\ud83d\ude00", "Emoji: Grinning Face")
        .put("\u0080", "Control")
        .put("\u00f6", "Latin Small Letter O With Diaeresis")
        .build();
    String expected = "{"
        + "\"\\r\":\"Carriage Return\","
        + "\"1\":\"One\","
        + "\"\u0080\":\"Control\","
        + "\"\u00f6\":\"Latin Small Letter O With Diaeresis\","
        + "\"\u20ac\":\"Euro Sign\","
        + "\"\ud83d\ude00\":\"Emoji: Grinning Face\","
        + "\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\""
        + "}";
    List<String> names = new ArrayList<>(input.members().keySet());
    names.sort(RoundTripProperties::compareUtf16CodeUnits);
    assertAll(
        () -> assertEquals(expected, CanonicalJson.write(input), "RFC 8785 3.2.3 output"),
        () -> assertEquals(List.of("\r", "1", "\u0080", "\u00f6", "\u20ac", "\ud83d\ude00", "\ufb33"), names,
            "the RFC's order is the UTF-16 code unit order"),
        () -> assertEquals(expected, CanonicalJson.write(Json.parse(Json.write(input))), "same after a parse"));
  }

  @Test
  void utf16OrderDiffersFromCodePointOrderForAstralCharacters() {
    // U+1F600 is greater than U+FB33 as a code point, but its first code unit 0xD83D is smaller than 0xFB33.
    JsonObject o = JsonObject.builder().put("\ufb33", 1).put("\ud83d\ude00", 2).build();
    assertEquals("{\"\ud83d\ude00\":2,\"\ufb33\":1}", CanonicalJson.write(o));
  }

  /** RFC 8785, section 3.2.2 and Appendix: the example with numbers, string escapes and literals. */
  @Test
  void rfc8785MainExampleIsCanonicalized() {
    String input = "{\n"
        + "  \"numbers\": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n"
        + "  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n"
        + "  \"literals\": [null, true, false]\n"
        + "}";
    String expected = "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
        + "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}";
    assertEquals(expected, CanonicalJson.write(Json.parse(input)));
  }

  @Test
  void nestedObjectsAreSortedAndArraysKeepTheirOrder() {
    JsonValue v = Json.parse("{\"b\":[3,1,2,{\"y\":1,\"x\":2}],\"a\":{\"d\":null,\"c\":true},\"aa\":0,\"B\":1}");
    assertEquals("{\"B\":1,\"a\":{\"c\":true,\"d\":null},\"aa\":0,\"b\":[3,1,2,{\"x\":2,\"y\":1}]}",
        CanonicalJson.write(v));
  }

  @Test
  void prefixSortsBeforeLongerName() {
    assertEquals("{\"\":1,\"a\":2,\"ab\":3,\"b\":4}",
        CanonicalJson.write(Json.parse("{\"b\":4,\"ab\":3,\"a\":2,\"\":1}")));
  }

  @Test
  void memberOrderOfTheInputDoesNotChangeTheCanonicalText() {
    assertEquals(CanonicalJson.write(Json.parse("{\"a\":1,\"b\":[{\"c\":1,\"d\":2}]}")),
        CanonicalJson.write(Json.parse("{\"b\":[{\"d\":2,\"c\":1}],\"a\":1}")));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "1.0, 1", "-0, 0", "-0.0, 0", "0e10, 0", "1E3, 1000", "1e+21, 1e+21",
      "100000000000000000000, 100000000000000000000",
      "1000000000000000000000, 1e+21", "0.0000001, 1e-7", "0.000001, 0.000001", "12.50e-1, 1.25",
      "9007199254740993, 9007199254740992", "1e-400, 0", "-1.5E-7, -1.5e-7",
      "123456789012345678901234567890, 1.2345678901234568e+29", "0.1, 0.1", "4.50, 4.5"})
  void numbersAreWrittenAsEcmaScriptWritesTheirDouble(String text, String expected) {
    assertEquals(expected, CanonicalJson.write(new JsonNumber(text)));
  }

  @Test
  void numberBeyondDoubleRangeIsRefused() {
    assertAll(
        () -> assertThrows(IllegalArgumentException.class, () -> CanonicalJson.write(new JsonNumber("1e400"))),
        () -> assertThrows(IllegalArgumentException.class,
            () -> CanonicalJson.write(JsonArray.of(new JsonNumber("-1.8e308")))));
  }

  @Test
  void canonicalTextHasNoWhitespace() {
    assertEquals("[{\"a\":[1,2]},\"a b\"]", CanonicalJson.write(Json.parse(" [ { \"a\" : [ 1 ,\n2 ] } , \"a b\" ] ")));
  }

  @Test
  void stringsUseMinimalEscapingInCanonicalForm() {
    assertEquals("\"\\u0001\\b\\t\\n\\f\\r\\u001f \\\"/\\\\\u007f\u00e9\ud83d\ude00\"",
        CanonicalJson.write(Json.parse("\"\\u0001\\u0008\\u0009\\u000A\\u000c\\u000D\\u001F\\u0020\\u0022\\/"
            + "\\u005C\\u007F\\u00E9\\uD83D\\uDE00\"")));
  }
}
