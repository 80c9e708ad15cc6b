package io.runnel.dsl;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A row keeps its columns in two arrays; it must still behave as the map it was made from: column order kept,
 * SQL NULL told apart from an absent column, equality and hash code those of {@link Map}, the view unmodifiable.
 */
class RowValuesTest {

  private static Map<String, Object> map(Object... pairs) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], pairs[i + 1]);
    }
    return m;
  }

  @Test
  void aRowIsTheMapItWasMadeFrom() {
    Map<String, Object> m = map("id", 7L, "title", "a", "done", false);
    m.put("note", null);
    Row r = Row.of(m);
    assertAll(
        () -> assertEquals(List.of("id", "title", "done", "note"), List.copyOf(r.values().keySet()), "order kept"),
        () -> assertEquals(m, r.values(), "equal to the map"),
        () -> assertEquals(m.hashCode(), r.values().hashCode()),
        () -> assertEquals(m.hashCode(), r.hashCode(), "the row's hash is the map's"),
        () -> assertTrue(r.has("note"), "a NULL column is held"),
        () -> assertNull(r.get("note")),
        () -> assertFalse(r.has("absent")),
        () -> assertNull(r.get("absent")),
        () -> assertEquals("a", r.text("title")),
        () -> assertEquals(7L, r.int8("id")),
        () -> assertEquals("Row{id=7, title=a, done=false, note=null}", r.toString()));
  }

  @Test
  void equalityIgnoresOrderButNotValuesOrColumns() {
    Row a = Row.of(map("id", 1L, "title", "x"));
    Row b = Row.of(map("title", "x", "id", 1L));
    Map<String, Object> hashed = new HashMap<>(map("id", 1L, "title", "x"));
    assertAll(
        () -> assertEquals(a, b, "the same columns in another order"),
        () -> assertEquals(a.hashCode(), b.hashCode()),
        () -> assertEquals(Row.of(hashed), a),
        () -> assertNotEquals(a, Row.of(map("id", 1L, "title", "y")), "another value"),
        () -> assertNotEquals(a, Row.of(map("id", 1L)), "a column fewer"),
        () -> assertNotEquals(a, Row.of(map("id", 1L, "name", "x")), "another column"),
        () -> assertNotEquals(Row.of(map("id", 1L, "n", null)), Row.of(map("id", 1L, "m", null)), "NULLs of others"),
        () -> assertEquals(Row.empty(), Row.of(Map.of())));
  }

  @Test
  void theViewCannotChangeTheRowAndEditsMakeNewRows() {
    Row r = Row.of(map("id", 1L, "n", 2));
    assertAll(
        () -> assertThrows(UnsupportedOperationException.class, () -> r.values().put("id", 3L)),
        () -> assertThrows(UnsupportedOperationException.class, () -> r.values().clear()),
        () -> assertThrows(UnsupportedOperationException.class, () -> {
          var it = r.values().entrySet().iterator();
          it.next();
          it.remove();
        }),
        () -> assertThrows(NullPointerException.class, () -> Row.of(map("id", 1L, null, 2))),
        () -> assertEquals(Row.of(map("id", 1L, "n", 2, "t", "x")), r.with("t", "x")),
        () -> assertEquals(List.of("id", "n", "t"), List.copyOf(r.with("t", "x").values().keySet())),
        () -> assertEquals(Row.of(map("id", 1L)), r.without("n")),
        () -> assertEquals(Row.of(map("id", 1L, "n", 5)), r.plus("n", 3)),
        () -> assertEquals(Row.of(map("id", 9L, "n", 2)), r.merge(Row.of(map("id", 9L)))),
        () -> assertEquals(Row.of(map("id", 1L, "n", 2)), r, "the row itself unchanged"));
  }
}
