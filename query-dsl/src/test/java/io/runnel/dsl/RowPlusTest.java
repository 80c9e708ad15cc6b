package io.runnel.dsl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Row#plus} on each numeric kind, and the bundle's float addition ({@link FloatSum}) agreeing with it. */
class RowPlusTest {

  @Test
  void plusAddsToEachNumericKindKeepingItsBoxAndNullStaysNull() {
    Map<String, Object> values = new HashMap<>(Map.of("i", 1, "l", 2L, "d", 0.1, "f", 1.5f));
    values.put("n", null);
    Row r = Row.of(values);
    assertAll(
        () -> assertEquals(3, r.plus("i", 2).get("i"), "int stays Integer"),
        () -> assertEquals(4L, r.plus("l", 2).get("l"), "int8 stays Long"),
        () -> assertEquals(2.1, r.plus("d", 2).get("d"), "float8 stays Double, as double arithmetic adds"),
        () -> assertEquals(3.5f, r.plus("f", 2).get("f"), "float4 stays Float"),
        () -> assertNull(r.plus("n", 2).get("n"), "NULL plus anything is NULL"),
        () -> assertThrows(ArithmeticException.class, () -> Row.of(Map.of("i", Integer.MAX_VALUE)).plus("i", 1),
            "an int that overflows is refused"));
  }

  @Test
  void theBundlesFloatAdditionGivesTheSameBoxesAsTheJvmsOnceAFloatTypeMadeAValue() {
    ColumnType.FLOAT8.parse("1");
    Row r = Row.of(Map.of("d", 0.1, "f", 1.5f));
    assertAll(
        () -> assertEquals(r.plus("d", 2).get("d"), FloatSum.plus(0.1, 2), "float8"),
        () -> assertEquals(r.plus("f", 2).get("f"), FloatSum.plus(1.5f, 2), "float4"),
        () -> assertEquals(r.plus("d", -7).get("d"), FloatSum.plus(0.1, -7), "a negative delta"));
  }
}
