package io.runnel.wire;

/**
 * Hand-written checks of the number grammars the DSL and the wire read. They replace regular expressions, which
 * would drag {@code java.util.regex} (tens of KB) into every browser bundle; each states its grammar as the regular
 * expression it is equivalent to, over ASCII digits only.
 */
public final class Digits {

  private Digits() {}

  /** Whether {@code s} matches {@code [+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?}. */
  public static boolean isDecimal(String s) {
    int n = s.length();
    int i = sign(s, 0);
    int intStart = i;
    i = digits(s, i);
    boolean intDigits = i > intStart;
    boolean fracDigits = false;
    if (i < n && s.charAt(i) == '.') {
      int fracStart = ++i;
      i = digits(s, i);
      fracDigits = i > fracStart;
    }
    if (!intDigits && !fracDigits) {
      return false;
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      i = sign(s, i + 1);
      int expStart = i;
      i = digits(s, i);
      if (i == expStart) {
        return false;
      }
    }
    return i == n;
  }

  /** Whether {@code s} matches {@code [+-]?[0-9]{1,maxDigits}}. */
  public static boolean isSignedInteger(String s, int maxDigits) {
    int start = sign(s, 0);
    int end = digits(s, start);
    return end == s.length() && end > start && end - start <= maxDigits;
  }

  /** Whether {@code s} matches {@code 0|-?[1-9][0-9]{0,18}}: a {@code long}'s digits as JSON strings carry them. */
  public static boolean isLongText(String s) {
    if (s.equals("0")) {
      return true;
    }
    int start = !s.isEmpty() && s.charAt(0) == '-' ? 1 : 0;
    int end = digits(s, start);
    return end == s.length() && end > start && end - start <= 19 && s.charAt(start) != '0';
  }

  /**
   * The {@code long} that JSON number text {@code s} (RFC 8259 grammar, not checked here) denotes, as
   * {@code new BigDecimal(s).longValueExact()} computes it, with the same failures, but without {@code java.math}
   * (tens of KB in a bundle).
   *
   * @throws ArithmeticException {@code "Rounding necessary"} when it has a nonzero fraction, {@code "Overflow"} when
   *     it is out of range, {@code "Exponent out of range: <s>"} when the exponent or the scale is past an int
   *     (where BigDecimal's own answer differs between JDKs)
   */
  public static long longValueExact(String s) {
    int n = s.length();
    boolean negative = n > 0 && s.charAt(0) == '-';
    int i = negative ? 1 : 0;
    int intStart = i;
    i = digits(s, i);
    String significand = s.substring(intStart, i);
    int fractionDigits = 0;
    if (i < n && s.charAt(i) == '.') {
      int fracStart = i + 1;
      i = digits(s, fracStart);
      significand += s.substring(fracStart, i);
      fractionDigits = i - fracStart;
    }
    long exponent = 0;
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      exponent = exponent(s, i + 1);
    }
    // BigDecimal's limits: the exponent fits an int, and so does the scale (fraction digits minus the exponent).
    long scale = fractionDigits - exponent;
    if ((int) exponent != exponent || (int) scale != scale) {
      throw new ArithmeticException("Exponent out of range: " + s);
    }
    int lead = 0;
    while (lead < significand.length() && significand.charAt(lead) == '0') {
      lead++;
    }
    String digits = significand.substring(lead);
    if (digits.isEmpty()) {
      return 0;
    }
    // value = digits x 10^-scale; its integer part has precision - scale digits.
    long integerDigits = digits.length() - scale;
    if (integerDigits <= 0) {
      throw new ArithmeticException("Rounding necessary");
    }
    if (integerDigits > 19) {
      throw new ArithmeticException("Overflow");
    }
    int end = digits.length();
    while (scale > 0 && digits.charAt(end - 1) == '0') {
      end--;
      scale--;
    }
    if (scale > 0) {
      throw new ArithmeticException("Rounding necessary");
    }
    // Accumulated negatively, so Long.MIN_VALUE fits.
    long value = 0;
    try {
      for (int k = 0; k < end; k++) {
        value = Math.subtractExact(Math.multiplyExact(value, 10), digits.charAt(k) - '0');
      }
      for (long k = scale; k < 0; k++) {
        value = Math.multiplyExact(value, 10);
      }
      return negative ? value : Math.negateExact(value);
    } catch (ArithmeticException e) {
      throw new ArithmeticException("Overflow");
    }
  }

  /**
   * The {@code long} that {@code s}, matching {@code [+-]?[0-9]+}, denotes: {@link Long#parseLong(String)} over ASCII
   * digits, without {@code Character.digit} and its Unicode digit tables (a few KB in a bundle).
   *
   * @throws NumberFormatException {@code For input string: "<s>"} when {@code s} does not match or is out of range
   */
  public static long parseLong(String s) {
    int n = s.length();
    int start = sign(s, 0);
    if (start == n || digits(s, start) != n) {
      throw new NumberFormatException("For input string: \"" + s + "\"");
    }
    boolean negative = s.charAt(0) == '-';
    // Accumulated negatively, so Long.MIN_VALUE fits.
    long value = 0;
    for (int i = start; i < n; i++) {
      int d = s.charAt(i) - '0';
      if (value < (Long.MIN_VALUE + d) / 10) {
        throw new NumberFormatException("For input string: \"" + s + "\"");
      }
      value = value * 10 - d;
    }
    if (!negative && value == Long.MIN_VALUE) {
      throw new NumberFormatException("For input string: \"" + s + "\"");
    }
    return negative ? value : -value;
  }

  /**
   * The exponent whose sign or first digit is at {@code i}, as BigDecimal reads it: past ten significant digits it
   * is refused, which is reported as a value beyond an int.
   */
  private static long exponent(String s, int i) {
    boolean negative = i < s.length() && s.charAt(i) == '-';
    if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
      i++;
    }
    while (s.length() - i > 10 && s.charAt(i) == '0') {
      i++;
    }
    if (s.length() - i > 10) {
      return Long.MAX_VALUE;
    }
    long e = 0;
    for (; i < s.length(); i++) {
      e = e * 10 + (s.charAt(i) - '0');
    }
    return negative ? -e : e;
  }

  private static int sign(String s, int i) {
    return i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-') ? i + 1 : i;
  }

  private static int digits(String s, int i) {
    while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
      i++;
    }
    return i;
  }
}
