package io.runnel.loadtest;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** CPU times from /proc/<pid>/stat, and a server's total over its process tree. */
class ProcStatTest {

  // A real postgres WAL sender line, with a command name holding spaces and parentheses.
  static final String LINE = "4242 (postgres: walsender (x) ) S 4000 4000 4000 0 -1 4194560 1000 0 0 0 "
      + "123 45 6 7 20 0 1 0 5000 200000000 3000 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";

  @Test
  void theCpuFieldsAreCountedFromTheLastClosingParenthesis() {
    ProcStat s = ProcStat.parse(LINE);
    assertAll(
        () -> assertEquals(4242, s.pid()),
        () -> assertEquals(4000, s.ppid()),
        () -> assertEquals(123, s.utime(), "field 14"),
        () -> assertEquals(45, s.stime(), "field 15"),
        () -> assertEquals(6, s.cutime(), "field 16"),
        () -> assertEquals(7, s.cstime(), "field 17"),
        () -> assertEquals(168, s.ownTicks()),
        () -> assertEquals(181, s.treeTicks()));
  }

  @Test
  void aLineThatIsNoStatLineIsRefused() {
    assertAll(
        () -> assertThrows(IllegalArgumentException.class, () -> ProcStat.parse("hello")),
        () -> assertThrows(IllegalArgumentException.class, () -> ProcStat.parse("1 (x) S 0 1 2")));
  }

  @Test
  void thisProcessCanBeRead() {
    assertTrue(ProcStat.read(ProcessHandle.current().pid()).isPresent(), "/proc/self is readable on Linux");
  }

  @Test
  void aServerCountsItsWholeTreeAndNothingElse() {
    List<ProcStat> stats = List.of(
        new ProcStat(1, 0, 1000, 1000, 0, 0),      // init: not the server's
        new ProcStat(10, 1, 5, 5, 30, 20),         // postmaster: its exited children's time in cutime/cstime
        new ProcStat(11, 10, 100, 10, 0, 0),       // a WAL sender
        new ProcStat(12, 10, 1, 1, 0, 0),          // the checkpointer
        new ProcStat(13, 11, 2, 0, 0, 0),          // a grandchild
        new ProcStat(20, 1, 500, 500, 0, 0));      // another program
    assertEquals(10 + 50 + 110 + 2 + 2, ServerCpu.treeTicks(stats, 10));
  }
}
