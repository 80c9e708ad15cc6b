package io.runnel.dsl;

/**
 * A PostgreSQL {@code timestamp} or {@code timestamptz}: microseconds since 1970-01-01 00:00 (UTC for
 * {@code timestamptz}), or {@code infinity} / {@code -infinity}.
 *
 * <p>The infinities sit at {@link Long#MAX_VALUE} and {@link Long#MIN_VALUE}, as PostgreSQL itself stores them
 * ({@code DT_NOEND}, {@code DT_NOBEGIN} in {@code src/include/datatype/timestamp.h}), so plain integer order is
 * PostgreSQL's order. Use {@link #isFinite()} rather than comparing with them.
 *
 * @param epochMicros microseconds since the epoch, within 4713 BC to 294276 AD, or one of the two infinities
 */
public record PgTimestamp(long epochMicros) implements Comparable<PgTimestamp> {

  /** {@code infinity}: later than every timestamp. */
  public static final PgTimestamp INFINITY = new PgTimestamp(Long.MAX_VALUE);
  /** {@code -infinity}: earlier than every timestamp. */
  public static final PgTimestamp NEGATIVE_INFINITY = new PgTimestamp(Long.MIN_VALUE);

  /** @throws IllegalArgumentException when a finite value is outside PostgreSQL's timestamp range */
  public PgTimestamp {
    if (epochMicros != Long.MAX_VALUE && epochMicros != Long.MIN_VALUE) {
      long day = Math.floorDiv(epochMicros, Calendar.MICROS_PER_DAY);
      if (day < Calendar.MIN_DAY || day > Calendar.MAX_TIMESTAMP_DAY) {
        throw new IllegalArgumentException(epochMicros + " µs is outside PostgreSQL's timestamp range");
      }
    }
  }

  /** The timestamp {@code epochMillis} milliseconds after the epoch. */
  public static PgTimestamp ofEpochMillis(long epochMillis) {
    return new PgTimestamp(Math.multiplyExact(epochMillis, 1000L));
  }

  /**
   * Parses a {@code timestamptz}: PostgreSQL's output ({@code 2024-02-29 13:45:00.5+01}, {@code … BC}) or ISO 8601
   * ({@code 2024-02-29T12:45:00.5Z}); a zone is required; {@code infinity} and {@code -infinity}.
   *
   * @throws ValueInvalidException when {@code text} is not such a timestamp
   */
  public static PgTimestamp parseWithZone(String text) {
    PgTimestamp special = special(text);
    return special != null ? special : new PgTimestamp(Calendar.parseTimestamp("timestamptz", text, true));
  }

  /**
   * Parses a {@code timestamp} (without zone): PostgreSQL's output ({@code 2024-02-29 13:45:00.5}) or ISO 8601
   * ({@code 2024-02-29T13:45:00.5}); a zone is refused; {@code infinity} and {@code -infinity}.
   *
   * @throws ValueInvalidException when {@code text} is not such a timestamp
   */
  public static PgTimestamp parseLocal(String text) {
    PgTimestamp special = special(text);
    return special != null ? special : new PgTimestamp(Calendar.parseTimestamp("timestamp", text, false));
  }

  private static @io.runnel.wire.Nullable PgTimestamp special(String text) {
    if (text.equals("infinity") || text.equals("+infinity")) {
      return INFINITY;
    }
    if (text.equals("-infinity")) {
      return NEGATIVE_INFINITY;
    }
    return null;
  }

  /** Whether this is a point in time rather than an infinity. */
  public boolean isFinite() {
    return epochMicros != Long.MAX_VALUE && epochMicros != Long.MIN_VALUE;
  }

  /**
   * PostgreSQL's text for this value: with {@code zone}, as a {@code timestamptz} prints in a UTC session
   * ({@code +00}); without, as a {@code timestamp}.
   */
  public String pgText(boolean zone) {
    if (!isFinite()) {
      return epochMicros > 0 ? "infinity" : "-infinity";
    }
    return Calendar.formatPgTimestamp(epochMicros, zone);
  }

  /**
   * The JSON text of {@code PROTOCOL.md} ("Values"): ISO 8601 with up to six fraction digits, trailing zeros
   * dropped, {@code Z} appended for a {@code timestamptz}; {@code infinity} / {@code -infinity}.
   */
  public String isoText(boolean zone) {
    if (!isFinite()) {
      return epochMicros > 0 ? "infinity" : "-infinity";
    }
    return Calendar.formatIsoTimestamp(epochMicros, zone);
  }

  @Override
  public int compareTo(PgTimestamp other) {
    return Long.compare(epochMicros, other.epochMicros);
  }

  @Override
  public String toString() {
    return isoText(true);
  }
}
