package io.runnel.protocol;

/**
 * A PostgreSQL WAL position ({@code pg_lsn}): an unsigned 64-bit byte offset, printed by PostgreSQL as two hex
 * halves ({@code 16/B374D848}; PostgreSQL's {@code src/backend/utils/adt/pg_lsn.c}).
 *
 * <p>A change position on the wire ({@code docs/protocol.md}, "LSN") is this LSN and a row's place in its
 * transaction: {@link #row(int)} and {@link #point()} make one, {@link Position#lsn()} takes it apart.
 *
 * @param value the position, compared unsigned
 */
public record Lsn(long value) implements Comparable<Lsn> {

  /** {@code 0/0}, which PostgreSQL treats as "no position". */
  public static final Lsn ZERO = new Lsn(0);

  /**
   * Parses PostgreSQL's text ({@code 16/B374D848}: one to eight hex digits either side of the slash, either case) or
   * 16 hex digits.
   *
   * @throws IllegalArgumentException when {@code text} is neither
   */
  public static Lsn parse(String text) {
    int slash = text.indexOf('/');
    if (slash >= 0) {
      long hi = Hex.parse32(text, 0, slash, true);
      long lo = Hex.parse32(text, slash + 1, text.length(), true);
      if (hi >= 0 && lo >= 0) {
        return new Lsn(hi << 32 | lo);
      }
      throw new IllegalArgumentException("Not an LSN: '" + text + "' (expected X/X, one to eight hex digits each)");
    }
    if (text.length() == 16) {
      long hi = Hex.parse32(text, 0, 8, true);
      long lo = Hex.parse32(text, 8, 16, true);
      if (hi >= 0 && lo >= 0) {
        return new Lsn(hi << 32 | lo);
      }
    }
    throw new IllegalArgumentException("Not an LSN: '" + text + "' (expected X/X or 16 hex digits)");
  }

  /** The 16 lower-case hex digits of this LSN. */
  public String hex16() {
    char[] c = new char[16];
    Hex.write(value, c, 0, 16);
    return new String(c);
  }

  /**
   * The position of row {@code position} (1, 2, 3…) of the transaction that committed at this LSN.
   *
   * @throws IllegalArgumentException when {@code position} is below 1
   */
  public Position row(int position) {
    if (position < 1) {
      throw new IllegalArgumentException("Rows count from 1, not " + position);
    }
    return new Position(this, position);
  }

  /** The position of this point itself (a read, an answer), which sorts before every row committed here. */
  public Position point() {
    return new Position(this, 0);
  }

  @Override
  public int compareTo(Lsn other) {
    return Long.compare(value + Long.MIN_VALUE, other.value + Long.MIN_VALUE);
  }

  /** PostgreSQL's text, {@code 16/B374D848}. */
  @Override
  public String toString() {
    return Hex.upper(value >>> 32) + "/" + Hex.upper(value & 0xffffffffL);
  }
}
