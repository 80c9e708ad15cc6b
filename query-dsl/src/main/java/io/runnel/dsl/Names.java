package io.runnel.dsl;

/**
 * The name rules declarations share, on both halves: column, schema and table identifiers, and the names of
 * entities, queries, mutators and channel params.
 */
public final class Names {

  private Names() {}

  /** A column or table identifier: {@code [A-Za-z_][A-Za-z0-9_]*}, 1–63 characters. */
  public static boolean isIdentifier(String s) {
    if (s.isEmpty() || s.length() > 63) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
      if (!letter && !(i > 0 && c >= '0' && c <= '9')) {
        return false;
      }
    }
    return true;
  }

  /** A query, mutator or entity name: {@code [A-Za-z][A-Za-z0-9_]*}, 1–64 characters. */
  public static boolean isName(String s) {
    if (s.isEmpty() || s.length() > 64) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      if (!letter && !(i > 0 && ((c >= '0' && c <= '9') || c == '_'))) {
        return false;
      }
    }
    return true;
  }
}
