package io.runnel.replicator;

import io.runnel.dsl.ColumnType;
import org.jspecify.annotations.Nullable;

/**
 * Which pgoutput text values go into the bus envelope as they are, without parsing them to their Java type and
 * formatting them back ({@code docs/protocol.md}, "Values"). A value is written from its text only when its form is one
 * the typed path provably writes back unchanged: the canonical form PostgreSQL prints. Any other text (which
 * PostgreSQL does not send, but a test or another server might) takes the typed path, so the envelope is the same
 * byte for byte either way, and a value the typed path refuses is still refused.
 *
 * <ul>
 *   <li>int2, int4: {@code -?(0|[1-9][0-9]*)} within the type's range, as a JSON number ({@code Long.toString} of
 *       the parsed value is the same text);
 *   <li>int8: the same form within range, as a JSON string;
 *   <li>text, varchar: any text without NUL (the typed path refuses NUL), as a JSON string;
 *   <li>uuid: 36 characters, lower-case hex with hyphens at 8, 13, 18 and 23 (the canonical form);
 *   <li>bool: {@code t} or {@code f};
 *   <li>numeric: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?} with at most {@link #MAX_NUMERIC_CHARS} characters and not a
 *       negative zero: {@code new BigDecimal(t).toPlainString()} gives back {@code t} for exactly these (no
 *       exponent, no leading zeros, the scale kept), far inside PostgreSQL's range checks;
 *   <li>timestamptz: {@code YYYY-MM-DD HH:MM:SS[.F]+00} (PostgreSQL's output in a UTC session), year 0001 to 9999
 *       without {@code BC}, a real calendar day, hour up to 23, second up to 59, 1 to 6 fraction digits not
 *       ending in 0: the typed path prints that instant as the same digits with {@code T} for the space and
 *       {@code Z} for {@code +00} (4-digit years, the fraction without trailing zeros); timestamp the same without
 *       the zone and the {@code Z}; any other zone or form takes the typed path, which converts it to UTC;
 *   <li>every other type (floats, dates, json, bytea, arrays): always the typed path.
 * </ul>
 */
final class TextValues {

  /** The longest numeric text written as it is (the range checks start far beyond it). */
  static final int MAX_NUMERIC_CHARS = 200;

  /** How a column's text value is written. */
  enum Kind {
    /** int2 or int4: a JSON number. */
    INT_NUMBER,
    /** int8: a JSON string of digits. */
    INT8_STRING,
    /** text, varchar: a JSON string. */
    TEXT,
    /** uuid: a JSON string. */
    UUID,
    /** bool: a JSON boolean. */
    BOOL,
    /** numeric: a JSON string of its digits. */
    NUMERIC,
    /** timestamptz: a JSON string, ISO 8601 in UTC. */
    TIMESTAMPTZ,
    /** timestamp: a JSON string, ISO 8601 without zone. */
    TIMESTAMP,
    /** Parsed to its type and encoded from that. */
    TYPED
  }

  private TextValues() {}

  /** The kind for {@code type}. */
  static Kind kindOf(ColumnType type) {
    if (type == ColumnType.INT2 || type == ColumnType.INT4) {
      return Kind.INT_NUMBER;
    }
    if (type == ColumnType.INT8) {
      return Kind.INT8_STRING;
    }
    if (type == ColumnType.TEXT || type == ColumnType.VARCHAR) {
      return Kind.TEXT;
    }
    if (type == ColumnType.UUID) {
      return Kind.UUID;
    }
    if (type == ColumnType.BOOL) {
      return Kind.BOOL;
    }
    if (type == ColumnType.NUMERIC) {
      return Kind.NUMERIC;
    }
    if (type == ColumnType.TIMESTAMPTZ) {
      return Kind.TIMESTAMPTZ;
    }
    if (type == ColumnType.TIMESTAMP) {
      return Kind.TIMESTAMP;
    }
    return Kind.TYPED;
  }

  /** The smallest value of an integer type (int2, int4, int8). */
  static long min(ColumnType type) {
    return type == ColumnType.INT2 ? Short.MIN_VALUE : type == ColumnType.INT4 ? Integer.MIN_VALUE : Long.MIN_VALUE;
  }

  /** The largest value of an integer type (int2, int4, int8). */
  static long max(ColumnType type) {
    return type == ColumnType.INT2 ? Short.MAX_VALUE : type == ColumnType.INT4 ? Integer.MAX_VALUE : Long.MAX_VALUE;
  }

  /** Whether {@code t} is {@code -?(0|[1-9][0-9]*)} with a value from {@code min} to {@code max}. */
  static boolean canonicalInteger(String t, long min, long max) {
    int n = t.length();
    int i = n > 0 && t.charAt(0) == '-' ? 1 : 0;
    int digits = n - i;
    if (digits < 1 || digits > 19 || (t.charAt(i) == '0' && (digits > 1 || i == 1))) {
      return false;
    }
    // Accumulate negatively, so Long.MIN_VALUE fits.
    long v = 0;
    for (int k = i; k < n; k++) {
      int d = t.charAt(k) - '0';
      if (d < 0 || d > 9) {
        return false;
      }
      if (v < (Long.MIN_VALUE + d) / 10) {
        return false;
      }
      v = v * 10 - d;
    }
    if (i == 0) {
      if (v == Long.MIN_VALUE) {
        return false;
      }
      v = -v;
    }
    return v >= min && v <= max;
  }

  /** Whether {@code t} holds no NUL character. */
  static boolean plainText(String t) {
    return t.indexOf('\0') < 0;
  }

  /** Whether {@code t} is a uuid in its canonical form: lower-case hex, hyphens at 8, 13, 18 and 23. */
  static boolean canonicalUuid(String t) {
    if (t.length() != 36) {
      return false;
    }
    for (int i = 0; i < 36; i++) {
      char c = t.charAt(i);
      boolean ok = (i == 8 || i == 13 || i == 18 || i == 23) ? c == '-'
          : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code t} is {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?}, at most {@link #MAX_NUMERIC_CHARS} long, and not a
   * negative zero.
   */
  static boolean canonicalNumeric(String t) {
    int n = t.length();
    if (n == 0 || n > MAX_NUMERIC_CHARS) {
      return false;
    }
    boolean negative = t.charAt(0) == '-';
    int i = negative ? 1 : 0;
    int start = i;
    boolean nonZero = false;
    while (i < n && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
      nonZero |= t.charAt(i) != '0';
      i++;
    }
    int integerDigits = i - start;
    if (integerDigits == 0 || (integerDigits > 1 && t.charAt(start) == '0')) {
      return false;
    }
    if (i < n) {
      if (t.charAt(i) != '.' || i + 1 == n) {
        return false;
      }
      i++;
      while (i < n) {
        char c = t.charAt(i);
        if (c < '0' || c > '9') {
          return false;
        }
        nonZero |= c != '0';
        i++;
      }
    }
    return !negative || nonZero;
  }

  /**
   * The ISO text of a timestamp in PostgreSQL's UTC output form ({@code 2026-11-30 01:55:00.123+00}, or without
   * {@code +00} when {@code zone} is false), or null when {@code t} is in any other form (see the class comment).
   */
  static @Nullable String isoTimestamp(String t, boolean zone) {
    int n = t.length();
    int end = zone ? n - 3 : n;
    if (end < 19 || end > 26 || (zone && !t.startsWith("+00", end))) {
      return null;
    }
    if (t.charAt(4) != '-' || t.charAt(7) != '-' || t.charAt(10) != ' ' || t.charAt(13) != ':'
        || t.charAt(16) != ':') {
      return null;
    }
    int year = digits(t, 0, 4);
    int month = digits(t, 5, 2);
    int day = digits(t, 8, 2);
    int hour = digits(t, 11, 2);
    int minute = digits(t, 14, 2);
    int second = digits(t, 17, 2);
    if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59
        || second > 59) {
      return null;
    }
    if (end > 19) {
      if (end == 20 || t.charAt(19) != '.' || digits(t, 20, end - 20) < 0 || t.charAt(end - 1) == '0') {
        return null;
      }
    }
    char[] c = new char[end + (zone ? 1 : 0)];
    t.getChars(0, end, c, 0);
    c[10] = 'T';
    if (zone) {
      c[end] = 'Z';
    }
    return new String(c);
  }

  /** The value of {@code count} decimal digits at {@code at}, or -1 when one is not a digit. */
  private static int digits(String t, int at, int count) {
    int v = 0;
    for (int i = at; i < at + count; i++) {
      int d = t.charAt(i) - '0';
      if (d < 0 || d > 9) {
        return -1;
      }
      v = v * 10 + d;
    }
    return v;
  }

  /** The days in {@code month} of {@code year}, proleptic Gregorian (as PostgreSQL counts). */
  private static int daysIn(int year, int month) {
    return switch (month) {
      case 2 -> year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
      case 4, 6, 9, 11 -> 30;
      default -> 31;
    };
  }
}
