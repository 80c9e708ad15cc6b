package io.runnel.protocol;

/** The value rules frames share ({@code docs/protocol.md}, "Socket frames"), so the records and decoders agree. */
final class Frames {

  private Frames() {}

  static String requireNonEmpty(String value, String name) {
    if (value.isEmpty()) {
      throw new IllegalArgumentException("A frame's " + name + " is never empty");
    }
    return value;
  }

  static long requireNonNegative(long value, String name) {
    if (value < 0) {
      throw new IllegalArgumentException("A frame's " + name + " is never negative, not " + value);
    }
    return value;
  }
}
