package io.runnel.replicator;

import io.runnel.dsl.ColumnType;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;

/**
 * Random pgoutput text for a column type: mostly what PostgreSQL prints, sometimes other text the type accepts
 * (leading zeros, signs, spaces, upper case, exponents), sometimes text it refuses (out of range, not a number,
 * NUL). For property tests of the envelope's fast path.
 */
final class RandomPgText {

  private RandomPgText() {}

  /** One text value of {@code type}. */
  static String of(Random r, ColumnType type) {
    return switch (type.sqlName()) {
      case "int2" -> integer(r, Short.MIN_VALUE, Short.MAX_VALUE);
      case "int4" -> integer(r, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case "int8" -> integer(r, Long.MIN_VALUE, Long.MAX_VALUE);
      case "numeric" -> numeric(r);
      case "text", "varchar" -> text(r);
      case "uuid" -> uuid(r);
      case "bool" -> pick(r, "t", "f", "t", "f", "t", "f", "true", "false", "on", "1", "T", "maybe");
      case "float4", "float8" -> pick(r, "1.5", "-0", "0", "NaN", "Infinity", "-Infinity", "1e+30", "3.14159",
          "-2.5e-07", Double.toString(r.nextDouble()), "nope");
      case "date" -> pick(r, "2024-02-29", "0044-03-15 BC", "infinity", "-infinity", "1999-12-31", "2023-02-30");
      case "timestamp" -> r.nextInt(8) == 0 ? pick(r, "infinity", "2024-13-01 00:00:00", "2024-02-29T13:45:00.5",
          "0044-03-15 12:00:00 BC", "10000-01-01 00:00:00", "later") : timestamp(r, "");
      case "timestamptz" -> r.nextInt(8) == 0 ? pick(r, "-infinity", "2024-02-29T13:45:00Z", "later",
          "0044-03-15 12:00:00+00 BC", "2024-02-29 13:45:00.5+00:00") : timestamp(r, pick(r, "+00", "+00", "+00",
          "+05:30", "-08", "+00:00:12", ""));
      case "json", "jsonb" -> pick(r, "{\"a\": [1, 2]}", "{\"b\": 1, \"a\": 2}", "null", "\"s\"", "12.50",
          "[true, false, null]", "{bad");
      case "bytea" -> pick(r, "\\x00ff", "\\x", "\\xdeadbeef", "\\x0", "\\xzz");
      case "text[]" -> pick(r, "{a,\"b c\",NULL}", "{}", "{\"\\\\\",\"\\\"\"}", "{x");
      case "int8[]" -> pick(r, "{1,NULL,-9223372036854775808}", "{}", "{7}", "{a}");
      default -> throw new IllegalArgumentException("no generator for " + type);
    };
  }

  /** A timestamp as PostgreSQL prints one (sometimes with a day, hour or fraction it would not print). */
  private static String timestamp(Random r, String zone) {
    int year = r.nextInt(10) == 0 ? pick(r, 1, 999, 1000, 9999, 2000, 1900, 2100) : 1 + r.nextInt(9999);
    int month = r.nextInt(50) == 0 ? 13 : 1 + r.nextInt(12);
    int day = r.nextInt(4) == 0 ? 28 + r.nextInt(4) : 1 + r.nextInt(28);
    int hour = r.nextInt(50) == 0 ? 24 : r.nextInt(24);
    int second = r.nextInt(50) == 0 ? 60 : r.nextInt(60);
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%04d-%02d-%02d %02d:%02d:%02d", year,
        month, day, hour, r.nextInt(60), second));
    if (r.nextBoolean()) {
      b.append('.');
      int digits = 1 + r.nextInt(r.nextInt(20) == 0 ? 7 : 6);
      for (int i = 0; i < digits; i++) {
        b.append((char) ('0' + r.nextInt(10)));
      }
    }
    return b.append(zone).toString();
  }

  private static int pick(Random r, int... choices) {
    return choices[r.nextInt(choices.length)];
  }

  private static String pick(Random r, String... choices) {
    return choices[r.nextInt(choices.length)];
  }

  private static String integer(Random r, long min, long max) {
    long v = switch (r.nextInt(6)) {
      case 0 -> min;
      case 1 -> max;
      case 2 -> r.nextInt(21) - 10;
      default -> min == Long.MIN_VALUE ? r.nextLong() : min + (long) (r.nextDouble() * (max - min + 1));
    };
    String t = Long.toString(v);
    return switch (r.nextInt(14)) {
      case 0 -> "+" + t;
      case 1 -> " " + t + " ";
      case 2 -> v < 0 ? "-0" + t.substring(1) : "0" + t;
      case 3 -> "-0";
      case 4 -> max == Long.MAX_VALUE ? "9223372036854775808" : Long.toString(max + 1);
      case 5 -> pick(r, "1.5", "", "-", "abc", "1e3", "99999999999999999999");
      default -> t;
    };
  }

  private static String numeric(Random r) {
    if (r.nextInt(10) == 0) {
      return pick(r, "NaN", "Infinity", "-Infinity", "1e5", "-0", "-0.00", "00.5", ".5", "5.", "+1.5", " 2 ",
          "1.5E-3", "x", "0", "0.00", "-0.5");
    }
    StringBuilder b = new StringBuilder();
    if (r.nextBoolean()) {
      b.append('-');
    }
    int integerDigits = r.nextInt(8) == 0 ? 195 + r.nextInt(10) : r.nextInt(12);
    if (integerDigits == 0) {
      b.append('0');
    } else {
      b.append((char) ('1' + r.nextInt(9)));
      for (int i = 1; i < integerDigits; i++) {
        b.append((char) ('0' + r.nextInt(10)));
      }
    }
    if (r.nextBoolean()) {
      b.append('.');
      int scale = 1 + r.nextInt(6);
      for (int i = 0; i < scale; i++) {
        b.append((char) ('0' + r.nextInt(10)));
      }
    }
    return b.toString();
  }

  private static String uuid(Random r) {
    String t = new UUID(r.nextLong(), r.nextLong()).toString();
    return switch (r.nextInt(8)) {
      case 0 -> t.toUpperCase(Locale.ROOT);
      case 1 -> t.replace("-", "");
      case 2 -> "{" + t + "}";
      case 3 -> t.substring(1);
      default -> t;
    };
  }

  private static String text(Random r) {
    String[] parts = {"a", "Zé", "🎉", "\"", "\\", "/", "\n", "\t", "\u0001", "\u001f", "\u007f", "\u2028", "<>&",
        " ", "'", "ünïcødé", "\uD83D\uDE00", "日本"};
    StringBuilder b = new StringBuilder();
    int n = r.nextInt(12);
    for (int i = 0; i < n; i++) {
      b.append(parts[r.nextInt(parts.length)]);
    }
    if (r.nextInt(60) == 0) {
      b.append('\0');
    }
    return b.toString();
  }
}
