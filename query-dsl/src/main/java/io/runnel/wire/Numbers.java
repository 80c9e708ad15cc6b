package io.runnel.wire;

import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.teavm.interop.PlatformMarker;

/**
 * Where the DSL reads and writes number text: Java's own routines on the JVM (exact behaviour, unchanged), the
 * browser's through an installed {@link NumberText} in a TeaVM bundle. TeaVM evaluates {@link #inBrowser()} at
 * compile time, so a bundle holds no JVM number routine and the JVM never calls the browser's.
 */
public final class Numbers {

  private static volatile @Nullable NumberText browser;

  private Numbers() {}

  /**
   * Whether this code runs as a TeaVM bundle: false on the JVM; TeaVM compiles every call as true and drops the
   * branch that is not taken ({@code PlatformMarker}).
   */
  @PlatformMarker
  public static boolean inBrowser() {
    return false;
  }

  /** Installs the browser's number text; a bundle's entry class does this before anything reads a number. */
  public static void useInBrowser(NumberText text) {
    browser = Objects.requireNonNull(text, "text");
  }

  /**
   * The double nearest to decimal {@code text} ({@link Digits#isDecimal(String)} grammar).
   *
   * @throws NumberFormatException on the JVM when {@code text} is not a number
   */
  public static double parseDouble(String text) {
    return inBrowser() ? installed().parse(text) : Double.parseDouble(text);
  }

  /** The browser's spelling of a finite double ({@link NumberText#ecma(double)}); only called in a bundle. */
  static String ecmaInBrowser(double value) {
    return installed().ecma(value);
  }

  private static NumberText installed() {
    NumberText t = browser;
    if (t == null) {
      throw new IllegalStateException("No NumberText is installed: the bundle's entry class calls "
          + "Numbers.useInBrowser before reading numbers");
    }
    return t;
  }
}
