package io.runnel.dsl;

import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An immutable {@code bytea} value. Ordered as PostgreSQL orders {@code bytea}: unsigned bytes compared in turn,
 * a shorter prefix first ({@code byteacmp}).
 */
public final class Bytes implements Comparable<Bytes> {

  private static final char[] HEX = "0123456789abcdef".toCharArray();
  private static final String BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  private final byte[] bytes;

  private Bytes(byte[] bytes) {
    this.bytes = bytes;
  }

  /** A copy of {@code bytes}. */
  public static Bytes of(byte[] bytes) {
    return new Bytes(Objects.requireNonNull(bytes, "bytes").clone());
  }

  /**
   * Parses PostgreSQL's hex output ({@code \x0a1b}, the default {@code bytea_output}).
   *
   * @throws ValueInvalidException when {@code text} is not in that form
   */
  public static Bytes parseHex(String text) {
    if (!text.startsWith("\\x") || text.length() % 2 != 0) {
      throw new ValueInvalidException("bytea", text, "is not in PostgreSQL's hex form (\\x followed by hex pairs)");
    }
    byte[] out = new byte[(text.length() - 2) / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = hexDigit(text.charAt(2 + 2 * i));
      int lo = hexDigit(text.charAt(3 + 2 * i));
      if (hi < 0 || lo < 0) {
        throw new ValueInvalidException("bytea", text, "has a character that is not a hex digit");
      }
      out[i] = (byte) (hi << 4 | lo);
    }
    return new Bytes(out);
  }

  /** The value of an ASCII hex digit, or -1 (Character.digit would take other scripts' digits too). */
  static int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  /**
   * Decodes standard base64 with padding (RFC 4648, section 4), the JSON form of {@code bytea}.
   *
   * @throws ValueInvalidException when {@code text} is not canonical padded base64
   */
  public static Bytes parseBase64(String text) {
    if (text.length() % 4 != 0) {
      throw new ValueInvalidException("bytea", text, "is not padded base64 (its length is not a multiple of 4)");
    }
    int pad = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
    byte[] out = new byte[text.length() / 4 * 3 - pad];
    int o = 0;
    for (int i = 0; i < text.length(); i += 4) {
      int n = 0;
      for (int j = 0; j < 4; j++) {
        char c = text.charAt(i + j);
        int v;
        if (c == '=' && i + 4 == text.length() && j >= 4 - pad) {
          v = 0;
        } else {
          v = BASE64.indexOf(c);
          if (v < 0) {
            throw new ValueInvalidException("bytea", text, "has a character outside standard base64");
          }
        }
        n = n << 6 | v;
      }
      for (int j = 0; j < 3 && o < out.length; j++) {
        out[o++] = (byte) (n >> (16 - 8 * j));
      }
    }
    Bytes b = new Bytes(out);
    if (!b.base64().equals(text)) {
      throw new ValueInvalidException("bytea", text, "is not canonical base64 (non-zero bits in the padding)");
    }
    return b;
  }

  /** The length in bytes. */
  public int length() {
    return bytes.length;
  }

  /** A copy of the bytes. */
  public byte[] toArray() {
    return bytes.clone();
  }

  /** PostgreSQL's hex text, {@code \x…} in lower case. */
  public String hex() {
    StringBuilder s = new StringBuilder(2 + bytes.length * 2).append("\\x");
    for (byte b : bytes) {
      s.append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
    }
    return s.toString();
  }

  /** Standard base64 with padding (RFC 4648, section 4). */
  public String base64() {
    StringBuilder s = new StringBuilder((bytes.length + 2) / 3 * 4);
    for (int i = 0; i < bytes.length; i += 3) {
      int n = (bytes[i] & 0xff) << 16;
      int count = Math.min(3, bytes.length - i);
      if (count > 1) {
        n |= (bytes[i + 1] & 0xff) << 8;
      }
      if (count > 2) {
        n |= bytes[i + 2] & 0xff;
      }
      for (int j = 0; j < 4; j++) {
        s.append(j <= count ? BASE64.charAt((n >> (18 - 6 * j)) & 0x3f) : '=');
      }
    }
    return s.toString();
  }

  @Override
  public int compareTo(Bytes other) {
    int n = Math.min(bytes.length, other.bytes.length);
    for (int i = 0; i < n; i++) {
      int c = Integer.compare(bytes[i] & 0xff, other.bytes[i] & 0xff);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(bytes.length, other.bytes.length);
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof Bytes b && Arrays.equals(bytes, b.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return hex();
  }
}
