package io.runnel.protocol;

import org.jspecify.annotations.Nullable;

/**
 * A change position: where a row change, a read or an answer sits in the WAL's commit order. On the wire
 * ({@code docs/protocol.md}, "LSN") it is exactly 24 lower-case hex digits: the 16 of the transaction's commit
 * {@link Lsn}, then the 8 of the row's place in that transaction counting from 1. A point between rows (a read, a
 * mutation's answer, a snapshot, a position heartbeat) has row 0, so it sorts before the first row committed at its
 * LSN.
 *
 * <p>Positions order by LSN, then by row; that order is the order of the 24-hex texts, so a peer that compares the
 * texts agrees with {@link #compareTo}. Parse once at the edge ({@link #parse}, {@link #tryParse}) and compare
 * positions, never their texts.
 *
 * @param lsn the transaction's commit LSN, or the point's LSN
 * @param row the row's place in its transaction, 1, 2, 3…; 0 for a point. Compared unsigned, as its 8 hex digits are.
 */
public record Position(Lsn lsn, int row) implements Comparable<Position> {

  /** The position before every other: LSN {@code 0/0}, row 0. */
  public static final Position ZERO = new Position(Lsn.ZERO, 0);

  /** The length of a position's text: 24. */
  public static final int TEXT_LENGTH = 24;

  /**
   * Checks the LSN is there.
   *
   * @throws NullPointerException when {@code lsn} is null
   */
  public Position {
    if (lsn == null) {
      throw new NullPointerException("lsn");
    }
  }

  /**
   * Reads a position's 24 lower-case hex digits.
   *
   * @throws IllegalArgumentException when {@code text} is anything else
   */
  public static Position parse(String text) {
    Position p = tryParse(text);
    if (p == null) {
      throw new IllegalArgumentException("Not a change position: '" + text + "' (expected 24 lower-case hex digits)");
    }
    return p;
  }

  /** The position {@code text} spells (24 lower-case hex digits), or null when it spells none. */
  public static @Nullable Position tryParse(String text) {
    if (text.length() != TEXT_LENGTH) {
      return null;
    }
    long hi = Hex.parse32(text, 0, 8, false);
    long lo = Hex.parse32(text, 8, 16, false);
    long row = Hex.parse32(text, 16, 24, false);
    if (hi < 0 || lo < 0 || row < 0) {
      return null;
    }
    return new Position(new Lsn(hi << 32 | lo), (int) row);
  }

  /** Whether this is a point between rows (row 0), as reads, answers and position heartbeats carry. */
  public boolean isPoint() {
    return row == 0;
  }

  /** Whether this position is at or past {@code mark}. */
  public boolean reached(Position mark) {
    return compareTo(mark) >= 0;
  }

  /** Whether this position is strictly past {@code other}. */
  public boolean isAfter(Position other) {
    return compareTo(other) > 0;
  }

  /** Whether this position is strictly before {@code other}. */
  public boolean isBefore(Position other) {
    return compareTo(other) < 0;
  }

  @Override
  public int compareTo(Position other) {
    int byLsn = lsn.compareTo(other.lsn);
    return byLsn != 0 ? byLsn : Integer.compare(row + Integer.MIN_VALUE, other.row + Integer.MIN_VALUE);
  }

  /** The wire text: 24 lower-case hex digits. */
  @Override
  public String toString() {
    char[] c = new char[TEXT_LENGTH];
    Hex.write(lsn.value(), c, 0, 16);
    Hex.write(row, c, 16, 8);
    return new String(c);
  }
}
