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
