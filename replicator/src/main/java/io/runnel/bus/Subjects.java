package io.runnel.bus;

import io.runnel.wire.PercentEncoding;
import java.util.Objects;

/**
 * The bus's subject names: {@code runnel.changes.<schema>.<table>}, each token percent-encoded so that {@code .},
 * {@code *}, {@code >} and spaces never appear in it; {@code runnel.changes.position} for the replicator's position
 * heartbeats, in the same ordered stream; and NATS-style pattern matching.
 */
public final class Subjects {

  /** The prefix of every change subject. */
  public static final String CHANGES_PREFIX = "runnel.changes.";
  /** The pattern a consumer subscribes to for every change, in order (position heartbeats included). */
  public static final String ALL_CHANGES = "runnel.changes.>";
  /**
   * The subject of the replicator's position heartbeats: one token after the prefix, so it never collides with a
   * table's two ({@code <schema>.<table>}), and inside {@link #ALL_CHANGES}, so it is ordered with the changes.
   */
  public static final String POSITION = "runnel.changes.position";

  private Subjects() {}

  /** The subject of changes to {@code schema.table}. */
  public static String changes(String schema, String table) {
    return CHANGES_PREFIX + token(schema) + "." + token(table);
  }

  /**
   * {@code value} as one subject token.
   *
   * @throws IllegalArgumentException for an empty value (a subject has no empty tokens)
   */
  public static String token(String value) {
    if (Objects.requireNonNull(value, "value").isEmpty()) {
      throw new IllegalArgumentException("A subject token cannot be empty");
    }
    return PercentEncoding.encode(value);
  }

  /**
   * Whether {@code subject} matches {@code pattern}: tokens are separated by {@code .}, {@code *} matches exactly
   * one token, a final {@code >} matches one or more.
   */
  public static boolean matches(String pattern, String subject) {
    return matches(tokens(pattern), subject);
  }

  /** The tokens of {@code pattern}, split at every {@code .} with empty tokens kept, for the matcher below. */
  public static String[] tokens(String pattern) {
    return pattern.split("\\.", -1);
  }

  /**
   * Whether {@code subject} matches the pattern of {@code patternTokens} ({@link #tokens}), as
   * {@link #matches(String, String)} says; the subject is walked in place, not split.
   */
  public static boolean matches(String[] patternTokens, String subject) {
    int from = 0;
    int n = patternTokens.length;
    for (int i = 0; i < n; i++) {
      String p = patternTokens[i];
      if (from > subject.length()) {
        // The subject has no token i.
        return false;
      }
      if (i == n - 1 && p.equals(">")) {
        return true;
      }
      int dot = subject.indexOf('.', from);
      int end = dot < 0 ? subject.length() : dot;
      if (!p.equals("*") && (end - from != p.length() || !subject.regionMatches(from, p, 0, p.length()))) {
        return false;
      }
      from = end + 1;
    }
    return from > subject.length();
  }
}
