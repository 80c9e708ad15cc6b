package io.runnel.dsl;

import io.runnel.wire.InputInvalidException;

/**
 * SQL {@code LIKE} matching on code points, as PostgreSQL matches under a deterministic collation: {@code %} any
 * run (also empty), {@code _} exactly one character, backslash makes the next character literal
 * ({@code src/backend/utils/adt/like_match.c}). {@code ILIKE} folds ASCII letters only, as
 * {@code lower()} does under {@code COLLATE "C"}.
 *
 * <p>The match is the classic wildcard scan with one backtrack point (the last {@code %}), linear in practice and
 * never exponential.
 */
final class LikePattern {

  private static final int ANY_ONE = -1;
  private static final int ANY_RUN = -2;

  private LikePattern() {}

  /**
   * Refuses a pattern PostgreSQL refuses.
   *
   * @param path the column the pattern is for, as an input error names it ({@code posts.title})
   * @throws InputInvalidException ({@code X_INPUT_INVALID}) for a pattern ending in a lone backslash, or holding a NUL
   *     character (PostgreSQL text cannot hold one, so the read would fail in the database)
   */
  static void check(String pattern, String path) {
    if (pattern.indexOf('\0') >= 0) {
      throw new InputInvalidException(path, "has a LIKE pattern holding a NUL character, which PostgreSQL text cannot "
          + "store", "Remove the \\0 characters from the pattern.");
    }
    int backslashes = 0;
    for (int i = pattern.length() - 1; i >= 0 && pattern.charAt(i) == '\\'; i--) {
      backslashes++;
    }
    if (backslashes % 2 == 1) {
      throw new InputInvalidException(path, "has LIKE pattern '" + pattern + "', which ends with an escape character",
          "Escape the final backslash as \\\\ or remove it (PostgreSQL refuses such patterns).");
    }
  }

  /** Whether {@code text} matches {@code pattern}. */
  static boolean matches(String text, String pattern, boolean caseInsensitive) {
    int[] s = codePoints(caseInsensitive ? foldAscii(text) : text);
    int[] p = compile(caseInsensitive ? foldAscii(pattern) : pattern);
    int si = 0;
    int pi = 0;
    int starP = -1;
    int starS = 0;
    while (si < s.length) {
      if (pi < p.length && (p[pi] == ANY_ONE || p[pi] == s[si])) {
        si++;
        pi++;
      } else if (pi < p.length && p[pi] == ANY_RUN) {
        starP = pi++;
        starS = si;
      } else if (starP >= 0) {
        pi = starP + 1;
        si = ++starS;
      } else {
        return false;
      }
    }
    while (pi < p.length && p[pi] == ANY_RUN) {
      pi++;
    }
    return pi == p.length;
  }

  private static int[] compile(String pattern) {
    int[] cps = codePoints(pattern);
    int[] out = new int[cps.length];
    int n = 0;
    for (int i = 0; i < cps.length; i++) {
      int c = cps[i];
      if (c == '\\' && i + 1 < cps.length) {
        out[n++] = cps[++i];
      } else if (c == '%') {
        if (n == 0 || out[n - 1] != ANY_RUN) {
          out[n++] = ANY_RUN;
        }
      } else if (c == '_') {
        out[n++] = ANY_ONE;
      } else {
        out[n++] = c;
      }
    }
    int[] trimmed = new int[n];
    System.arraycopy(out, 0, trimmed, 0, n);
    return trimmed;
  }

  private static int[] codePoints(String s) {
    return s.codePoints().toArray();
  }

  private static String foldAscii(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      b.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
    }
    return b.toString();
  }
}
