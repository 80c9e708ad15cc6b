package io.runnel.loadtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes runs into {@code docs/performance.md}. The file's opening (how to run, what each scenario measures) is
 * written by hand and kept as it is; every run goes right under the line {@link #MARKER}, so the newest run comes
 * first and older runs stay below it, untouched.
 */
public final class PerformanceDoc {

  /** The line under which runs are inserted, newest first. */
  public static final String MARKER = "<!-- runs: ./runnel bench inserts each run below this line, newest first -->";

  private PerformanceDoc() {}

  /**
   * {@code existing} with {@code run} inserted under the marker (and a blank line after it); when there is no
   * marker, the marker and the run are appended at the end.
   */
  public static String insert(String existing, String run) {
    String block = "\n" + run.strip() + "\n";
    int at = existing.indexOf(MARKER);
    if (at < 0) {
      String head = existing.isEmpty() || existing.endsWith("\n") ? existing : existing + "\n";
      return head + (head.isEmpty() ? "" : "\n") + MARKER + "\n" + block;
    }
    int after = at + MARKER.length();
    String rest = existing.substring(after);
    return existing.substring(0, after) + "\n" + block + (rest.isBlank() ? "" : "\n" + rest.stripLeading());
  }

  /**
   * Inserts {@code run} into the file at {@code path} (created when missing).
   *
   * @throws IOException when it cannot be read or written
   */
  public static void write(Path path, String run) throws IOException {
    String existing = Files.exists(path) ? Files.readString(path) : "";
    Files.writeString(path, insert(existing, run));
  }
}
