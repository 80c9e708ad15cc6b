package io.runnel.dsl;

import org.jspecify.annotations.Nullable;

/**
 * The addition {@link Row#plus} does to a {@code float4}/{@code float8} value in a TeaVM bundle. Boxing a new
 * {@code Double} or {@code Float} in {@code Row.plus} itself made every bundle instantiate both classes, and a boxed
 * value reaches {@code Object.toString()} through the shared collections, which linked Java's double and float
 * printing (TeaVM's {@code DoubleAnalyzer}/{@code FloatAnalyzer} tables, about 40 KB unminified) into apps with no
 * float column. So in a bundle the sum is made here, through an instance that {@link FloatType} installs when it
 * makes a float value: TeaVM links this class only where float values are made. On the JVM {@code Row} adds itself.
 */
abstract class FloatSum {

  private static @Nullable FloatSum installed;

  private FloatSum() {}

  /** Installs the addition; {@link FloatType} calls it whenever it makes a value (cheap after the first time). */
  static void install() {
    if (installed == null) {
      installed = new Adder();
    }
  }

  /**
   * {@code value} (a {@code Double} or {@code Float}) plus {@code delta}, as {@code Row.plus} adds on the JVM.
   *
   * @throws IllegalStateException when no float value was made in this bundle through a column type
   */
  static Object plus(Object value, long delta) {
    FloatSum sum = installed;
    if (sum == null) {
      throw new IllegalStateException("A float value reached Row.plus without a float column type: make float "
          + "values through a float4/float8 column");
    }
    return sum.add(value, delta);
  }

  /** The sum; abstract, so the call above is virtual and links {@link Adder} only where it is made. */
  abstract Object add(Object value, long delta);

  /** The one addition. */
  private static final class Adder extends FloatSum {
    @Override
    Object add(Object value, long delta) {
      return value instanceof Float f ? (Object) (f + delta) : (Object) ((Double) value + delta);
    }
  }
}
