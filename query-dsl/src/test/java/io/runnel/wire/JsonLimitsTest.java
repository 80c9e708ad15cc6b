package io.runnel.wire;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link JsonLimits}: depth and node limits that name the path where they were passed. */
class JsonLimitsTest {

  private static JsonValue nestedArrays(int depth) {
    JsonValue v = JsonArray.EMPTY;
    for (int i = 1; i < depth; i++) {
      v = JsonArray.of(v);
    }
    return v;
  }

  private static JsonValue arrayOf(int elements) {
    List<JsonValue> out = new ArrayList<>(elements);
    for (int i = 0; i < elements; i++) {
      out.add(JsonNumber.of(i));
    }
    return new JsonArray(out);
  }

  private static InputInvalidException assertRefused(JsonLimits limits, JsonValue v, String path, String problem) {
    InputInvalidException e = assertThrows(InputInvalidException.class, () -> limits.check(v));
    assertAll(
        () -> assertEquals(ErrorCode.X_INPUT_INVALID, e.code(), "code"),
        () -> assertEquals(path, e.path(), "path"),
        () -> assertTrue(e.cause().contains(problem), () -> "cause: " + e.cause()));
    return e;
  }

  @Test
  void inputDefaultsAreDepth32AndTenThousandNodes() {
    assertAll(
        () -> assertEquals(32, JsonLimits.INPUT_DEFAULTS.maxDepth(), "depth"),
        () -> assertEquals(10_000, JsonLimits.INPUT_DEFAULTS.maxNodes(), "nodes"),
        () -> assertEquals(new JsonLimits(32, 10_000), JsonLimits.INPUT_DEFAULTS, "record equality"));
  }

  @Test
  void limitsMustBePositive() {
    assertAll(
        () -> assertThrows(IllegalArgumentException.class, () -> new JsonLimits(0, 1), "depth 0"),
        () -> assertThrows(IllegalArgumentException.class, () -> new JsonLimits(1, 0), "nodes 0"),
        () -> assertThrows(IllegalArgumentException.class, () -> new JsonLimits(-1, 10), "negative depth"),
        () -> assertDoesNotThrow(() -> new JsonLimits(1, 1), "1 and 1"));
  }

  @Test
  void depthExactlyAtTheDefaultLimitPasses() {
    assertDoesNotThrow(() -> JsonLimits.INPUT_DEFAULTS.check(nestedArrays(32)));
  }

  @Test
  void oneLevelPastTheDefaultLimitFailsNamingTheTooDeepContainer() {
    InputInvalidException e = assertRefused(JsonLimits.INPUT_DEFAULTS, nestedArrays(33), "[0]".repeat(32),
        "nests deeper than 32 levels");
    assertTrue(e.fix().contains("32"), e.fix());
  }

  @Test
  void scalarAtTheTopIsDepthZeroAndEachContainerAddsOne() {
    JsonLimits one = new JsonLimits(1, 100);
    assertAll(
        () -> assertDoesNotThrow(() -> one.check(new JsonString("x")), "scalar"),
        () -> assertDoesNotThrow(() -> one.check(JsonObject.EMPTY), "empty object is depth 1"),
        () -> assertDoesNotThrow(() -> one.check(Json.parse("{\"a\":1,\"b\":2}")),
            "object of scalars is depth 1"),
        () -> assertRefused(one, Json.parse("{\"a\":1,\"b\":[]}"), "b", "nests deeper than 1 levels"),
        () -> assertRefused(one, Json.parse("[[]]"), "[0]", "nests deeper"));
  }

  @Test
  void tooDeepPathMixesMembersAndElements() {
    JsonValue v = Json.parse("{\"items\":[{\"ok\":1},{\"tags\":[[1]]}]}");
    assertAll(
        () -> assertDoesNotThrow(() -> new JsonLimits(5, 100).check(v), "depth 5 is the tree's depth"),
        () -> assertRefused(new JsonLimits(4, 100), v, "items[1].tags[0]", "nests deeper than 4 levels"));
  }

  @Test
  void nodeCountAtTheLimitPassesAndOneMoreFailsNamingTheExtraValue() {
    // [0,1] is three values: the array and two elements.
    JsonLimits three = new JsonLimits(10, 3);
    assertAll(
        () -> assertDoesNotThrow(() -> three.check(arrayOf(2)), "3 values"),
        () -> assertRefused(three, arrayOf(3), "[2]", "larger than 3 values"));
  }

  @Test
  void nodeCountCountsObjectsMembersValuesAndNestedScalars() {
    JsonValue v = Json.parse("{\"a\":1,\"b\":{\"c\":true,\"d\":[null]}}");
    // object, 1, object, true, array, null
    assertAll(
        () -> assertDoesNotThrow(() -> new JsonLimits(10, 6).check(v), "6 values"),
        () -> assertRefused(new JsonLimits(10, 5), v, "b.d[0]", "larger than 5 values"),
        () -> assertRefused(new JsonLimits(10, 2), v, "b", "larger than 2 values"));
  }

  @Test
  void defaultNodeLimitAllowsTenThousandValuesAndRefusesOneMore() {
    assertAll(
        () -> assertDoesNotThrow(() -> JsonLimits.INPUT_DEFAULTS.check(arrayOf(9_999)), "10,000 values"),
        () -> assertRefused(JsonLimits.INPUT_DEFAULTS, arrayOf(10_000), "[9999]", "larger than 10000 values"));
  }

  @Test
  void singleScalarWithNodeLimitOnePasses() {
    assertAll(
        () -> assertDoesNotThrow(() -> new JsonLimits(1, 1).check(JsonNull.NULL), "one value"),
        () -> assertRefused(new JsonLimits(1, 1), JsonArray.of(JsonNull.NULL), "[0]", "larger than 1 values"));
  }

  @Test
  void causeDescribesTheFieldByItsPath() {
    InputInvalidException e = assertRefused(new JsonLimits(1, 100), Json.parse("[[1]]"), "[0]", "nests deeper");
    assertTrue(e.cause().startsWith("Field '[0]' nests deeper than 1 levels"), e.cause());
  }
}
