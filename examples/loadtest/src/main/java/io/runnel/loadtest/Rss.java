package io.runnel.loadtest;

/** The resident set size in a {@code /proc/<pid>/status} text. */
final class Rss {

  private Rss() {}

  /**
   * The {@code VmRSS:} line's value in bytes (the file gives kB).
   *
   * @throws IllegalArgumentException when there is no {@code VmRSS} line
   */
  static long parse(String status) {
    for (String line : status.split("\n")) {
      if (line.startsWith("VmRSS:")) {
        String v = line.substring(6).trim();
        return Long.parseLong(v.substring(0, v.indexOf(' ')).trim()) * 1024;
      }
    }
    throw new IllegalArgumentException("no VmRSS line in the status text");
  }
}
