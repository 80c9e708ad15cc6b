package io.runnel.wire;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * RFC 8785 JSON Canonicalization Scheme (JCS): the one spelling of a value that Runnel hashes ({@code queryHash},
 * idempotency input hashes) and uses for composite record keys.
 *
 * <p>Members are sorted by their names' UTF-16 code units (RFC 8785, 3.2.3), numbers are written as ECMAScript
 * writes the IEEE double they denote (3.2.2.3), strings with minimal escaping (3.2.2.2), no white space.
 */
public final class CanonicalJson {

  private CanonicalJson() {}

  /**
   * The canonical text of {@code value}.
   *
   * @throws IllegalArgumentException when a string holds a lone surrogate, or a number is beyond a double's range
   */
  public static String write(JsonValue value) {
    StringBuilder out = new StringBuilder();
    Json.write(value, out, true);
    return out.toString();
  }

  static List<Map.Entry<String, JsonValue>> sortedMembers(JsonObject o) {
    // String.compareTo compares UTF-16 code units, which is exactly the order RFC 8785 asks for. Each member is
    // inserted where a binary search puts it, not List.sort with Map.Entry.comparingByKey: in a browser bundle
    // those link a merge sort and the compareTo of every Comparable class (names are unique, so the order is the
    // same).
    List<Map.Entry<String, JsonValue>> entries = new ArrayList<>(o.size());
    for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
      String name = e.getKey();
      int low = 0;
      int high = entries.size();
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (entries.get(mid).getKey().compareTo(name) < 0) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      entries.add(low, e);
    }
    return entries;
  }
}
