package io.runnel.loadtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The CPU fields of one line of {@code /proc/<pid>/stat}, in clock ticks ({@code getconf CLK_TCK}, 100 a second on
 * Linux): its own user and system time, and the user and system time of its children it has waited for.
 *
 * @param pid the process id
 * @param ppid the parent's process id
 * @param utime user time, ticks
 * @param stime system time, ticks
 * @param cutime user time of waited-for children, ticks
 * @param cstime system time of waited-for children, ticks
 */
public record ProcStat(long pid, long ppid, long utime, long stime, long cutime, long cstime) {

  /** Linux's USER_HZ: the unit of every time field in {@code /proc/<pid>/stat}. */
  public static final long TICKS_PER_SECOND = 100;

  /** Checks no field is negative. */
  public ProcStat {
    if (pid < 0 || ppid < 0 || utime < 0 || stime < 0 || cutime < 0 || cstime < 0) {
      throw new IllegalArgumentException("negative field in stat of " + pid);
    }
  }

  /**
   * Parses one stat line. The command name (field 2) is in parentheses and may hold spaces and parentheses, so the
   * fields are counted from the last {@code ')'}.
   *
   * @throws IllegalArgumentException when the line has no {@code ')'} or fewer than 17 fields
   */
  public static ProcStat parse(String line) {
    int close = line.lastIndexOf(')');
    int open = line.indexOf('(');
    if (close < 0 || open < 0) {
      throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + line);
    }
    String[] rest = line.substring(close + 2).trim().split(" ");
    // rest[0] is field 3 (state): field n is rest[n - 3].
    if (rest.length < 15) {
      throw new IllegalArgumentException("too few fields in stat line: " + line);
    }
    long pid = Long.parseLong(line.substring(0, open).trim());
    return new ProcStat(pid, Long.parseLong(rest[1]), Long.parseLong(rest[11]), Long.parseLong(rest[12]),
        Long.parseLong(rest[13]), Long.parseLong(rest[14]));
  }

  /** The stat of {@code pid}, or empty when it is gone (or this is no Linux). */
  public static Optional<ProcStat> read(long pid) {
    try {
      return Optional.of(parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Its own user plus system time, ticks. */
  public long ownTicks() {
    return utime + stime;
  }

  /** Its own time plus that of its waited-for children, ticks. */
  public long treeTicks() {
    return utime + stime + cutime + cstime;
  }
}
