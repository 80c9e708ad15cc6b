package io.runnel.protocol;

/** Lower-case hex digits, read and written without regular expressions or {@code Long}'s parsers (TeaVM-safe). */
final class Hex {

  private static final char[] DIGITS = "0123456789abcdef".toCharArray();
  private static final char[] UPPER = "0123456789ABCDEF".toCharArray();

  private Hex() {}

  /**
   * The value of {@code text[from, to)} read as hex, or -1 when that span is empty, longer than 8 digits or holds a
   * character that is no hex digit.
   *
   * @param upper whether upper-case digits count too (PostgreSQL prints {@code pg_lsn} in upper case)
   */
  static long parse32(String text, int from, int to, boolean upper) {
    if (to <= from || to - from > 8) {
      return -1;
    }
    long v = 0;
    for (int i = from; i < to; i++) {
      int d = digit(text.charAt(i), upper);
      if (d < 0) {
        return -1;
      }
      v = v << 4 | d;
    }
    return v;
  }

  private static int digit(char c, boolean upper) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (upper && c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  /** {@code v}'s hex digits in upper case without leading zeros ({@code 0} for zero), as PostgreSQL prints them. */
  static String upper(long v) {
    char[] c = new char[16];
    int at = c.length;
    long rest = v;
    do {
      c[--at] = UPPER[(int) (rest & 0xf)];
      rest >>>= 4;
    } while (rest != 0);
    return new String(c, at, c.length - at);
  }

  /** Writes the low {@code digits} hex digits of {@code v} into {@code c} at {@code at}, zero-padded, lower case. */
  static void write(long v, char[] c, int at, int digits) {
    long rest = v;
    for (int i = at + digits - 1; i >= at; i--) {
      c[i] = DIGITS[(int) (rest & 0xf)];
      rest >>>= 4;
    }
  }
}
