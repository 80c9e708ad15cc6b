package io.runnel.wire;

/** JSON {@code null}: SQL NULL on the wire, and nothing else is. */
public enum JsonNull implements JsonValue {
  /** The one null. */
  NULL;

  @Override
  public String toString() {
    return "null";
  }
}
