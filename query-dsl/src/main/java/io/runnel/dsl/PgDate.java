package io.runnel.dsl;

/**
 * A PostgreSQL {@code date}: days since 1970-01-01 in the proleptic Gregorian calendar, or {@code infinity} /
 * {@code -infinity}.
 *
 * <p>The infinities sit at {@link Integer#MAX_VALUE} and {@link Integer#MIN_VALUE}, as PostgreSQL itself stores
 * them ({@code DATEVAL_NOEND}, {@code DATEVAL_NOBEGIN} in {@code src/include/datatype/timestamp.h}), so plain
 * integer order is PostgreSQL's order. Use {@link #isFinite()} rather than comparing with them.
 *
 * @param epochDay days since 1970-01-01, within 4714-11-24 BC to 5874897-12-31, or one of the two infinities
 */
public record PgDate(int epochDay) implements Comparable<PgDate> {

  /** {@code infinity}: later than every date. */
  public static final PgDate INFINITY = new PgDate(Integer.MAX_VALUE);
  /** {@code -infinity}: earlier than every date. */
  public static final PgDate NEGATIVE_INFINITY = new PgDate(Integer.MIN_VALUE);

  /** @throws IllegalArgumentException when a finite day is outside PostgreSQL's date range */
  public PgDate {
    if (epochDay != Integer.MAX_VALUE && epochDay != Integer.MIN_VALUE
        && (epochDay < Calendar.MIN_DAY || epochDay > Calendar.MAX_DATE_DAY)) {
      throw new IllegalArgumentException("Day " + epochDay + " is outside PostgreSQL's date range");
    }
  }

  /**
   * The date {@code year-month-day} (astronomical year: 1 BC is 0).
   *
   * @throws ValueInvalidException when there is no such day or it is out of range
   */
  public static PgDate of(int year, int month, int day) {
    if (month < 1 || month > 12 || day < 1 || day > Calendar.daysInMonth(year, month)) {
      throw new ValueInvalidException("date", year + "-" + month + "-" + day, "is not a day of the calendar");
    }
    long days = Calendar.daysFromCivil(year, month, day);
    if (days < Calendar.MIN_DAY || days > Calendar.MAX_DATE_DAY) {
      throw new ValueInvalidException("date", year + "-" + month + "-" + day, "is outside PostgreSQL's date range");
    }
    return new PgDate((int) days);
  }

  /**
   * Parses PostgreSQL's output ({@code 2024-02-29}, {@code 0044-03-15 BC}, {@code infinity}, {@code -infinity}) or
   * an ISO 8601 date with an astronomical, optionally signed year.
   *
   * @throws ValueInvalidException when {@code text} is not a date PostgreSQL could hold
   */
  public static PgDate parse(String text) {
    if (text.equals("infinity") || text.equals("+infinity")) {
      return INFINITY;
    }
    if (text.equals("-infinity")) {
      return NEGATIVE_INFINITY;
    }
    return new PgDate((int) Calendar.parseDate("date", text));
  }

  /** Whether this is a calendar day rather than an infinity. */
  public boolean isFinite() {
    return epochDay != Integer.MAX_VALUE && epochDay != Integer.MIN_VALUE;
  }

  /** PostgreSQL's text for this date (ISO {@code DateStyle}). */
  public String text() {
    if (epochDay == Integer.MAX_VALUE) {
      return "infinity";
    }
    if (epochDay == Integer.MIN_VALUE) {
      return "-infinity";
    }
    return Calendar.formatPgDate(epochDay);
  }

  @Override
  public int compareTo(PgDate other) {
    return Integer.compare(epochDay, other.epochDay);
  }

  @Override
  public String toString() {
    return text();
  }
}
