package io.runnel.dsl;

import io.runnel.wire.Numbers;
import org.jspecify.annotations.Nullable;

/**
 * Equality of column values without a virtual {@code equals} on arbitrary objects. TeaVM links the {@code equals} of
 * every class whose instances reach such a call, so a client bundle compares values through their column type's
 * {@link ColumnType#same} instead ({@code docs/client.md}, "Sizes").
 */
final class SameValues {

  private SameValues() {}

  /** {@link java.util.Objects#equals} for two values of a column of {@code type} (null: an undeclared column). */
  static boolean same(@Nullable ColumnType type, @Nullable Object a, @Nullable Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    return type == null ? other(a, b) : type.same(a, b);
  }

  /**
   * {@code a.equals(b)} for two non-null values that are not of their column type's own class (app code may put any
   * value into a row it writes). On the JVM this is {@code a.equals(b)}. A bundle compares strings, integers, longs
   * and booleans by value and anything else by identity.
   */
  static boolean other(Object a, Object b) {
    if (!Numbers.inBrowser()) {
      return a.equals(b);
    }
    if (a instanceof String s) {
      return s.equals(b);
    }
    if (a instanceof Integer i) {
      return i.equals(b);
    }
    if (a instanceof Long l) {
      return l.equals(b);
    }
    if (a instanceof Boolean x) {
      return x.equals(b);
    }
    return a == b;
  }
}
