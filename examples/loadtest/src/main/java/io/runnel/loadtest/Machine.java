package io.runnel.loadtest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The machine a run measured on, from {@code /proc/cpuinfo}, {@code /proc/meminfo}, {@code /etc/os-release} and the
 * running JVM.
 *
 * @param cpuModel the first {@code model name} of {@code /proc/cpuinfo}
 * @param cpus the number of {@code processor} entries
 * @param ramGiB {@code MemTotal}, GiB
 * @param os {@code PRETTY_NAME} of {@code /etc/os-release} and the kernel release
 * @param jdk the JVM's vendor, version and name
 * @param load {@code /proc/loadavg}'s 1, 5 and 15 minute load averages when the run started (other work on a
 *     shared machine shows here)
 */
public record Machine(String cpuModel, int cpus, double ramGiB, String os, String jdk, String load) {

  /** Reads this machine; a file it cannot read gives {@code unknown} for its part. */
  public static Machine here() {
    List<String> cpuinfo = lines("/proc/cpuinfo");
    String model = cpuinfo.stream().filter(l -> l.startsWith("model name")).findFirst()
        .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown");
    int cpus = (int) cpuinfo.stream().filter(l -> l.startsWith("processor")).count();
    double ram = lines("/proc/meminfo").stream().filter(l -> l.startsWith("MemTotal:")).findFirst()
        .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024.0 / 1024.0).orElse(0.0);
    String os = lines("/etc/os-release").stream().filter(l -> l.startsWith("PRETTY_NAME=")).findFirst()
        .map(l -> l.substring(12).replace("\"", "")).orElse(System.getProperty("os.name"))
        + ", kernel " + System.getProperty("os.version");
    String jdk = System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version") + " ("
        + System.getProperty("java.vm.name") + ")";
    String load = lines("/proc/loadavg").stream().findFirst()
        .map(l -> String.join(" ", Arrays.asList(l.split(" ")).subList(0, 3))).orElse("unknown");
    return new Machine(model, cpus == 0 ? Runtime.getRuntime().availableProcessors() : cpus, ram, os, jdk, load);
  }

  /** The machine as report lines. */
  public List<String> lines() {
    return List.of("CPU: " + cpuModel + ", " + cpus + " CPUs (/proc/cpuinfo)",
        String.format(Locale.ROOT, "RAM: %.1f GiB", ramGiB), "OS: " + os, "JDK: " + jdk,
        "load average at start (1/5/15 min): " + load);
  }

  private static List<String> lines(String file) {
    try {
      return Files.readAllLines(Path.of(file));
    } catch (IOException e) {
      return List.of();
    }
  }
}
