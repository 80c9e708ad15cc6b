package io.runnel.loadtest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A worker JVM of the socket scenarios, driven by one-line commands on its standard input and answering with lines
 * on its standard output (everything it prints, and its standard error, also goes to a log file). Stopped by its
 * own handle: {@code quit}, then {@link Process#destroy()} after 10 s. Scenario 7's Node clients speak the same
 * protocol and are started through {@link #process}.
 */
final class Jvm implements AutoCloseable {

  /**
   * The flags every worker JVM of these scenarios runs with (the node's and the floor's alike): a fixed 3 GB heap
   * ({@code -Xms} as {@code -Xmx}, as {@code docs/deploy.md} recommends for a node, so G1 keeps a large young
   * generation and collects seldom: with 10,000 sockets each young pause costs tens of milliseconds whatever its size,
   * and a heap left to grow from its default start paused every few seconds, which showed in the fan-out's p99),
   * touched in full at start ({@code -XX:+AlwaysPreTouch}: on this machine's VM a first touch of a page costs
   * microseconds, 0.9 to 2.1 s a GiB, and without it each young pause that copied into never-touched regions paid
   * for them, up to a second), and small thread stacks.
   */
  static final List<String> FLAGS = List.of("-Xms3g", "-Xmx3g", "-XX:+AlwaysPreTouch", "-Xss512k");

  private final String name;
  private final Process process;
  private final PrintWriter in;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final Path log;

  private Jvm(String name, Process process, Path log) throws IOException {
    this.name = name;
    this.process = process;
    this.log = log;
    this.in = new PrintWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8), true);
    Writer out = Files.newBufferedWriter(log);
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8)); out) {
        for (String line; (line = r.readLine()) != null; ) {
          out.write(line + "\n");
          out.flush();
          lines.add(line);
        }
      } catch (IOException e) {
        lines.add("error reading the worker's output: " + e);
      }
    }, name + "-out");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Starts {@code main} with {@code args} in a fresh JVM with {@link #FLAGS} (plus a JFR recording into
   * {@code files.jfr} when {@code jfr}), logging to {@code files.log} and its garbage collector's pauses, phase by
   * phase, to {@code files-gc.log} (cheap: a few lines a pause; where a tail comes from is read there first).
   */
  static Jvm start(String name, Class<?> main, List<String> args, Path files, boolean jfr) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(FLAGS);
    cmd.add("-Xlog:gc,gc+phases=debug:file=" + files + "-gc.log:uptime,tags");
    if (jfr) {
      cmd.add("-XX:StartFlightRecording=filename=" + files + ".jfr,settings=profile");
    }
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
    cmd.addAll(args);
    return process(name, cmd, null, Map.of(), Path.of(files + ".log"));
  }

  /**
   * Starts {@code command}, a program that speaks this line protocol (not necessarily a JVM), in {@code directory}
   * (null: this one) with {@code environment} added to this process's, logging to {@code log}.
   */
  static Jvm process(String name, List<String> command, @Nullable Path directory,
      Map<String, String> environment, Path log) throws IOException {
    ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
    if (directory != null) {
      b.directory(directory.toFile());
    }
    b.environment().putAll(environment);
    return new Jvm(name, b.start(), log);
  }

  /** The worker's process id. */
  long pid() {
    return process.pid();
  }

  /** Sends {@code command} and waits for the answer starting with {@code prefix}. */
  String ask(String command, String prefix, long timeoutSeconds) throws InterruptedException {
    in.println(command);
    return await(prefix, timeoutSeconds);
  }

  /**
   * The next line starting with {@code prefix}, skipping others (log lines).
   *
   * @throws IllegalStateException when none comes in time or the worker exits, naming its log
   */
  String await(String prefix, long timeoutSeconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    while (true) {
      String line = lines.poll(200, TimeUnit.MILLISECONDS);
      if ((line != null && line.startsWith(prefix + " ")) || prefix.equals(line)) {
        return line;
      }
      if (line != null && line.startsWith("error ")) {
        throw new IllegalStateException(name + ": " + line + "; see " + log);
      }
      if (line == null && !process.isAlive()) {
        throw new IllegalStateException(name + " exited (" + process.exitValue() + ") before '" + prefix + "'; see "
            + log);
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(name + " did not answer '" + prefix + "' within " + timeoutSeconds
            + " s; see " + log);
      }
    }
  }

  /** CPU time so far (user + system), ticks, or 0 when it is gone. */
  long cpuTicks() {
    return ProcStat.read(process.pid()).map(ProcStat::ownTicks).orElse(0L);
  }

  /** Resident set size now, bytes ({@code VmRSS} of {@code /proc/<pid>/status}), or -1 when unreadable. */
  long rssBytes() {
    try {
      return Rss.parse(Files.readString(Path.of("/proc", Long.toString(process.pid()), "status")));
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  @Override
  public void close() {
    try {
      in.println("quit");
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
