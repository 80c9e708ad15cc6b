package io.runnel.wire;

import java.util.Map;
import java.util.Objects;

/**
 * Size limits on an input tree: nesting depth and node count, and numbers within a double's range
 * ({@code docs/protocol.md}, "Limits": depth 32, nodes 10,000 by default). Checked before an input is decoded, so a
 * hostile input costs no more than its parse.
 *
 * @param maxDepth the deepest nesting allowed; a scalar at the top is depth 0, each object or array adds one
 * @param maxNodes the most values (objects, arrays, members' values, elements and scalars) allowed in the tree
 */
public record JsonLimits(int maxDepth, int maxNodes) {

  /** The protocol's defaults for inputs: depth 32, 10,000 nodes. */
  public static final JsonLimits INPUT_DEFAULTS = new JsonLimits(32, 10_000);

  /** @throws IllegalArgumentException when a limit is not positive */
  public JsonLimits {
    if (maxDepth < 1 || maxNodes < 1) {
      throw new IllegalArgumentException("JSON limits must be positive: depth " + maxDepth + ", nodes " + maxNodes);
    }
  }

  /**
   * Checks {@code value} against these limits.
   *
   * @throws InputInvalidException naming the path where the depth or node limit was passed
   */
  public void check(JsonValue value) {
    Objects.requireNonNull(value, "value");
    int[] nodes = {0};
    walk(value, "", 0, nodes);
  }

  private void walk(JsonValue value, String path, int depth, int[] nodes) {
    if (++nodes[0] > maxNodes) {
      throw new InputInvalidException(path, "makes the input larger than " + maxNodes + " values",
          "Send a smaller input; the limit is " + maxNodes + " JSON values.");
    }
    // instanceof, not a type switch, which TeaVM writes out at length (docs/client.md, "Type switches"); strings,
    // booleans and null need no check.
    if (value instanceof JsonObject o) {
      checkDepth(path, depth + 1);
      for (Map.Entry<String, JsonValue> e : o.members().entrySet()) {
        walk(e.getValue(), JsonPath.member(path, e.getKey()), depth + 1, nodes);
      }
    } else if (value instanceof JsonArray a) {
      checkDepth(path, depth + 1);
      for (int i = 0; i < a.size(); i++) {
        walk(a.get(i), JsonPath.element(path, i), depth + 1, nodes);
      }
    } else if (value instanceof JsonNumber n && Double.isInfinite(n.doubleValue())) {
      throw new InputInvalidException(path, "is beyond the range of a JSON number (an IEEE double)",
          "Send a number within ±1.7976931348623157e308, or send it as a string.");
    }
  }

  private void checkDepth(String path, int depth) {
    if (depth > maxDepth) {
      throw new InputInvalidException(path, "nests deeper than " + maxDepth + " levels",
          "Flatten the input; the limit is " + maxDepth + " levels of objects and arrays.");
    }
  }
}
