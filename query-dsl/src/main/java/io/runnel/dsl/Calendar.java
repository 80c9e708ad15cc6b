package io.runnel.dsl;

/**
 * Proleptic Gregorian date arithmetic and the text forms of PostgreSQL's {@code date}, {@code timestamp} and
 * {@code timestamptz}, without {@code java.time} (which the browser build cannot rely on).
 *
 * <p>Days are counted from 1970-01-01; years are astronomical (1 BC is year 0). The day conversions are Howard
 * Hinnant's {@code days_from_civil} / {@code civil_from_days} algorithms.
 */
final class Calendar {

  static final long MICROS_PER_SECOND = 1_000_000L;
  static final long MICROS_PER_DAY = 86_400L * MICROS_PER_SECOND;
  /** 4714-11-24 BC, Julian day 0 in the proleptic Gregorian calendar: PostgreSQL's first date and timestamp. */
  static final long MIN_DAY = daysFromCivil(-4713, 11, 24);
  /** 5874897-12-31 AD, PostgreSQL's last date. */
  static final long MAX_DATE_DAY = daysFromCivil(5874897, 12, 31);
  /** 294276-12-31 AD, the last day a PostgreSQL timestamp reaches. */
  static final long MAX_TIMESTAMP_DAY = daysFromCivil(294276, 12, 31);
  /** 2000-01-01, PostgreSQL's epoch for timestamps ({@code POSTGRES_EPOCH_JDATE}). */
  static final long POSTGRES_EPOCH_DAY = daysFromCivil(2000, 1, 1);
  /** The first timestamp, in microseconds since 2000-01-01 ({@code MIN_TIMESTAMP} in {@code datatype/timestamp.h}). */
  static final long MIN_TIMESTAMP = (MIN_DAY - POSTGRES_EPOCH_DAY) * MICROS_PER_DAY;
  /** Just past the last timestamp, 294277-01-01 00:00 ({@code END_TIMESTAMP} in {@code datatype/timestamp.h}). */
  static final long END_TIMESTAMP = (MAX_TIMESTAMP_DAY + 1 - POSTGRES_EPOCH_DAY) * MICROS_PER_DAY;
  /** The largest zone offset's hours: ±15:59:59 is the limit ({@code MAX_TZDISP_HOUR} in {@code datetime.h}). */
  static final long MAX_OFFSET_HOURS = 15;

  private Calendar() {}

  static long daysFromCivil(long year, int month, int day) {
    long y = month <= 2 ? year - 1 : year;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
  }

  /** {year, month, day} for a day count. */
  static long[] civilFromDays(long days) {
    long z = days + 719468;
    long era = (z >= 0 ? z : z - 146096) / 146097;
    long doe = z - era * 146097;
    long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long y = yoe + era * 400;
    long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long mp = (5 * doy + 2) / 153;
    long d = doy - (153 * mp + 2) / 5 + 1;
    long m = mp < 10 ? mp + 3 : mp - 9;
    return new long[] {m <= 2 ? y + 1 : y, m, d};
  }

  static int daysInMonth(long year, int month) {
    return switch (month) {
      case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
      case 4, 6, 9, 11 -> 30;
      default -> 31;
    };
  }

  /** PostgreSQL's ISO date text: {@code 2024-02-29}, {@code 0044-03-15 BC}; years padded to four digits. */
  static String formatPgDate(long days) {
    long[] ymd = civilFromDays(days);
    StringBuilder s = new StringBuilder(16);
    long year = ymd[0];
    boolean bc = year <= 0;
    pad(s, bc ? 1 - year : year, 4).append('-');
    pad(s, ymd[1], 2).append('-');
    pad(s, ymd[2], 2);
    if (bc) {
      s.append(" BC");
    }
    return s.toString();
  }

  /**
   * PostgreSQL's ISO timestamp text for {@code micros} since 2000-01-01: {@code 2024-02-29 13:45:00.5}; with
   * {@code utcOffset}, {@code +00} appended as a {@code timestamptz} prints in a UTC session; {@code BC} last.
   */
  static String formatPgTimestamp(long micros, boolean utcOffset) {
    long days = Math.floorDiv(micros, MICROS_PER_DAY) + POSTGRES_EPOCH_DAY;
    long inDay = Math.floorMod(micros, MICROS_PER_DAY);
    long[] ymd = civilFromDays(days);
    long year = ymd[0];
    boolean bc = year <= 0;
    StringBuilder s = new StringBuilder(40);
    pad(s, bc ? 1 - year : year, 4).append('-');
    pad(s, ymd[1], 2).append('-');
    pad(s, ymd[2], 2).append(' ');
    appendTime(s, inDay);
    if (utcOffset) {
      s.append("+00");
    }
    if (bc) {
      s.append(" BC");
    }
    return s.toString();
  }

  /**
   * ISO 8601 text for JSON ({@code docs/protocol.md}, "Values") of {@code micros} since 2000-01-01:
   * {@code 2024-02-29T13:45:00.5Z}; years outside 0000–9999
   * in the expanded six-digit form with a sign ({@code -000043}, {@code +010000}) that JavaScript's {@code Date}
   * parses; astronomical years (1 BC is 0000).
   */
  static String formatIsoTimestamp(long micros, boolean zulu) {
    long days = Math.floorDiv(micros, MICROS_PER_DAY) + POSTGRES_EPOCH_DAY;
    long inDay = Math.floorMod(micros, MICROS_PER_DAY);
    long[] ymd = civilFromDays(days);
    StringBuilder s = new StringBuilder(40);
    long year = ymd[0];
    if (year < 0) {
      pad(s.append('-'), -year, 6);
    } else if (year > 9999) {
      pad(s.append('+'), year, 6);
    } else {
      pad(s, year, 4);
    }
    s.append('-');
    pad(s, ymd[1], 2).append('-');
    pad(s, ymd[2], 2).append('T');
    appendTime(s, inDay);
    if (zulu) {
      s.append('Z');
    }
    return s.toString();
  }

  private static void appendTime(StringBuilder s, long inDay) {
    long seconds = inDay / MICROS_PER_SECOND;
    long fraction = inDay % MICROS_PER_SECOND;
    pad(s, seconds / 3600, 2).append(':');
    pad(s, seconds / 60 % 60, 2).append(':');
    pad(s, seconds % 60, 2);
    if (fraction != 0) {
      StringBuilder f = new StringBuilder();
      pad(f, fraction, 6);
      int end = f.length();
      while (f.charAt(end - 1) == '0') {
        end--;
      }
      s.append('.').append(f, 0, end);
    }
  }

  private static StringBuilder pad(StringBuilder s, long value, int width) {
    String digits = Long.toString(value);
    for (int i = digits.length(); i < width; i++) {
      s.append('0');
    }
    return s.append(digits);
  }

  /**
   * Parses a date: PostgreSQL's {@code YYYY-MM-DD} with an optional {@code BC}, or ISO 8601 with an astronomical,
   * optionally signed and expanded year. Returns days since 1970-01-01.
   *
   * @throws ValueInvalidException when the text is not such a date or is out of PostgreSQL's range
   */
  static long parseDate(String type, String text) {
    Cursor c = new Cursor(type, text);
    long days = c.date();
    c.end();
    if (days < MIN_DAY || days > MAX_DATE_DAY) {
      throw new ValueInvalidException(type, text,
          "is outside PostgreSQL's date range (4714-11-24 BC to 5874897-12-31)");
    }
    return days;
  }

  /**
   * Parses a timestamp into microseconds since 2000-01-01 00:00 (UTC for {@code timestamptz}): the date as {@link
   * #parseDate}, {@code T} or a space, {@code HH:MM[:SS[.ffffff]]}, then for {@code timestamptz} a zone ({@code Z},
   * {@code ±HH}, {@code ±HH:MM}, {@code ±HH:MM:SS}) which is required, and {@code BC} last as PostgreSQL prints it.
   *
   * @throws ValueInvalidException when the text is not such a timestamp, lacks or has a zone against its type, has
   *     more than six fraction digits or is out of PostgreSQL's range
   */
  static long parseTimestamp(String type, String text, boolean withZone) {
    Cursor c = new Cursor(type, text);
    long micros = c.timestamp(withZone);
    c.end();
    if (micros < MIN_TIMESTAMP || micros >= END_TIMESTAMP) {
      throw c.outOfRange();
    }
    return micros;
  }

  /** A small scanner over one date or timestamp text. */
  private static final class Cursor {
    private final String type;
    private final String text;
    private int pos;
    private boolean signedYear;

    Cursor(String type, String text) {
      this.type = type;
      this.text = text;
    }

    long date() {
      long sign = 1;
      if (peek() == '-' || peek() == '+') {
        signedYear = true;
        sign = text.charAt(pos++) == '-' ? -1 : 1;
      }
      long year = sign * digits(4, 7);
      expect('-');
      int month = (int) digits(2, 2);
      expect('-');
      int day = (int) digits(2, 2);
      if (month < 1 || month > 12) {
        throw bad("has no month " + month);
      }
      if (text.endsWith(" BC")) {
        if (signedYear || year == 0) {
          throw bad("mixes BC with a signed or zero year");
        }
        year = 1 - year;
      }
      if (day < 1 || day > daysInMonth(year, month)) {
        throw bad("has no day " + day + " in that month");
      }
      return daysFromCivil(year, month, day);
    }

    long timestamp(boolean withZone) {
      long days = date();
      if (days < MIN_DAY - 1 || days > MAX_TIMESTAMP_DAY + 1) {
        throw outOfRange(); // before the microseconds below could overflow
      }
      char sep = peek();
      if (sep != 'T' && sep != ' ') {
        throw bad("needs a time after the date");
      }
      pos++;
      long hour = digits(2, 2);
      expect(':');
      long minute = digits(2, 2);
      long second = 0;
      long fraction = 0;
      if (peek() == ':') {
        pos++;
        second = digits(2, 2);
        if (peek() == '.') {
          pos++;
          int start = pos;
          long f = digits(1, 6);
          for (int i = pos - start; i < 6; i++) {
            f *= 10;
          }
          fraction = f;
          if (isDigit(peek())) {
            throw bad("has more than six fraction digits (PostgreSQL keeps microseconds)");
          }
        }
      }
      if (hour > 24 || minute > 59 || second > 60 || (hour == 24 && (minute | second | fraction) != 0)) {
        throw bad("has no time " + hour + ":" + minute + ":" + second);
      }
      long micros = (days - POSTGRES_EPOCH_DAY) * MICROS_PER_DAY
          + ((hour * 60 + minute) * 60 + second) * MICROS_PER_SECOND + fraction;
      long offsetSeconds = 0;
      char z = peek();
      boolean hasZone = z == 'Z' || z == '+' || z == '-';
      if (hasZone != withZone) {
        throw bad(withZone ? "needs a zone (Z or ±HH:MM)" : "must not carry a zone (it is a timestamp without one)");
      }
      if (z == 'Z') {
        pos++;
      } else if (hasZone) {
        pos++;
        long sign = z == '-' ? -1 : 1;
        long oh = digits(2, 2);
        long om = 0;
        long os = 0;
        if (peek() == ':') {
          pos++;
          om = digits(2, 2);
          if (peek() == ':') {
            pos++;
            os = digits(2, 2);
          }
        } else if (isDigit(peek())) {
          om = digits(2, 2);
        }
        if (oh > MAX_OFFSET_HOURS || om > 59 || os > 59) {
          throw bad("has a zone offset beyond ±15:59:59 (PostgreSQL refuses a larger one)");
        }
        offsetSeconds = sign * (oh * 3600 + om * 60 + os);
      }
      return micros - offsetSeconds * MICROS_PER_SECOND;
    }

    void end() {
      if (text.startsWith(" BC", pos) && pos + 3 == text.length()) {
        pos += 3;
      }
      if (pos != text.length()) {
        throw bad("has unexpected text at position " + pos);
      }
    }

    private long digits(int min, int max) {
      int start = pos;
      long v = 0;
      while (pos < text.length() && pos - start < max && isDigit(text.charAt(pos))) {
        v = v * 10 + (text.charAt(pos) - '0');
        pos++;
      }
      if (pos - start < min) {
        throw bad("is not in ISO form (YYYY-MM-DD[ HH:MM:SS[.ffffff]])");
      }
      return v;
    }

    private void expect(char ch) {
      if (peek() != ch) {
        throw bad("is not in ISO form (YYYY-MM-DD[ HH:MM:SS[.ffffff]])");
      }
      pos++;
    }

    /** An ASCII digit (Character.isDigit would take other scripts' digits, and their values are not c - '0'). */
    private static boolean isDigit(char c) {
      return c >= '0' && c <= '9';
    }

    private char peek() {
      return pos < text.length() ? text.charAt(pos) : '\0';
    }

    ValueInvalidException outOfRange() {
      return bad("is outside PostgreSQL's timestamp range (4714-11-24 BC to 294276-12-31)");
    }

    private ValueInvalidException bad(String problem) {
      return new ValueInvalidException(type, text, problem);
    }
  }
}
