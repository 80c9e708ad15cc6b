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
    String[] p = pattern.split("\\.", -1);
    String[] s = subject.split("\\.", -1);
    for (int i = 0; i < p.length; i++) {
      if (p[i].equals(">") && i == p.length - 1) {
        return s.length > i;
      }
      if (i >= s.length) {
        return false;
      }
      if (!p[i].equals("*") && !p[i].equals(s[i])) {
        return false;
      }
    }
    return p.length == s.length;
  }
}
