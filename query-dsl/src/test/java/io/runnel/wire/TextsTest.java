package io.runnel.wire;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** On the JVM {@link Texts} spells values exactly as the class library's {@code toString} does. */
class TextsTest {

  @Test
  void aListOfNamesIsSpelledAsAbstractCollectionSpellsIt() {
    Set<String> ordered = new LinkedHashSet<>(List.of("b", "a", "c"));
    assertAll(
        () -> assertEquals(List.of().toString(), Texts.list(List.of()), "empty"),
        () -> assertEquals(List.of("id").toString(), Texts.list(List.of("id")), "one"),
        () -> assertEquals(ordered.toString(), Texts.list(ordered), "in iteration order"));
  }

  @Test
  void aValueAndItsKindAreWhatStringValueOfAndTheSimpleClassNameSay() {
    Object[] values = {"x", 7, 8L, (short) 9, true, new BigDecimal("1.50"), List.of(1), 2.5};
    for (Object v : values) {
      assertAll(
          () -> assertEquals(String.valueOf(v), Texts.value(v), "value of " + v),
          () -> assertEquals(v.getClass().getSimpleName(), Texts.kind(v), "kind of " + v));
    }
    assertEquals("null", Texts.value(null), "null");
  }

  @Test
  void lowerCaseIsTheRootLocalesOnTheJvm() {
    for (String t : new String[] {"TRUE", "İnfinity", "NaN", "ΣΑΣ", "Off"}) {
      assertEquals(t.toLowerCase(Locale.ROOT), Texts.lowerCase(t), t);
    }
  }

  @Test
  void anEchoKeepsAShortTextAndCutsALongOneToItsMaxWithAnEllipsis() {
    assertAll(
        () -> assertEquals("short", Texts.echo("short", 120)),
        () -> assertEquals("x".repeat(120), Texts.echo("x".repeat(120), 120), "exactly the max"),
        () -> assertEquals("x".repeat(117) + "...", Texts.echo("x".repeat(121), 120)),
        () -> assertEquals(64, Texts.echo("y".repeat(500), 64).length()),
        () -> assertThrows(IllegalArgumentException.class, () -> Texts.echo("z", 2)));
  }
}
