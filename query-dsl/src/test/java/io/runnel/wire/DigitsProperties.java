package io.runnel.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.NumericChars;
import net.jqwik.api.constraints.StringLength;

/** The hand-written grammar checks accept exactly what the regular expressions they replace accept. */
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
}
