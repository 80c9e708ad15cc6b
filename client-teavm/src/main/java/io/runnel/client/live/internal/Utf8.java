package io.runnel.client.live.internal;

/** UTF-8 byte counts without an encoder (small in a TeaVM bundle). */
final class Utf8 {

  private Utf8() {}

  /** The UTF-8 length of {@code s} in bytes; a lone surrogate counts as the three bytes of U+FFFD. */
  static int length(String s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }
}
