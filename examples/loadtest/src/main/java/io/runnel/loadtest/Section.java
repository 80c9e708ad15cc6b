package io.runnel.loadtest;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What one scenario measured, as it goes into {@code docs/performance.md}: its conditions, a table of figures, and
 * notes (ratios against the targets, what was skipped and why).
 *
 * @param scenario the scenario's name, as {@code --only} takes it
 * @param title a heading, for example {@code Decode}
 * @param conditions one line each: sizes, rows, server settings
 * @param header the table's column headings
 * @param rows the table's rows, each as long as {@code header}
 * @param notes one line each, after the table
 */
public record Section(String scenario, String title, List<String> conditions, List<String> header,
    List<List<String>> rows, List<String> notes) {

  /** Copies the lists and checks every row is as wide as the header. */
  public Section {
    Objects.requireNonNull(scenario, "scenario");
    Objects.requireNonNull(title, "title");
    conditions = List.copyOf(conditions);
    header = List.copyOf(header);
    rows = rows.stream().map(List::copyOf).toList();
    notes = List.copyOf(notes);
    for (List<String> row : rows) {
      if (row.size() != header.size()) {
        throw new IllegalArgumentException("row " + row + " has " + row.size() + " cells, header " + header.size());
      }
    }
  }

  /**
   * The section of a scenario that could not measure: its name, the failure, and where its logs are.
   *
   * @param work the scenario's work directory (its JVMs' logs)
   */
  public static Section failed(String scenario, Exception e, Path work) {
    return new Section(scenario, scenario + ": failed", List.of("the scenario stopped before it measured: "
        + String.valueOf(e.getMessage()).replace('\n', ' '), "its logs: `" + work + "`"), List.of("figure"),
        List.of(List.of("none")), List.of("**failed**: " + e.getClass().getSimpleName()));
  }

  /** The section as Markdown: a level-3 heading, the conditions as a list, the table, the notes as a list. */
  public String markdown() {
    StringBuilder b = new StringBuilder("### ").append(title).append("\n\n");
    conditions.forEach(c -> b.append("- ").append(c).append('\n'));
    b.append('\n').append(line(header)).append(line(header.stream().map(h -> "---").toList()));
    rows.forEach(r -> b.append(line(r)));
    if (!notes.isEmpty()) {
      b.append('\n');
      notes.forEach(n -> b.append("- ").append(n).append('\n'));
    }
    return b.toString();
  }

  private static String line(List<String> cells) {
    return "| " + String.join(" | ", cells.stream().map(c -> c.replace("|", "\\|")).toList()) + " |\n";
  }
}
