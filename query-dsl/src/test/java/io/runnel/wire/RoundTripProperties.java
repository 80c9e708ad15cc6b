package io.runnel.wire;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Random {@link JsonValue} trees survive {@link Json#write} and {@link Json#parse} unchanged, and
 * {@link CanonicalJson#write} re-parses to the same value up to number spelling and member order.
 */
class RoundTripProperties {

  @Property(tries = 500)
  void parseOfWriteIsTheSameValue(@ForAll("values") JsonValue v) {
    String text = Json.write(v);
    JsonValue back = Json.parse(text);
    assertAll(
        () -> assertEquals(v, back, "parse(write(v)) equals v"),
        () -> assertEquals(text, Json.write(back), "member order and number text survive"));
  }

  @Property(tries = 500)
  void canonicalTextReparsesToAnEqualValueModuloNumberSpellingAndMemberOrder(@ForAll("values") JsonValue v) {
    String canonical = CanonicalJson.write(v);
    JsonValue back = Json.parse(canonical);
    assertAll(
        () -> assertEquals(normalize(v), normalize(back), "same value, numbers as doubles, members unordered"),
        () -> assertEquals(canonical, CanonicalJson.write(back), "canonical form is a fixed point"),
        () -> assertEquals(canonical, CanonicalJson.write(Json.parse(Json.write(v))),
            "canonical form does not depend on the spelling it was parsed from"));
  }

  @Property(tries = 300)
  void canonicalTextHasNoInsignificantWhitespaceAndSortedMembers(@ForAll("objects") JsonObject o) {
    String canonical = CanonicalJson.write(o);
    JsonObject back = (JsonObject) Json.parse(canonical);
    List<String> names = List.copyOf(back.members().keySet());
    List<String> sorted = new ArrayList<>(names);
    sorted.sort(RoundTripProperties::compareUtf16CodeUnits);
    assertAll(
        () -> assertEquals(sorted, names, "members are in UTF-16 code unit order"),
        () -> assertFalse(canonical.matches("(?s).*[\\n\\r\\t].*"), "no raw line breaks or tabs"),
        () -> assertEquals(Json.write(back), canonical, "the canonical text is its own compact form"));
  }

  /** An independent comparator: code unit by code unit, as RFC 8785 section 3.2.3 spells it. */
  static int compareUtf16CodeUnits(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      int d = (int) a.charAt(i) - (int) b.charAt(i);
      if (d != 0) {
        return d;
      }
    }
    return a.length() - b.length();
  }

  /** Plain Java values: numbers as doubles (both zeros as 0.0), objects as unordered maps. */
  static Object normalize(JsonValue v) {
    return switch (v) {
      case JsonNull n -> "<null>";
      case JsonBoolean b -> b.value();
      case JsonString s -> "s:" + s.value();
      case JsonNumber n -> {
        double d = n.doubleValue();
        yield d == 0 ? 0.0 : d;
      }
      case JsonArray a -> {
        List<Object> out = new ArrayList<>();
        for (JsonValue e : a.elements()) {
          out.add(normalize(e));
        }
        yield out;
      }
      case JsonObject o -> {
        Map<String, Object> out = new HashMap<>();
        o.members().forEach((k, e) -> out.put(k, normalize(e)));
        yield out;
      }
    };
  }

  // ---- generators ----

  @Provide
  Arbitrary<JsonValue> values() {
    return value(4);
  }

  @Provide
  Arbitrary<JsonObject> objects() {
    return Arbitraries.maps(strings(), value(2)).ofMaxSize(8).map(m -> new JsonObject(new LinkedHashMap<>(m)));
  }

  private Arbitrary<JsonValue> value(int depth) {
    if (depth == 0) {
      return scalars();
    }
    Arbitrary<JsonValue> arrays = Arbitraries.lazy(() -> value(depth - 1)).list().ofMaxSize(5)
        .map(JsonArray::new);
    Arbitrary<JsonValue> objects = Arbitraries.maps(strings(), Arbitraries.lazy(() -> value(depth - 1)))
        .ofMaxSize(5).map(m -> new JsonObject(new LinkedHashMap<>(m)));
    return Arbitraries.frequencyOf(Tuple.of(4, scalars()), Tuple.of(1, arrays), Tuple.of(1, objects));
  }

  private static Arbitrary<JsonValue> scalars() {
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.of(JsonNull.NULL, JsonBoolean.TRUE, JsonBoolean.FALSE)),
        Tuple.of(3, strings().map(JsonString::new)),
        Tuple.of(2, numberTexts().map(JsonNumber::new)),
        Tuple.of(1, finiteDoubles().map(JsonNumber::of)),
        Tuple.of(1, Arbitraries.longs().map(JsonNumber::of)));
  }

  /** Strings of whole code points: controls, quote and backslash, ASCII, BMP (no surrogates) and astral. */
  static Arbitrary<String> strings() {
    Arbitrary<Integer> codePoints = Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.integers().between(0, 0x1f)),
        Tuple.of(1, Arbitraries.of((int) '"', (int) '\\', (int) '/', 0x7f, 0x80, 0x2028, 0xfeff, 0xffff)),
        Tuple.of(4, Arbitraries.integers().between(0x20, 0x7e)),
        Tuple.of(2, Arbitraries.integers().between(0xa0, 0xd7ff)),
        Tuple.of(1, Arbitraries.integers().between(0xe000, 0xfffd)),
        Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10ffff)));
    return codePoints.list().ofMaxSize(8).map(cps -> {
      StringBuilder b = new StringBuilder();
      cps.forEach(b::appendCodePoint);
      return b.toString();
    });
  }

  /** RFC 8259 number texts whose value is a finite double: any sign, fraction, exponent spelling. */
  static Arbitrary<String> numberTexts() {
    Arbitrary<String> sign = Arbitraries.of("", "-");
    Arbitrary<String> integer = Arbitraries.oneOf(Arbitraries.just("0"),
        Arbitraries.strings().numeric().ofMinLength(0).ofMaxLength(7)
            .map(s -> String.valueOf((char) ('1' + Math.floorMod(s.hashCode(), 9))) + s));
    Arbitrary<String> fraction = Arbitraries.oneOf(Arbitraries.just(""),
        Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(8).map(s -> "." + s));
    Arbitrary<String> exponent = Arbitraries.oneOf(Arbitraries.just(""),
        Combinators.combine(Arbitraries.of("e", "E"), Arbitraries.of("", "+", "-"),
                Arbitraries.integers().between(0, 290))
            .as((e, s, n) -> e + s + n));
    return Combinators.combine(sign, integer, fraction, exponent).as((s, i, f, e) -> s + i + f + e);
  }

  /** Finite doubles of every magnitude: random bit patterns (subnormals included) and edges. */
  static Arbitrary<Double> finiteDoubles() {
    return Arbitraries.oneOf(
        Arbitraries.longs().map(Double::longBitsToDouble).filter(Double::isFinite),
        Arbitraries.doubles(),
        Arbitraries.of(0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE,
            -Double.MAX_VALUE, 1e21, 1e-7, 1e-6, 9007199254740993.0, 0.1, 1.0 / 3));
  }
}
