package io.runnel.protocol;

import org.jspecify.annotations.Nullable;

/** The value rules frames share ({@code docs/protocol.md}, "Socket frames"), so the records and decoders agree. */
final class Frames {

  /** The longest {@code sid}, in UTF-16 characters (JavaScript's {@code length}). */
  static final int MAX_SID_LENGTH = 64;

  /** The most members a {@code presence} roster lists. */
  static final int MAX_PRESENCE_MEMBERS = 256;

  private Frames() {}

  /** Whether {@code sid} is a subscription id: 1–64 characters. */
  static boolean isSid(@Nullable String sid) {
    return sid != null && !sid.isEmpty() && sid.length() <= MAX_SID_LENGTH;
  }

  /** Whether {@code code} is spelled as error codes are: {@code X_} then upper-case letters, digits and {@code _}. */
  static boolean isCode(String code) {
    if (code.length() < 3 || !code.startsWith("X_")) {
      return false;
    }
    for (int i = 2; i < code.length(); i++) {
      char c = code.charAt(i);
      if (!(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') && c != '_') {
        return false;
      }
    }
    return true;
  }

  static String requireSid(String sid) {
    if (!isSid(sid)) {
      throw new IllegalArgumentException("A sid is 1–" + MAX_SID_LENGTH + " characters, not '" + sid + "'");
    }
    return sid;
  }

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
