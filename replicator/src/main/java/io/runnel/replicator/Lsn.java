package io.runnel.replicator;

/**
 * A PostgreSQL WAL position ({@code pg_lsn}): an unsigned 64-bit byte offset, printed by PostgreSQL as two hex
 * halves ({@code 16/B374D848}).
 *
 * <p>Runnel's protocol spells change positions as 24 lower-case hex characters ({@code PROTOCOL.md}, "LSN"): this
 * LSN in 16 hex digits, then the 8-hex position of a row in its transaction counting from 1; a position that is not
 * a row ends in {@code 00000000}. {@link #row(int)} and {@link #point()} make those strings.
 *
 * @param value the position, compared unsigned
 */
public record Lsn(long value) implements Comparable<Lsn> {

  /** {@code 0/0}, which PostgreSQL treats as "no position". */
  public static final Lsn ZERO = new Lsn(0);

  /**
   * Parses PostgreSQL's text ({@code 16/B374D848}) or 16 hex digits.
   *
   * @throws IllegalArgumentException when {@code text} is neither
   */
  public static Lsn parse(String text) {
    int slash = text.indexOf('/');
    try {
      if (slash > 0 && slash <= 8 && text.length() - slash - 1 >= 1 && text.length() - slash - 1 <= 8) {
        long hi = Long.parseLong(text.substring(0, slash), 16);
        long lo = Long.parseLong(text.substring(slash + 1), 16);
        return new Lsn(hi << 32 | lo);
      }
      if (text.length() == 16) {
        return new Lsn(Long.parseUnsignedLong(text, 16));
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Not an LSN: '" + text + "'", e);
    }
    throw new IllegalArgumentException("Not an LSN: '" + text + "' (expected X/X or 16 hex digits)");
  }

  /** The 16 lower-case hex digits of this LSN. */
  public String hex16() {
    String h = Long.toHexString(value);
    return "0".repeat(16 - h.length()) + h;
  }

  /**
   * The 24-hex position of row {@code position} (1, 2, 3…) of the transaction that committed at this LSN.
   *
   * @throws IllegalArgumentException when {@code position} is below 1
   */
  public String row(int position) {
    if (position < 1) {
      throw new IllegalArgumentException("Rows count from 1, not " + position);
    }
    char[] c = new char[24];
    hex(value, c, 0, 16);
    hex(position, c, 16, 8);
    return new String(c);
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** Writes the low {@code digits} hex digits of {@code v} into {@code c} at {@code at}, zero-padded, lower case. */
  private static void hex(long v, char[] c, int at, int digits) {
    for (int i = at + digits - 1; i >= at; i--) {
      c[i] = HEX[(int) (v & 0xf)];
      v >>>= 4;
    }
  }

  /** The 24-hex position of this point itself (a read, an answer), which sorts before every row committed here. */
  public String point() {
    return hex16() + "00000000";
  }

  /**
   * The commit LSN of a 24-hex change position.
   *
   * @throws IllegalArgumentException when {@code position} is not 24 lower-case hex digits
   */
  public static Lsn ofPosition(String position) {
    if (position.length() != 24 || !position.matches("[0-9a-f]{24}")) {
      throw new IllegalArgumentException("Not a 24-hex change position: '" + position + "'");
    }
    return new Lsn(Long.parseUnsignedLong(position.substring(0, 16), 16));
  }

  @Override
  public int compareTo(Lsn other) {
    return Long.compareUnsigned(value, other.value);
  }

  /** PostgreSQL's text, {@code 16/B374D848}. */
  @Override
  public String toString() {
    return Long.toHexString(value >>> 32).toUpperCase() + "/" + Long.toHexString(value & 0xffffffffL).toUpperCase();
  }
}
