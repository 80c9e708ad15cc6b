package io.runnel.loadtest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The command line of {@code ./runnel bench}: a size profile, the scenarios to run, and {@code --name value} flags
 * each scenario reads its size from.
 *
 * <p>Grammar: {@code [--quick | --full] [--only a,b] [--no-report] [--jfr] [--<flag> <value>]...}; a flag may
 * also be written {@code --flag=value}. Only flags in the known set are accepted, so a typo stops the run before
 * anything starts.
 *
 * @param profile {@link Profile#QUICK} (about a minute) or {@link Profile#FULL} (at most 20 minutes)
 * @param only the scenario names to run, or empty for all
 * @param report whether to write {@code docs/performance.md}
 * @param jfr whether each measured JVM records a JFR profile
 * @param values the remaining flags, by name without the dashes
 * @param command the command as typed, for the report
 */
public record Flags(Profile profile, Set<String> only, boolean report, boolean jfr, Map<String, String> values,
    String command) {

  /** How large each scenario's workload is unless a flag says otherwise. */
  public enum Profile {
    /** About a minute for everything. */
    QUICK,
    /** At most 20 minutes for everything. */
    FULL
  }

  /** Copies the collections. */
  public Flags {
    Objects.requireNonNull(profile, "profile");
    only = Set.copyOf(only);
    values = Map.copyOf(values);
    Objects.requireNonNull(command, "command");
  }

  /**
   * Parses {@code args}.
   *
   * @param args the arguments after {@code bench}
   * @param known the flags with values the scenarios read (without dashes)
   * @param scenarios the scenario names {@code --only} may name
   * @throws IllegalArgumentException naming the bad argument and what is accepted
   */
  public static Flags parse(List<String> args, Set<String> known, Set<String> scenarios) {
    Profile profile = Profile.QUICK;
    Set<String> only = new LinkedHashSet<>();
    boolean report = true;
    boolean jfr = false;
    Map<String, String> values = new LinkedHashMap<>();
    List<String> queue = new ArrayList<>(args);
    for (int i = 0; i < queue.size(); i++) {
      String arg = queue.get(i);
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument '" + arg + "': flags start with --");
      }
      String name = arg.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      switch (name) {
        case "quick" -> profile = Profile.QUICK;
        case "full" -> profile = Profile.FULL;
        case "no-report" -> report = false;
        case "jfr" -> jfr = true;
        default -> {
          if (value == null) {
            if (i + 1 >= queue.size()) {
              throw new IllegalArgumentException("--" + name + " needs a value");
            }
            value = queue.get(++i);
          }
          if (name.equals("only")) {
            for (String s : value.split(",")) {
              if (!scenarios.contains(s.trim())) {
                throw new IllegalArgumentException("--only " + s.trim() + ": no such scenario; known: " + scenarios);
              }
              only.add(s.trim());
            }
          } else if (known.contains(name)) {
            values.put(name, value);
          } else {
            throw new IllegalArgumentException("unknown flag --" + name + "; known: --quick --full --only "
                + "--no-report --jfr" + known.stream().sorted().map(k -> " --" + k).reduce("", String::concat));
          }
        }
      }
    }
    return new Flags(profile, only, report, jfr, values, "./runnel bench" + args.stream().map(a -> " " + a)
        .reduce("", String::concat));
  }

  /**
   * The integer flag {@code name}, or the profile's default.
   *
   * @throws IllegalArgumentException when the value is not a positive integer (underscores allowed: 200_000)
   */
  public long positive(String name, long quick, long full) {
    String v = values.get(name);
    if (v == null) {
      return profile == Profile.QUICK ? quick : full;
    }
    long n;
    try {
      n = Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " " + v + ": not an integer");
    }
    if (n <= 0) {
      throw new IllegalArgumentException("--" + name + " " + v + ": must be positive");
    }
    return n;
  }

  /**
   * The list flag {@code name} (comma-separated positive integers, rising, underscores allowed), or the profile's
   * default written the same way.
   *
   * @throws IllegalArgumentException naming the flag when one is not a positive integer or they do not rise
   */
  public List<Integer> rising(String name, String quick, String full) {
    String v = values.getOrDefault(name, profile == Profile.QUICK ? quick : full);
    List<Integer> out = new ArrayList<>();
    for (String s : v.split(",")) {
      int n;
      try {
        n = Integer.parseInt(s.trim().replace("_", ""));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--" + name + " " + v + ": '" + s + "' is not an integer");
      }
      if (n <= 0 || (!out.isEmpty() && n <= out.getLast())) {
        throw new IllegalArgumentException("--" + name + " " + v + ": must be positive and rising");
      }
      out.add(n);
    }
    return List.copyOf(out);
  }

  /** Whether scenario {@code name} runs: every one when {@code --only} is absent. */
  public boolean selected(String name) {
    return only.isEmpty() || only.contains(name);
  }
}
