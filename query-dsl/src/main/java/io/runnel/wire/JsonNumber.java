package io.runnel.wire;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * A JSON number, kept as its exact text so that no digit is lost on the way through (a {@code numeric} inside a
 * {@code jsonb} may hold more digits than a double). {@link CanonicalJson} writes it as the IEEE double it denotes,
 * as RFC 8785 requires.
 *
 * @param text the number as RFC 8259 spells it: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}
 */
public record JsonNumber(String text) implements JsonValue {

  /** @throws IllegalArgumentException when {@code text} is not a JSON number */
  public JsonNumber {
    Objects.requireNonNull(text, "text");
    if (!isJsonNumber(text)) {
      throw new IllegalArgumentException("Not a JSON number: '" + text + "'");
    }
  }

  /** The number {@code value}. */
  public static JsonNumber of(long value) {
    return new JsonNumber(Long.toString(value));
  }

  /**
   * The number {@code value}, written in ECMAScript's shortest form.
   *
   * @throws IllegalArgumentException for NaN and the infinities, which JSON cannot carry as numbers
   */
  public static JsonNumber of(double value) {
    return new JsonNumber(EcmaNumbers.toText(value));
  }

  /** The number {@code value}, exact. */
  public static JsonNumber of(BigDecimal value) {
    return new JsonNumber(value.toString().replace("E+", "E"));
  }

  /** The nearest double (JSON numbers are IEEE doubles to JavaScript). */
  public double doubleValue() {
    return Numbers.parseDouble(text);
  }

  /** The exact decimal value. */
  public BigDecimal decimalValue() {
    return new BigDecimal(text);
  }

  /** Whether the text has no fraction or exponent, so {@link #longValueExact()} may succeed. */
  public boolean isPlainInteger() {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '.' || c == 'e' || c == 'E') {
        return false;
      }
    }
    return true;
  }

  /**
   * The value as a {@code long} when it is an integer in range.
   *
   * @throws ArithmeticException when it has a fraction or is out of range (an exponent beyond BigDecimal's range
   *     included)
   */
  public long longValueExact() {
    if (Numbers.inBrowser()) {
      return Digits.longValueExact(text);
    }
    try {
      return decimalValue().longValueExact();
    } catch (NumberFormatException e) {
      throw new ArithmeticException("Exponent out of range: " + text);
    }
  }

  @Override
  public String toString() {
    return text;
  }

  /** Whether {@code s} matches RFC 8259's number grammar. */
  static boolean isJsonNumber(String s) {
    int i = 0;
    int n = s.length();
    if (i < n && s.charAt(i) == '-') {
      i++;
    }
    if (i >= n) {
      return false;
    }
    if (s.charAt(i) == '0') {
      i++;
    } else if (isDigit(s.charAt(i))) {
      while (i < n && isDigit(s.charAt(i))) {
        i++;
      }
    } else {
      return false;
    }
    if (i < n && s.charAt(i) == '.') {
      i++;
      int start = i;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
      }
      if (i == start) {
        return false;
      }
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      i++;
      if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        i++;
      }
      int start = i;
      while (i < n && isDigit(s.charAt(i))) {
        i++;
      }
      if (i == start) {
        return false;
      }
    }
    return i == n;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
