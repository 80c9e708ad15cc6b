package io.runnel.loadtest;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report: runs go under the marker, newest first, older runs kept; sections render as Markdown tables. */
class ReportTest {

  private static final String HEAD = "# Performance\n\nHow to run.\n\n" + PerformanceDoc.MARKER + "\n";

  @Test
  void aRunGoesRightUnderTheMarkerAndOlderRunsStayBelowIt() {
    String once = PerformanceDoc.insert(HEAD, "## run 1\n\nfigures 1\n");
    String twice = PerformanceDoc.insert(once, "## run 2\n\nfigures 2\n");
    assertAll(
        () -> assertTrue(twice.startsWith("# Performance\n\nHow to run.\n\n" + PerformanceDoc.MARKER),
            "the hand-written opening is kept"),
        () -> assertTrue(twice.indexOf("## run 2") < twice.indexOf("## run 1"), "newest first"),
        () -> assertTrue(twice.contains("figures 1"), "the older run is kept"),
        () -> assertEquals(twice, PerformanceDoc.insert(PerformanceDoc.insert(HEAD, "## run 1\n\nfigures 1"),
            "## run 2\n\nfigures 2"), "trailing newlines do not change the file"));
  }

  @Test
  void aFileWithoutTheMarkerGetsItAtTheEnd() {
    String out = PerformanceDoc.insert("# Performance\n", "## run\n");
    assertEquals("# Performance\n\n" + PerformanceDoc.MARKER + "\n\n## run\n", out);
  }

  @Test
  void aSectionRendersItsConditionsTableAndNotes() {
    Section s = new Section("decode", "Decode", List.of("20,000 changes"), List.of("decoder", "changes/s"),
        List.of(List.of("bare", "1|2")), List.of("ratio 0.9"));
    assertEquals("### Decode\n\n- 20,000 changes\n\n| decoder | changes/s |\n| --- | --- |\n| bare | 1\\|2 |\n\n"
        + "- ratio 0.9\n", s.markdown(), "a | in a cell is escaped");
  }

  @Test
  void aRowOfTheWrongWidthIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Section("d", "D", List.of(), List.of("a", "b"),
        List.of(List.of("x")), List.of()));
  }

  @Test
  void aDecodeResultLineRoundTripsAndRatiosAreJudgedAgainstTheTargets() {
    DecodeRun bare = new DecodeRun("bare", 1000, 2_000_000_000L, 1_000_000_000L, 50, 20, 140_000);
    DecodeRun runnel = new DecodeRun("runnel", 1000, 4_000_000_000L, 2_000_000_000L, 150, 20, 440_000);
    DecodeRun debezium = new DecodeRun("debezium", 1000, 8_000_000_000L, 5_000_000_000L, 400, 20, 640_000);
    assertAll(
        () -> assertEquals(runnel, DecodeRun.parse(runnel.line())),
        () -> assertEquals(1000.0, bare.steadyRate(), 1e-9, "changes per second, first to last"),
        () -> assertEquals(500.0, bare.startRate(), 1e-9, "changes per second, start to last"),
        () -> assertThrows(IllegalArgumentException.class, () -> DecodeRun.parse("DECODE-RESULT decoder=x")),
        () -> assertEquals(List.of(
            "Runnel / the limit (the fastest of bare: bare): 0.50 steady, 0.50 with start (target ≥ 0.8: not met)",
            "Runnel / bare: 0.50 steady, 0.50 with start",
            "Runnel / debezium: 2.50 steady, 2.00 with start (target ≥ 1.5: met)"),
            DecodeScenario.ratios(Map.of("bare", bare, "runnel", runnel, "debezium", debezium))),
        () -> assertEquals("Runnel / the limit (the fastest of bare, pg_recvlogical: pg_recvlogical): 0.25 steady,"
            + " 0.25 with start (target ≥ 0.8: not met)", DecodeScenario.ratios(Map.of("bare", bare,
            "pg_recvlogical", new DecodeRun("pg_recvlogical", 1000, 1_000_000_000L, 500_000_000L, 50, 20, 140_000),
            "runnel", runnel)).getFirst(), "the fastest limit reader is the limit"));
  }

  @Test
  void theMedianRoundIsTheMiddleSteadyRateAndTheRowShowsEveryRound() {
    DecodeRun slow = new DecodeRun("runnel", 1000, 3_000_000_000L, 2_000_000_000L, 1, 1, 1);
    DecodeRun middle = new DecodeRun("runnel", 1000, 2_000_000_000L, 1_000_000_000L, 1, 1, 1);
    DecodeRun fast = new DecodeRun("runnel", 1000, 1_000_000_000L, 500_000_000L, 1, 1, 1);
    assertAll(
        () -> assertEquals(middle, DecodeScenario.median(List.of(fast, slow, middle))),
        () -> assertEquals(slow, DecodeScenario.median(List.of(fast, slow)), "the lower of two"),
        () -> assertEquals(
            List.of("runnel", "1,000", "500, 1,000, 2,000", "500", "1.00 / 2.00", "0.01", "10.0", "0.01", "0"),
            DecodeScenario.row(List.of(fast, slow, middle))));
  }

  @Test
  void jfrFramesAreRankedMostFirstWithTheirShare() {
    List<JfrTop.Frame> top = JfrTop.rank(Map.of("a.B.c", 5L, "a.B.d", 3L, "a.B.e", 2L), 10, 2);
    assertEquals(List.of(new JfrTop.Frame("a.B.c", 5, 0.5), new JfrTop.Frame("a.B.d", 3, 0.3)), top);
  }
}
