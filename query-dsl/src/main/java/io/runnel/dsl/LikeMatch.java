package io.runnel.dsl;

import org.jspecify.annotations.Nullable;

/**
 * {@link LikePattern} behind a virtual call that a {@link Filter.Like} installs when it is made. TeaVM inlines a
 * call on a record or a static method wherever the call is reachable, so the matcher's LIKE branch linked the whole
 * pattern scanner (6.8 KB unminified) into bundles whose queries use no LIKE; through this instance it links only
 * where a Like filter is made.
 */
abstract class LikeMatch {

  private static @Nullable LikeMatch installed;

  private LikeMatch() {}

  /** Installs the scanner; every {@link Filter.Like} calls it when made. */
  static void install() {
    if (installed == null) {
      installed = new Scanner();
    }
  }

  /** The installed scanner (a Like filter exists whenever one is asked for). */
  static LikeMatch get() {
    LikeMatch m = installed;
    if (m == null) {
      throw new IllegalStateException("A LIKE filter was evaluated before any was made");
    }
    return m;
  }

  /** {@link LikePattern#check}. */
  abstract void check(String pattern, String path);

  /** {@link LikePattern#matches}. */
  abstract boolean matches(String text, String pattern, boolean caseInsensitive);

  /** The one implementation. */
  private static final class Scanner extends LikeMatch {
    @Override
    void check(String pattern, String path) {
      LikePattern.check(pattern, path);
    }

    @Override
    boolean matches(String text, String pattern, boolean caseInsensitive) {
      return LikePattern.matches(text, pattern, caseInsensitive);
    }
  }
}
