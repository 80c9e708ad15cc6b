package io.runnel.wire;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Writes a double as ECMAScript's {@code Number.prototype.toString} does (ECMA-262, Number::toString), which is
 * how RFC 8785 (JCS, section 3.2.2.3) requires canonical JSON to spell numbers.
 *
 * <p>The shortest digits that round-trip come from {@link Double#toString(double)} (shortest since JDK 19,
 * JDK-4511638, except that it keeps two digits for some subnormals, trimmed here); only their layout is changed.
 */
final class EcmaNumbers {

  private EcmaNumbers() {}

  /**
   * The ECMAScript spelling of {@code value}: {@code 0} for both zeros, {@code 1e+21}, {@code 1.5e-7}, {@code 123}.
   *
   * @throws IllegalArgumentException for NaN and the infinities
   */
  static String toText(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      // Spelled here rather than appended as a double, which would link Java's double printing into bundles.
      throw new IllegalArgumentException("JSON has no number for "
          + (Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity"));
    }
    if (value == 0) {
      return "0";
    }
    if (Numbers.inBrowser()) {
      return Numbers.ecmaInBrowser(value);
    }
    String shortest = Double.toString(Math.abs(value));
    // Java spells "d.dddE±n" or "ddd.ddd"; collect the significant digits and the decimal exponent.
    int e = shortest.indexOf('E');
    String mantissa = e < 0 ? shortest : shortest.substring(0, e);
    int exp10 = e < 0 ? 0 : Integer.parseInt(shortest.substring(e + 1));
    int dot = mantissa.indexOf('.');
    String intPart = dot < 0 ? mantissa : mantissa.substring(0, dot);
    String fracPart = dot < 0 ? "" : mantissa.substring(dot + 1);
    String digits = intPart + fracPart;
    // value = 0.digits × 10^n with n = intPart.length() + exp10, before trimming leading zeros.
    int n = intPart.length() + exp10;
    int lead = 0;
    while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
      lead++;
    }
    digits = digits.substring(lead);
    n -= lead;
    int end = digits.length();
    while (end > 1 && digits.charAt(end - 1) == '0') {
      end--;
    }
    digits = digits.substring(0, end);
    if (digits.length() == 2) {
      // Double.toString keeps two digits for some subnormals (4.9E-324) where one already reads back the same
      // double; ECMAScript always takes the shortest.
      BigDecimal one = new BigDecimal(Math.abs(value)).round(new MathContext(1, RoundingMode.HALF_EVEN));
      if (one.doubleValue() == Math.abs(value)) {
        digits = one.unscaledValue().toString();
        n = one.precision() - one.scale();
      }
    }
    int k = digits.length();
    StringBuilder out = new StringBuilder(24);
    if (value < 0) {
      out.append('-');
    }
    if (k <= n && n <= 21) {
      out.append(digits);
      for (int i = 0; i < n - k; i++) {
        out.append('0');
      }
    } else if (0 < n && n <= 21) {
      out.append(digits, 0, n).append('.').append(digits, n, k);
    } else if (-6 < n && n <= 0) {
      out.append("0.");
      for (int i = 0; i < -n; i++) {
        out.append('0');
      }
      out.append(digits);
    } else {
      out.append(digits.charAt(0));
      if (k > 1) {
        out.append('.').append(digits, 1, k);
      }
      int shown = n - 1;
      out.append('e').append(shown < 0 ? '-' : '+').append(Math.abs(shown));
    }
    return out.toString();
  }
}
