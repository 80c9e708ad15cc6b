package io.runnel.wire;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link JsonCodec} and {@link ObjectReader}: decoding validates and names the failing field's path. */
class CodecTest {

  record Item(String name, int qty, long big, boolean on, List<String> tags) {
    static final JsonCodec<Item> CODEC = JsonCodec.object(
        r -> new Item(r.text("name"), r.int4("qty"), r.int8("big"), r.bool("on"), r.list("tags", JsonCodec.text())),
        (i, w) -> w.put("name", i.name()).put("qty", i.qty()).put("big", Long.toString(i.big())).put("on", i.on())
            .put("tags", JsonArray.ofStrings(i.tags())));
  }

  record Order(String id, List<Item> items, @Nullable String note, @Nullable Item gift) {
    static final JsonCodec<Order> CODEC = JsonCodec.object(
        r -> new Order(r.text("id"), r.list("items", Item.CODEC), r.optionalText("note"),
            r.optional("gift", Item.CODEC)),
        (o, w) -> {
          w.put("id", o.id()).put("items", JsonCodec.list(Item.CODEC).encode(o.items()));
          if (o.note() != null) {
            w.put("note", o.note());
          }
          if (o.gift() != null) {
            w.put("gift", Item.CODEC.encode(o.gift()));
          }
        });
  }

  private static final String ITEM = "{\"name\":\"pen\",\"qty\":2,\"big\":\"9007199254740993\",\"on\":true,"
      + "\"tags\":[\"a\",\"b\"]}";

  /** Decodes {@code json} with {@code codec}, expecting an X_INPUT_INVALID naming {@code path}. */
  private static InputInvalidException assertInvalid(JsonCodec<?> codec, String json, String path) {
    InputInvalidException e = assertThrows(InputInvalidException.class, () -> codec.decode(Json.parse(json)),
        () -> "expected a refusal of " + json);
    String described = path.isEmpty() ? "The input " : "Field '" + path + "' ";
    assertAll("refusal of " + json,
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, e.code(), "code"),
        () -> assertEquals(path, e.path(), () -> "path; cause was: " + e.cause()),
        () -> assertTrue(e.cause().startsWith(described), () -> "cause names the path: " + e.cause()),
        () -> assertFalse(e.fix().isBlank(), "a fix"));
    return e;
  }

  private static String item(String member, String replacement) {
    JsonObject o = (JsonObject) Json.parse(ITEM);
    JsonObject.Builder b = JsonObject.builder();
    o.members().forEach((k, v) -> b.put(k, k.equals(member) ? Json.parse(replacement) : v));
    return Json.write(b.build());
  }

  @Nested
  class RecordCodec {

    @Test
    void validItemDecodesEveryField() {
      Item i = Item.CODEC.decode(Json.parse(ITEM));
      assertEquals(new Item("pen", 2, 9007199254740993L, true, List.of("a", "b")), i);
    }

    @Test
    void encodeThenDecodeIsTheSameRecord() {
      Item i = new Item("\u00e9\ud83d\ude00\n", Integer.MIN_VALUE, Long.MIN_VALUE, false, List.of());
      JsonValue json = Item.CODEC.encode(i);
      assertAll(
          () -> assertEquals(i, Item.CODEC.decode(json), "decode(encode(i))"),
          () -> assertEquals(i, Item.CODEC.decode(Json.parse(Json.write(json))), "through text"),
          () -> assertEquals(new JsonString("-9223372036854775808"), ((JsonObject) json).get("big"),
              "int8 is encoded as a string of digits"));
    }

    @Test
    void memberOrderDoesNotMatter() {
      Item i = Item.CODEC.decode(Json.parse(
          "{\"tags\":[],\"on\":false,\"big\":1,\"qty\":0,\"name\":\"\"}"));
      assertEquals(new Item("", 0, 1, false, List.of()), i);
    }

    @ParameterizedTest
    @ValueSource(strings = {"name", "qty", "big", "on", "tags"})
    void missingFieldIsRefusedNamingIt(String field) {
      JsonObject o = (JsonObject) Json.parse(ITEM);
      JsonObject.Builder b = JsonObject.builder();
      o.members().forEach((k, v) -> {
        if (!k.equals(field)) {
          b.put(k, v);
        }
      });
      InputInvalidException e = assertInvalid(Item.CODEC, Json.write(b.build()), field);
      assertAll(
          () -> assertTrue(e.cause().endsWith("is missing."), e.cause()),
          () -> assertTrue(e.fix().contains("'" + field + "'"), e.fix()));
    }

    @Test
    void unknownFieldIsRefusedNamingIt() {
      String json = ITEM.replace("{", "{\"colour\":\"red\",");
      InputInvalidException e = assertInvalid(Item.CODEC, json, "colour");
      assertAll(
          () -> assertTrue(e.cause().contains("is not a known field"), e.cause()),
          () -> assertTrue(e.fix().contains("name") && e.fix().contains("tags"), "fix lists the known fields"));
    }

    @Test
    void missingFieldIsReportedBeforeAnUnknownOne() {
      assertInvalid(Item.CODEC, "{\"colour\":1}", "name");
    }

    @Test
    void nullForARequiredFieldIsAWrongType() {
      InputInvalidException e = assertInvalid(Item.CODEC, item("name", "null"), "name");
      assertTrue(e.cause().contains("must be a string, not null"), e.cause());
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "name|1|must be a string, not number",
        "name|[\"pen\"]|must be a string, not array",
        "qty|\"2\"|must be an integer, not string",
        "qty|true|must be an integer, not boolean",
        "big|true|must be a 64-bit integer (a string of digits or a JSON integer), not boolean",
        "big|{}|not object",
        "on|\"true\"|must be a boolean, not string",
        "on|1|must be a boolean, not number",
        "tags|\"a\"|must be an array, not string",
        "tags|{}|must be an array, not object"})
    void wrongTypeIsRefusedNamingTheFieldAndBothTypes(String field, String value, String problem) {
      InputInvalidException e = assertInvalid(Item.CODEC, item(field, value), field);
      assertTrue(e.cause().contains(problem), e.cause());
    }

    @Test
    void wrongElementTypeNamesTheElement() {
      assertInvalid(Item.CODEC, item("tags", "[\"a\",\"b\",3]"), "tags[2]");
    }

    @Test
    void notAnObjectAtTheTopIsRefusedWithTheEmptyPath() {
      assertAll(
          () -> assertTrue(assertInvalid(Item.CODEC, "[]", "").cause().contains("must be an object, not array")),
          () -> assertTrue(assertInvalid(Item.CODEC, "null", "").cause().startsWith("The input must be an object")));
    }
  }

  @Nested
  class Int4 {

    private int int4(String json) {
      return JsonCodec.int4().decode(Json.parse(json));
    }

    @Test
    void edgesOfTheIntRangeAreAccepted() {
      assertAll(
          () -> assertEquals(Integer.MAX_VALUE, int4("2147483647"), "max"),
          () -> assertEquals(Integer.MIN_VALUE, int4("-2147483648"), "min"),
          () -> assertEquals(0, int4("-0"), "-0 is 0"));
    }

    @Test
    void oneBeyondEitherEdgeIsRefusedAsOutOfRange() {
      assertAll(
          () -> assertTrue(assertInvalid(JsonCodec.int4(), "2147483648", "").cause().contains("out of range")),
          () -> assertTrue(assertInvalid(JsonCodec.int4(), "-2147483649", "").cause().contains("out of range")),
          () -> assertInvalid(JsonCodec.int4(), "9223372036854775808", ""));
    }

    @Test
    void fractionIsRefused() {
      assertAll(
          () -> assertTrue(assertInvalid(JsonCodec.int4(), "1.5", "").cause().contains("not 1.5")),
          () -> assertInvalid(JsonCodec.int4(), "1e-1", ""),
          () -> assertInvalid(JsonCodec.int4(), "-0.000001", ""));
    }

    /**
     * The codec takes a JSON number's value, not its spelling: an exponent or a zero fraction that leaves a whole
     * number in range is accepted (ECMAScript cannot tell 1e2 from 100 either).
     */
    @Test
    void integerValuedExponentAndZeroFractionAreAccepted() {
      assertAll(
          () -> assertEquals(100, int4("1e2"), "1e2"),
          () -> assertEquals(100, int4("1E+2"), "1E+2"),
          () -> assertEquals(1, int4("1.0"), "1.0"),
          () -> assertEquals(12, int4("1200e-2"), "1200e-2"),
          () -> assertInvalid(JsonCodec.int4(), "1e10", ""));
    }

    @Test
    void stringDigitsAreNotAnInt4() {
      assertInvalid(JsonCodec.int4(), "\"1\"", "");
    }

    @Test
    void aHugeExponentIsInputInvalidNotACrash() {
      assertAll(
          () -> assertInvalid(JsonCodec.int4(), "1e9999999999", ""),
          () -> assertInvalid(JsonCodec.int4(), "1e-9999999999", ""),
          () -> assertInvalid(JsonCodec.int8(), "-1e-2147483649", ""),
          () -> assertInvalid(Item.CODEC, item("qty", "1e9999999999"), "qty"));
    }

    @Test
    void hugeExponentWithinIntRangeIsRefusedQuicklyAsOutOfRange() {
      assertAll(
          () -> assertInvalid(JsonCodec.int4(), "1e2147483647", ""),
          () -> assertInvalid(JsonCodec.int8(), "1e-2147483647", ""),
          () -> assertEquals(0L, JsonCodec.int8().decode(Json.parse("0e-2147483647")), "zero with any exponent"));
    }

    @Test
    void encodesAsAJsonNumber() {
      assertEquals(new JsonNumber("-2147483648"), JsonCodec.int4().encode(Integer.MIN_VALUE));
    }
  }

  @Nested
  class Int8 {

    private long int8(String json) {
      return JsonCodec.int8().decode(Json.parse(json));
    }

    @Test
    void digitStringsAtTheEdgesAreAccepted() {
      assertAll(
          () -> assertEquals(Long.MAX_VALUE, int8("\"9223372036854775807\""), "max"),
          () -> assertEquals(Long.MIN_VALUE, int8("\"-9223372036854775808\""), "min"),
          () -> assertEquals(0L, int8("\"0\""), "zero"),
          () -> assertEquals(9007199254740993L, int8("\"9007199254740993\""), "beyond 2^53 exactly"));
    }

    @Test
    void digitStringsOneBeyondTheEdgesAreRefusedAsOutOfRange() {
      assertAll(
          () -> assertTrue(assertInvalid(JsonCodec.int8(), "\"9223372036854775808\"", "").cause()
              .contains("out of range for a 64-bit integer")),
          () -> assertTrue(assertInvalid(JsonCodec.int8(), "\"-9223372036854775809\"", "").cause()
              .contains("out of range for a 64-bit integer")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"01", "00", "-01", "", "-", "+1", " 1", "1 ", "1.0", "1e2", "0x10", "12345678901234567890",
        "\u0661", "\uFF11", "--1"})
    void malformedDigitStringsAreRefused(String digits) {
      InputInvalidException e = assertInvalid(JsonCodec.int8(), Json.write(new JsonString(digits)), "");
      assertTrue(e.cause().contains("decimal digits"), e.cause());
    }

    /** Zero has one spelling as an int8 string: "-0" is refused, as "01" is. */
    @Test
    void minusZeroStringIsRefused() {
      assertInvalid(JsonCodec.int8(), "\"-0\"", "");
    }

    @Test
    void jsonIntegersAreAcceptedToo() {
      assertAll(
          () -> assertEquals(Long.MAX_VALUE, int8("9223372036854775807"), "max as a JSON integer"),
          () -> assertEquals(Long.MIN_VALUE, int8("-9223372036854775808"), "min as a JSON integer"),
          () -> assertEquals(-1L, int8("-1"), "negative"),
          () -> assertInvalid(JsonCodec.int8(), "9223372036854775808", ""),
          () -> assertInvalid(JsonCodec.int8(), "0.5", ""));
    }

    @Test
    void encodesAsADigitString() {
      assertAll(
          () -> assertEquals(new JsonString("9223372036854775807"), JsonCodec.int8().encode(Long.MAX_VALUE)),
          () -> assertEquals(Long.MAX_VALUE, JsonCodec.int8().decode(JsonCodec.int8().encode(Long.MAX_VALUE))));
    }
  }

  @Nested
  class NestedPaths {

    private static final String ORDER = "{\"id\":\"o1\",\"items\":[" + ITEM + "," + ITEM + "]}";

    @Test
    void validOrderDecodesWithOptionalMembersAbsent() {
      Order o = Order.CODEC.decode(Json.parse(ORDER));
      assertAll(
          () -> assertEquals(2, o.items().size(), "items"),
          () -> assertNull(o.note(), "note absent"),
          () -> assertNull(o.gift(), "gift absent"));
    }

    @Test
    void wrongTypeInsideASecondElementNamesItemsIndexAndField() {
      String json = "{\"id\":\"o1\",\"items\":[" + ITEM + "," + item("qty", "\"two\"") + "]}";
      assertInvalid(Order.CODEC, json, "items[1].qty");
    }

    @Test
    void missingFieldInsideAnElementNamesItsFullPath() {
      String json = "{\"id\":\"o1\",\"items\":[" + ITEM + "," + ITEM + "," + ITEM.replace("\"name\":\"pen\",", "")
          + "]}";
      assertInvalid(Order.CODEC, json, "items[2].name");
    }

    @Test
    void unknownFieldInsideAnElementNamesItsFullPath() {
      String json = "{\"id\":\"o1\",\"items\":[" + ITEM.replace("{", "{\"x\":1,") + "]}";
      assertInvalid(Order.CODEC, json, "items[0].x");
    }

    @Test
    void deepElementErrorNamesEveryStep() {
      String json = "{\"id\":\"o1\",\"items\":[" + ITEM + "," + item("tags", "[\"a\",null]") + "]}";
      assertInvalid(Order.CODEC, json, "items[1].tags[1]");
    }

    @Test
    void elementThatIsNotAnObjectNamesItsIndex() {
      assertInvalid(Order.CODEC, "{\"id\":\"o1\",\"items\":[" + ITEM + ",7]}", "items[1]");
    }

    @Test
    void optionalMembersAbsentAndNullBothReadAsNull() {
      Order absent = Order.CODEC.decode(Json.parse(ORDER));
      Order nulls = Order.CODEC.decode(Json.parse(ORDER.replace("{\"id\"", "{\"note\":null,\"gift\":null,\"id\"")));
      assertAll(
          () -> assertEquals(absent, nulls, "absent == null"),
          () -> assertNull(nulls.note(), "note"),
          () -> assertNull(nulls.gift(), "gift"));
    }

    @Test
    void optionalMembersPresentAreDecodedAndValidatedWithTheirPath() {
      Order o = Order.CODEC.decode(
          Json.parse(ORDER.replace("{\"id\"", "{\"note\":\"n\",\"gift\":" + ITEM + ",\"id\"")));
      assertAll(
          () -> assertEquals("n", o.note(), "note"),
          () -> assertEquals("pen", o.gift().name(), "gift"),
          () -> assertInvalid(Order.CODEC, ORDER.replace("{\"id\"", "{\"note\":5,\"id\""), "note"),
          () -> assertInvalid(Order.CODEC,
              ORDER.replace("{\"id\"", "{\"gift\":" + item("on", "0") + ",\"id\""), "gift.on"));
    }

    @Test
    void orderEncodesAndDecodesBack() {
      Order o = new Order("o2", List.of(new Item("x", 1, 2, true, List.of("t"))), "note", null);
      assertEquals(o, Order.CODEC.decode(Json.parse(Json.write(Order.CODEC.encode(o)))));
    }

    @Test
    void decodingAtAPathPrefixesEveryError() {
      InputInvalidException e = assertThrows(InputInvalidException.class,
          () -> Item.CODEC.decode(Json.parse(item("qty", "1.5")), "body.item"));
      assertEquals("body.item.qty", e.path());
    }
  }

  @Nested
  class Reader {

    private final JsonObject object = (JsonObject) Json.parse(
        "{\"s\":\"x\",\"n\":null,\"f\":1.5,\"i\":3,\"b\":false,\"a\":[1]}");

    @Test
    void hasIsTrueOnlyForPresentNonNullMembers() {
      ObjectReader r = ObjectReader.of(object, "");
      assertAll(
          () -> assertTrue(r.has("s"), "present"),
          () -> assertFalse(r.has("n"), "null"),
          () -> assertFalse(r.has("zzz"), "absent"));
    }

    @Test
    void valueReturnsJsonNullForNullButOptionalValueReturnsJavaNull() {
      ObjectReader r = ObjectReader.of(object, "p");
      assertAll(
          () -> assertSame(JsonNull.NULL, r.value("n"), "required member may be JSON null"),
          () -> assertNull(r.optionalValue("n"), "optional null"),
          () -> assertNull(r.optionalValue("zzz"), "optional absent"),
          () -> assertNull(r.optionalText("n"), "optional text null"),
          () -> assertEquals("p.zzz", assertThrows(InputInvalidException.class, () -> r.value("zzz")).path()));
    }

    @Test
    void scalarAccessorsReadTheirTypes() {
      ObjectReader r = ObjectReader.of(object, "");
      assertAll(
          () -> assertEquals("x", r.text("s")),
          () -> assertEquals(1.5, r.float8("f")),
          () -> assertEquals(3.0, r.float8("i")),
          () -> assertEquals(3, r.int4("i")),
          () -> assertEquals(3L, r.int8("i")),
          () -> assertFalse(r.bool("b")),
          () -> assertEquals(JsonArray.of(JsonNumber.of(1)), r.get("a", JsonCodec.any())),
          () -> assertEquals("p.s", assertThrows(InputInvalidException.class,
              () -> ObjectReader.of(object, "p").float8("s")).path()));
    }

    @Test
    void requireNoOtherMembersNamesTheUnreadMemberAndPassesOnceAllAreRead() {
      ObjectReader r = ObjectReader.of(object, "");
      for (String name : List.of("s", "n", "f", "i", "b")) {
        r.optionalValue(name);
      }
      InputInvalidException e = assertThrows(InputInvalidException.class, r::requireNoOtherMembers);
      r.value("a");
      assertAll(
          () -> assertEquals("a", e.path(), "the one unread member"),
          () -> assertDoesNotThrow(r::requireNoOtherMembers, "all read"));
    }

    @Test
    void readerOverANonObjectIsRefusedWithItsPath() {
      InputInvalidException e = assertThrows(InputInvalidException.class,
          () -> ObjectReader.of(new JsonString("x"), "a[0]"));
      assertAll(
          () -> assertEquals("a[0]", e.path()),
          () -> assertEquals("a[0]", ObjectReader.of(object, "a[0]").path(), "path of a good reader"),
          () -> assertTrue(e.cause().contains("must be an object, not string"), e.cause()));
    }

    @Test
    void anyCodecPassesValuesThroughUnchanged() {
      JsonValue v = Json.parse("[{\"x\":null},1.50]");
      assertAll(
          () -> assertSame(v, JsonCodec.any().decode(v)),
          () -> assertSame(v, JsonCodec.any().encode(v)));
    }

    @Test
    void boolAndTextCodecsEncodeTheirJsonTypes() {
      assertAll(
          () -> assertSame(JsonBoolean.TRUE, JsonCodec.bool().encode(true)),
          () -> assertEquals(new JsonString("t"), JsonCodec.text().encode("t")),
          () -> assertEquals(JsonArray.of(JsonBoolean.FALSE), JsonCodec.list(JsonCodec.bool()).encode(List.of(false))));
    }
  }

  @Nested
  class Errors {

    @Test
    void runnelExceptionToJsonHasExactlyCodeCauseAndFix() {
      RunnelException e = new RunnelException(ErrorCode.X_FORBIDDEN, "Nope.", "Ask.");
      JsonObject body = e.toJson();
      assertAll(
          () -> assertEquals(List.of("code", "cause", "fix"), List.copyOf(body.members().keySet()), "members"),
          () -> assertEquals(new JsonString("X_FORBIDDEN"), body.get("code")),
          () -> assertEquals(new JsonString("Nope."), body.get("cause")),
          () -> assertEquals(new JsonString("Ask."), body.get("fix")),
          () -> assertEquals("{\"code\":\"X_FORBIDDEN\",\"cause\":\"Nope.\",\"fix\":\"Ask.\"}", Json.write(body)));
    }

    @Test
    void inputInvalidExceptionBodyCarriesThePathInItsCause() {
      InputInvalidException e = assertInvalid(Item.CODEC, item("qty", "\"2\""), "qty");
      JsonObject body = e.toJson();
      assertAll(
          () -> assertEquals(3, body.size(), "exactly three members"),
          () -> assertEquals(new JsonString("X_INPUT_INVALID"), body.get("code")),
          () -> assertEquals(new JsonString("Field 'qty' must be an integer, not string."), body.get("cause")),
          () -> assertEquals(422, e.code().httpStatus(), "HTTP status"));
    }

    @Test
    void messageAndUnderlyingCauseAreKept() {
      IllegalStateException underlying = new IllegalStateException("x");
      RunnelException e = new RunnelException(ErrorCode.X_INTERNAL, "Broke.", "Retry.", underlying);
      assertAll(
          () -> assertEquals("X_INTERNAL: Broke. Fix: Retry.", e.getMessage()),
          () -> assertSame(underlying, e.getCause()),
          () -> assertThrows(NullPointerException.class, () -> new RunnelException(null, "c", "f")),
          () -> assertThrows(NullPointerException.class, () -> new RunnelException(ErrorCode.X_INTERNAL, null, "f")));
    }
  }
}
