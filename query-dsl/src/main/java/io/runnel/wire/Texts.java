package io.runnel.wire;

import java.util.Collection;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Text of values in error messages, written so that a TeaVM bundle links no {@code Object.toString()} on them. TeaVM
 * tracks what reaches a call through one node per method: every object handed to {@code String.valueOf(Object)}
 * anywhere, and every element of any collection whose {@code toString()} is called, reaches every class's
 * {@code toString()}. One {@code "…" + columns.keySet()} in a message linked the generated {@code toString} of
 * every record and lambda in the client, and the class names behind them. On the JVM each method answers exactly
 * what {@code String.valueOf} and {@code getClass().getSimpleName()} answer.
 */
public final class Texts {

  private Texts() {}

  /**
   * {@code text} as a cause may quote it: itself when it has at most {@code max} characters, else its first
   * {@code max - 3} and {@code ...}, so a client's long string never makes an error body long.
   *
   * @throws IllegalArgumentException when {@code max} is less than 3
   */
  public static String echo(String text, int max) {
    if (max < 3) {
      throw new IllegalArgumentException("An echo keeps at least 3 characters, not " + max);
    }
    return text.length() <= max ? text : text.substring(0, max - 3) + "...";
  }

  /** {@code names} as {@code AbstractCollection.toString} spells them: {@code [a, b]}. */
  public static String list(Collection<String> names) {
    StringBuilder b = new StringBuilder("[");
    for (String n : names) {
      b.append(b.length() == 1 ? "" : ", ").append(n);
    }
    return b.append(']').toString();
  }

  /**
   * {@code String.valueOf(value)} on the JVM; in a bundle the same for strings, integers and booleans (a column's
   * plain values) and {@code "(a value)"} for anything else.
   */
  public static String value(@Nullable Object value) {
    if (!Numbers.inBrowser()) {
      return String.valueOf(value);
    }
    if (value == null || value instanceof String) {
      return value == null ? "null" : (String) value;
    }
    // instanceof tests, not a pattern switch: TeaVM spells a type switch out at length in every caller it inlines.
    if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
      return Long.toString(((Number) value).longValue());
    }
    if (value instanceof Boolean b) {
      return b ? "true" : "false";
    }
    return "(a value)";
  }

  /**
   * {@code value.getClass().getSimpleName()} on the JVM; in a bundle the same for strings, integers and booleans
   * and {@code "value of another type"} for anything else (so the bundle keeps no class names).
   */
  public static String kind(Object value) {
    if (!Numbers.inBrowser()) {
      return value.getClass().getSimpleName();
    }
    String kind = "value of another type";
    if (value instanceof String) {
      kind = "String";
    } else if (value instanceof Integer) {
      kind = "Integer";
    } else if (value instanceof Long) {
      kind = "Long";
    } else if (value instanceof Short) {
      kind = "Short";
    } else if (value instanceof Byte) {
      kind = "Byte";
    } else if (value instanceof Boolean) {
      kind = "Boolean";
    }
    return kind;
  }

  /**
   * {@code text.toLowerCase(Locale.ROOT)} on the JVM; in a bundle the browser's {@code toLowerCase()}, which is
   * locale-independent as {@code ROOT} is, so a bundle links no {@code java.util.Locale} (about 4 KB unminified).
   */
  // Locale-independent in both places, as the javadoc says; Error Prone cannot see the browser's half.
  @SuppressWarnings("StringCaseLocaleUsage")
  public static String lowerCase(String text) {
    return Numbers.inBrowser() ? text.toLowerCase() : text.toLowerCase(Locale.ROOT);
  }
}
