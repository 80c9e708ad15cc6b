package io.runnel.wire;

import java.nio.charset.StandardCharsets;

/**
 * Percent-encoding for the protocol's compound names: topic params ({@code org.acme%2Eio}) and the tenant part of
 * a {@code qid} ({@code docs/protocol.md}, "Topics" and "Cursor"). Every byte of the UTF-8 form is encoded except the
 * unreserved characters of RFC 3986 section 2.3 other than {@code .} ({@code A–Z a–z 0–9 - _ ~}), so a {@code .},
 * {@code /}, {@code @}, {@code *}, {@code >} or space never appears raw; hex digits are upper case.
 */
public final class PercentEncoding {

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private PercentEncoding() {}

  /**
   * The encoded form of {@code value}. A lone surrogate is encoded as {@code ?} ({@code %3F}), as Java's UTF-8
   * encoder replaces it. The UTF-8 bytes are made here, not with {@code getBytes}: in a TeaVM bundle Java's charset
   * encoder is several kilobytes of classes.
   */
  public static String encode(String value) {
    StringBuilder out = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      int c = value.charAt(i);
      if (c >= 0xd800 && c <= 0xdfff) {
        char next = i + 1 < value.length() ? value.charAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
        } else {
          c = '?';
        }
      }
      boolean unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '_' || c == '~';
      if (unreserved) {
        out.append((char) c);
        continue;
      }
      // n bytes: a lead byte of n high one bits (none for one byte), then 6 bits a byte.
      int n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      escape(out, (n == 1 ? 0 : (0xff00 >> n) & 0xff) | (c >> (6 * (n - 1))));
      for (int k = n - 2; k >= 0; k--) {
        escape(out, 0x80 | ((c >> (6 * k)) & 0x3f));
      }
    }
    return out.toString();
  }

  private static void escape(StringBuilder out, int b) {
    out.append('%').append(HEX[b >> 4]).append(HEX[b & 0xf]);
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
