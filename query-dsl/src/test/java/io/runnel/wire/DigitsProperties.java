package io.runnel.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.NumericChars;
import net.jqwik.api.constraints.StringLength;

/**
 * The hand-written grammar checks accept exactly what the regular expressions they replace accept, the
 * hand-written {@code longValueExact} answers (and fails) as BigDecimal's does, and {@code parseLong} as
 * {@code Long.parseLong} does over ASCII digits.
 */
class DigitsProperties {

  @Property(tries = 3000)
  void isDecimalIsTheRegex(@ForAll @StringLength(max = 12) @NumericChars @Chars({'+', '-', '.', 'e', 'E', 'x', ' '})
      String s) {
    assertEquals(s.matches("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?"), Digits.isDecimal(s), s);
  }

  @Property(tries = 3000)
  void isSignedIntegerIsTheRegex(@ForAll @StringLength(max = 22) @NumericChars @Chars({'+', '-', 'x'}) String s) {
    assertEquals(s.matches("[+-]?[0-9]{1,19}"), Digits.isSignedInteger(s, 19), s);
  }

  @Property(tries = 3000)
  void isLongTextIsTheRegex(@ForAll @StringLength(max = 22) @NumericChars @Chars({'+', '-', '0'}) String s) {
    assertEquals(s.matches("0|-?[1-9][0-9]{0,18}"), Digits.isLongText(s), s);
  }

  /** Exponents past an int's range are left out: BigDecimal's answer for them changes between JDKs. */
  @Property(tries = 5000)
  void longValueExactIsBigDecimals(@ForAll("jsonNumbers") String s) {
    assertEquals(viaBigDecimal(s), viaDigits(s), s);
  }

  @Example
  void longValueExactAgreesAtTheEdges() {
    for (String s : new String[] {"0", "-0", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "-9223372036854775809", "1.0", "1.5", "1e2147483647", "1e-2147483648", "1E18", "1E19",
        "-9.223372036854775808E18", "10e-1", "100e-3", "1e00000000000000000001",
        "0.0000000000000000000000000000001e31", "12345678901234567890e-1", "5e-1"}) {
      assertEquals(viaBigDecimal(s), viaDigits(s), s);
    }
  }

  @Property(tries = 5000)
  void parseLongIsLongsOverAsciiDigits(@ForAll("longTexts") String s) {
    assertEquals(viaLong(s), viaParseLong(s), s);
  }

  @Example
  void parseLongAgreesAtTheEdges() {
    for (String s : new String[] {"0", "-0", "+0", "+7", "007", "-007", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "-9223372036854775809", "+9223372036854775807", "92233720368547758070",
        "-92233720368547758080", "99999999999999999999", "", "-", "+", "--1", "+-1", "1-", " 1", "1 ", "1x", "0x1F"}) {
      assertEquals(viaLong(s), viaParseLong(s), s);
    }
  }

  @Provide
  Arbitrary<String> longTexts() {
    Arbitrary<String> digits = Arbitraries.strings().numeric().ofMinLength(0).ofMaxLength(21);
    Arbitrary<String> near = Arbitraries.longs().map(v -> Long.toString(v));
    return Arbitraries.oneOf(Combinators.combine(Arbitraries.of("", "-", "+", "x", "--"), digits).as((a, b) -> a + b),
        near, near.map(t -> t + "0"), Arbitraries.strings().withChars("+-0123456789 x").ofMaxLength(22));
  }

  @Provide
  Arbitrary<String> jsonNumbers() {
    Arbitrary<String> integer = Arbitraries.oneOf(Arbitraries.just("0"),
        Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(21).filter(d -> d.charAt(0) != '0'));
    Arbitrary<String> fraction = Arbitraries.oneOf(Arbitraries.just(""),
        Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(6).map(d -> "." + d));
    Arbitrary<String> exponent = Arbitraries.oneOf(Arbitraries.just(""),
        Arbitraries.integers().between(-25, 25).map(e -> "e" + e),
        Arbitraries.of("E+2", "e-0", "e+00", "e2147483647", "e-2147483647", "e0000000000003"));
    return Combinators.combine(Arbitraries.of("", "-"), integer, fraction, exponent)
        .as((sign, i, f, e) -> sign + i + f + e);
  }

  private static String viaBigDecimal(String s) {
    try {
      return Long.toString(new JsonNumber(s).longValueExact());
    } catch (ArithmeticException e) {
      return "ArithmeticException: " + e.getMessage();
    }
  }

  private static String viaLong(String s) {
    try {
      return Long.toString(Long.parseLong(s));
    } catch (NumberFormatException e) {
      return "NumberFormatException: " + e.getMessage();
    }
  }

  private static String viaParseLong(String s) {
    try {
      return Long.toString(Digits.parseLong(s));
    } catch (NumberFormatException e) {
      return "NumberFormatException: " + e.getMessage();
    }
  }

  private static String viaDigits(String s) {
    try {
      return Long.toString(Digits.longValueExact(s));
    } catch (ArithmeticException e) {
      return "ArithmeticException: " + e.getMessage();
    }
  }
}
