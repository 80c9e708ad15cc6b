package io.runnel.loadtest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code ./runnel bench}: runs the selected scenarios one after another, prints each figure, and inserts a dated
 * section into {@code docs/performance.md} (machine, JDK, the command, each scenario's figures and conditions).
 *
 * <p>Run from the repository's root (the launcher does). Work files (the embedded server's data, worker logs, JFR
 * recordings) go to {@code examples/loadtest/target/bench/<time>/<scenario>} and are kept for inspection.
 */
public final class Bench {

  /** Every scenario built so far, in the order they run. */
  static final List<Scenario> SCENARIOS = List.of(new DecodeScenario(), new IdleScenario(), new FanoutScenario(),
      new PolicyScenario(), new StormScenario(), new CeilingScenario(), new ZeroScenario());

  private Bench() {}

  /**
   * Runs the benchmark.
   *
   * @param args see {@link Flags}
   * @throws Exception when the run cannot start; a scenario that cannot measure is reported as failed in its
   *     section, the others still run, and the process exits 1 at the end
   */
  public static void main(String[] args) throws Exception {
    Set<String> known = new LinkedHashSet<>();
    SCENARIOS.forEach(s -> known.addAll(s.flags()));
    Flags flags;
    try {
      flags = Flags.parse(List.of(args), known, SCENARIOS.stream().map(Scenario::name).collect(Collectors.toSet()));
    } catch (IllegalArgumentException e) {
      System.err.println("runnel bench: " + e.getMessage());
      System.exit(2);
      return;
    }
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    Path work = Path.of("examples/loadtest/target/bench", now.format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")))
        .toAbsolutePath();
    Machine machine = Machine.here();
    System.out.println("runnel bench: " + flags.command());
    machine.lines().forEach(l -> System.out.println("  " + l));
    List<Section> sections = new ArrayList<>();
    int failed = 0;
    long t0 = System.nanoTime();
    for (Scenario s : SCENARIOS) {
      if (!flags.selected(s.name())) {
        continue;
      }
      Path dir = Files.createDirectories(work.resolve(s.name()));
      Section section;
      try {
        section = s.run(flags, dir);
      } catch (Exception e) {
        // One scenario that cannot measure does not cost the others their run: it is reported as failed.
        System.out.println(s.name() + ": failed: " + e);
        e.printStackTrace(System.out);
        section = Section.failed(s.name(), e, dir);
        failed++;
      }
      System.out.println();
      System.out.println(section.markdown());
      sections.add(section);
    }
    double minutes = (System.nanoTime() - t0) / 60e9;
    String run = run(now, flags, machine, sections, minutes);
    if (flags.report()) {
      Path doc = Path.of("docs/performance.md");
      PerformanceDoc.write(doc, run);
      System.out.println("runnel bench: wrote this run at the top of the runs in " + doc.toAbsolutePath());
    }
    if (failed > 0) {
      System.out.println("runnel bench: " + failed + " scenario" + (failed == 1 ? "" : "s") + " failed (above)");
      System.exit(1);
    }
  }

  /** A run's Markdown: a dated heading, the machine and command, then each scenario's section. */
  static String run(ZonedDateTime when, Flags flags, Machine machine, List<Section> sections, double minutes) {
    StringBuilder b = new StringBuilder("## ").append(when.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")))
        .append(" UTC: ").append(flags.profile().name().toLowerCase(Locale.ROOT)).append(" run\n\n");
    b.append("- command: `").append(flags.command()).append("`\n");
    machine.lines().forEach(l -> b.append("- ").append(l).append('\n'));
    b.append(String.format(Locale.ROOT, "- took %.1f minutes%n", minutes));
    for (Section s : sections) {
      b.append('\n').append(s.markdown());
    }
    return b.toString();
  }
}
