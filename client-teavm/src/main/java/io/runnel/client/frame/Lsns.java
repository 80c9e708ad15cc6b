package io.runnel.client.frame;

/**
 * LSN strings ({@code PROTOCOL.md}, "LSN"): 24 lower-case hex digits, which compare as text in LSN order.
 */
public final class Lsns {

  /** The LSN before every other. */
  public static final String ZERO = "000000000000000000000000";

  private Lsns() {}

  /** Whether {@code s} is 24 lower-case hex digits. */
  public static boolean isLsn(String s) {
    if (s.length() != 24) {
      return false;
    }
    for (int i = 0; i < 24; i++) {
      char c = s.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns {@code s} when it is an LSN.
   *
   * @throws IllegalArgumentException naming {@code what} otherwise
   */
  public static String require(String s, String what) {
    if (!isLsn(s)) {
      throw new IllegalArgumentException(what + " must be 24 lower-case hex digits, not '" + s + "'");
    }
    return s;
  }

  /** Whether {@code lsn} has passed {@code mark}: is at or above it. */
  public static boolean reached(String lsn, String mark) {
    return lsn.compareTo(mark) >= 0;
  }
}
