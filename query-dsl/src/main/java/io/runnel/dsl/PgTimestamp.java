package io.runnel.dsl;

import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL {@code timestamp} or {@code timestamptz}: microseconds since 2000-01-01 00:00 (UTC for
 * {@code timestamptz}), or {@code infinity} / {@code -infinity}.
 *
 * <p>The count is PostgreSQL's own ({@code Timestamp} in {@code src/include/datatype/timestamp.h}): from its epoch
 * 2000-01-01, so that the whole range up to 294276-12-31 fits in a {@code long} (from 1970 the last 30 years would
 * not). The infinities sit at {@link Long#MAX_VALUE} and {@link Long#MIN_VALUE}, as PostgreSQL itself stores them
 * ({@code DT_NOEND}, {@code DT_NOBEGIN}), so plain integer order is PostgreSQL's order. Use {@link #isFinite()}
 * rather than comparing with them.
 *
 * @param micros microseconds since 2000-01-01 00:00, from 4714-11-24 BC to 294276-12-31 23:59:59.999999, or one of
 *     the two infinities
 */
public record PgTimestamp(long micros) implements Comparable<PgTimestamp> {

  /** {@code infinity}: later than every timestamp. */
  public static final PgTimestamp INFINITY = new PgTimestamp(Long.MAX_VALUE);
  /** {@code -infinity}: earlier than every timestamp. */
  public static final PgTimestamp NEGATIVE_INFINITY = new PgTimestamp(Long.MIN_VALUE);

  /** @throws IllegalArgumentException when a finite value is outside PostgreSQL's timestamp range */
  public PgTimestamp {
    if (micros != Long.MAX_VALUE && micros != Long.MIN_VALUE
        && (micros < Calendar.MIN_TIMESTAMP || micros >= Calendar.END_TIMESTAMP)) {
      throw new IllegalArgumentException(micros + " µs since 2000 is outside PostgreSQL's timestamp range");
    }
  }

  /** The timestamp {@code epochMillis} milliseconds after 1970-01-01 00:00. */
  public static PgTimestamp ofEpochMillis(long epochMillis) {
    return new PgTimestamp(Math.subtractExact(Math.multiplyExact(epochMillis, 1000L),
        Calendar.POSTGRES_EPOCH_DAY * Calendar.MICROS_PER_DAY));
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

  private static @Nullable PgTimestamp special(String text) {
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
    return micros != Long.MAX_VALUE && micros != Long.MIN_VALUE;
  }

  /**
   * PostgreSQL's text for this value: with {@code zone}, as a {@code timestamptz} prints in a UTC session
   * ({@code +00}); without, as a {@code timestamp}.
   */
  public String pgText(boolean zone) {
    if (!isFinite()) {
      return micros > 0 ? "infinity" : "-infinity";
    }
    return Calendar.formatPgTimestamp(micros, zone);
  }

  /**
   * The JSON text of {@code docs/protocol.md} ("Values"): ISO 8601 with up to six fraction digits, trailing zeros
   * dropped, {@code Z} appended for a {@code timestamptz}; {@code infinity} / {@code -infinity}.
   */
  public String isoText(boolean zone) {
    if (!isFinite()) {
      return micros > 0 ? "infinity" : "-infinity";
    }
    return Calendar.formatIsoTimestamp(micros, zone);
  }

  @Override
  public int compareTo(PgTimestamp other) {
    return Long.compare(micros, other.micros);
  }

  @Override
  public String toString() {
    return isoText(true);
  }
}
