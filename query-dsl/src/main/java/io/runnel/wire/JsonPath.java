package io.runnel.wire;

/**
 * Spells field paths in error messages: {@code orgId}, {@code items[2].name}; the empty string is the whole
 * value.
 */
public final class JsonPath {

  private JsonPath() {}

  /** The path of member {@code name} inside {@code parent}. */
  public static String member(String parent, String name) {
    return parent.isEmpty() ? name : parent + "." + name;
  }

  /** The path of element {@code index} inside {@code parent}. */
  public static String element(String parent, int index) {
    return parent + "[" + index + "]";
  }

  /** "Field 'a.b'" for a path, "The input" for the empty path. */
  public static String describe(String path) {
    return path.isEmpty() ? "The input" : "Field '" + path + "'";
  }
}
