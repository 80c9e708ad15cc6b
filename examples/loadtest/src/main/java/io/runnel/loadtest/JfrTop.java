package io.runnel.loadtest;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summarises a JFR recording's {@code jdk.ExecutionSample} events by their top frame (the method running when
 * sampled), as {@code jfr print --events jdk.ExecutionSample} would show them one by one.
 */
public final class JfrTop {

  private JfrTop() {}

  /**
   * One method and its share.
   *
   * @param method {@code class.method}
   * @param samples its count
   * @param share its share of all samples, 0 to 1
   */
  public record Frame(String method, long samples, double share) {}

  /**
   * A recording's profile: the methods most often on top of a sampled stack (self time), and the methods most often
   * anywhere on it (each counted once per sample: inclusive time).
   *
   * @param self the top frames, most frequent first
   * @param inclusive the frames anywhere on the stack, most frequent first
   * @param samples the number of execution samples read
   */
  public record Profile(List<Frame> self, List<Frame> inclusive, long samples) {}

  /**
   * Reads {@code recording}'s execution samples, keeping the {@code limit} most frequent methods of each kind.
   *
   * @throws IOException when the recording cannot be read
   */
  public static Profile read(Path recording, int limit) throws IOException {
    Map<String, Long> self = new HashMap<>();
    Map<String, Long> inclusive = new HashMap<>();
    long total = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
      if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null
          || e.getStackTrace().getFrames().isEmpty()) {
        continue;
      }
      List<RecordedFrame> frames = e.getStackTrace().getFrames();
      self.merge(name(frames.get(0)), 1L, Long::sum);
      frames.stream().map(JfrTop::name).distinct().forEach(m -> inclusive.merge(m, 1L, Long::sum));
      total++;
    }
    return new Profile(rank(self, total, limit), rank(inclusive, total, limit), total);
  }

  private static String name(RecordedFrame f) {
    return f.getMethod().getType().getName() + "." + f.getMethod().getName();
  }

  /** Ranks {@code counts} (of {@code total} samples), most first, at most {@code limit}: pure, for tests. */
  public static List<Frame> rank(Map<String, Long> counts, long total, int limit) {
    List<Frame> out = new ArrayList<>();
    counts.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
        .limit(limit)
        .forEach(en -> out.add(new Frame(en.getKey(), en.getValue(), total == 0 ? 0 : (double) en.getValue() / total)));
    return out;
  }

  /**
   * Reads {@code recording}, prints its 15 top frames (self and inclusive) to {@code out}, writes them beside it
   * ({@code <name>-profile.txt}), and returns a one-line note with the six top self frames for the report.
   *
   * @throws IOException when the recording cannot be read or the summary written
   */
  public static String summarise(Path recording, String label, PrintStream out) throws IOException {
    Profile profile = read(recording, 15);
    List<String> self = lines(profile.self());
    List<String> inclusive = lines(profile.inclusive());
    out.println(label + ": JFR, " + profile.samples() + " execution samples; top frames (self):");
    self.forEach(l -> out.println("  " + l));
    out.println(label + ": frames anywhere on the stack (inclusive):");
    inclusive.forEach(l -> out.println("  " + l));
    List<String> file = new ArrayList<>(List.of("self:"));
    file.addAll(self);
    file.add("inclusive:");
    file.addAll(inclusive);
    String name = recording.getFileName().toString().replaceFirst("\\.jfr$", "");
    Files.write(recording.resolveSibling(name + "-profile.txt"), file);
    return label + " profile (JFR, " + profile.samples() + " execution samples, " + recording + "), top frames (self): "
        + String.join("; ", self.subList(0, Math.min(6, self.size())).stream()
            .map(l -> l.strip().replaceAll(" +", " ")).toList());
  }

  /** The frames as one line each: {@code 12.3 %  345  class.method}. */
  public static List<String> lines(List<Frame> frames) {
    return frames.stream().map(f -> String.format(Locale.ROOT, "%5.1f %% %6d  %s", f.share() * 100, f.samples(),
        f.method())).toList();
  }
}
