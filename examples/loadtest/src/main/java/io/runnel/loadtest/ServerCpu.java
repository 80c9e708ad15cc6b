package io.runnel.loadtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * CPU time used so far by a PostgreSQL server: the postmaster and every process under it, read from
 * {@code /proc}. A backend or WAL sender that has exited is counted too, through the postmaster's waited-for
 * children time, so the difference of two readings is the server's CPU over the interval.
 */
public final class ServerCpu {

  private ServerCpu() {}

  /**
   * Sums the CPU of {@code postmasterPid} and its descendants, in ticks ({@link ProcStat#TICKS_PER_SECOND}).
   *
   * @param postmasterPid the server's first line of {@code postmaster.pid}
   * @throws IllegalStateException when the postmaster is not running
   */
  public static long ticks(long postmasterPid) {
    List<ProcStat> all = all();
    if (all.stream().noneMatch(s -> s.pid() == postmasterPid)) {
      throw new IllegalStateException("no process " + postmasterPid + " in /proc: is PostgreSQL running?");
    }
    return treeTicks(all, postmasterPid);
  }

  /** The tree time of {@code root} and every live descendant in {@code stats}: pure, for tests. */
  public static long treeTicks(List<ProcStat> stats, long root) {
    long sum = 0;
    List<Long> frontier = new ArrayList<>(List.of(root));
    while (!frontier.isEmpty()) {
      long pid = frontier.removeLast();
      for (ProcStat s : stats) {
        if (s.pid() == pid) {
          sum += s.treeTicks();
        }
        if (s.ppid() == pid && s.pid() != pid) {
          frontier.add(s.pid());
        }
      }
    }
    return sum;
  }

  /** The postmaster's pid from a data directory's {@code postmaster.pid}. @throws IOException when unreadable */
  public static long postmasterPid(Path dataDirectory) throws IOException {
    return Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0).trim());
  }

  private static List<ProcStat> all() {
    List<ProcStat> out = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(Path.of("/proc"))) {
      dirs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
          .forEach(p -> ProcStat.read(Long.parseLong(p.getFileName().toString())).ifPresent(out::add));
    } catch (IOException e) {
      throw new IllegalStateException("cannot list /proc: " + e.getMessage(), e);
    }
    return out;
  }
}
