package io.runnel.wire;

import java.nio.charset.StandardCharsets;

/**
 * Percent-encoding for the protocol's compound names: topic params ({@code org.acme%2Eio}) and the tenant part of
 * a {@code qid} ({@code PROTOCOL.md}, "Topics" and "Cursor"). Every byte of the UTF-8 form is encoded except the
 * unreserved characters of RFC 3986 section 2.3 other than {@code .} ({@code A–Z a–z 0–9 - _ ~}), so a {@code .},
 * {@code /}, {@code @}, {@code *}, {@code >} or space never appears raw; hex digits are upper case.
 */
public final class PercentEncoding {

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private PercentEncoding() {}

  /** The encoded form of {@code value}. */
  public static String encode(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      boolean unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '_' || c == '~';
      if (unreserved) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
      }
    }
    return out.toString();
  }

  /**
   * Decodes {@code value}, which must be in the form {@link #encode} writes (hex digits of either case).
   *
   * @throws IllegalArgumentException when a {@code %} is not followed by two hex digits, a character other than
   *     the unreserved ones appears raw, or the bytes are not UTF-8
   */
  public static String decode(String value) {
    byte[] out = new byte[value.length()];
    int n = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '%') {
        int hi = i + 1 < value.length() ? Character.digit(value.charAt(i + 1), 16) : -1;
        int lo = i + 2 < value.length() ? Character.digit(value.charAt(i + 2), 16) : -1;
        if (hi < 0 || lo < 0) {
          throw new IllegalArgumentException("Bad percent escape in '" + value + "'");
        }
        out[n++] = (byte) (hi << 4 | lo);
        i += 2;
      } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
          || c == '~') {
        out[n++] = (byte) c;
      } else {
        throw new IllegalArgumentException("Character '" + c + "' must be percent-encoded in '" + value + "'");
      }
    }
    String s = new String(out, 0, n, StandardCharsets.UTF_8);
    if (!encode(s).equalsIgnoreCase(value)) {
      throw new IllegalArgumentException("'" + value + "' does not decode to valid UTF-8");
    }
    return s;
  }
}
