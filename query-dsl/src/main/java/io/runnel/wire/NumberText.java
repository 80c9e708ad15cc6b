package io.runnel.wire;

/**
 * Number text as the browser reads and writes it ({@code Number(text)} and {@code String(value)}): what
 * {@link Numbers} uses in a TeaVM bundle instead of Java's {@code Double.parseDouble} and {@code Double.toString},
 * whose class-library versions weigh tens of KB. The bundle's entry class installs it with
 * {@link Numbers#useInBrowser(NumberText)}.
 */
public interface NumberText {

  /**
   * The double nearest to {@code text} (ties to even), as ECMAScript's {@code Number(text)} and Java's
   * {@code Double.parseDouble} both read it.
   *
   * @param text decimal text as {@link Digits#isDecimal(String)} accepts it (JSON numbers included)
   */
  double parse(String text);

  /**
   * {@code value} as ECMAScript's {@code Number::toString} spells it: the shortest digits that read back as it,
   * the closest of those to it, laid out as {@code 123}, {@code 0.001}, {@code 1e+21} or {@code 1.5e-7}.
   *
   * @param value a finite double
   */
  String ecma(double value);
}
