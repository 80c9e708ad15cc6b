package io.runnel.example;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One role of the board as a separate JVM ({@code java -cp <this JVM's class path> io.runnel.example.Main}) with the
 * environment a test gives it (nothing of the test's own {@code RUNNEL_*}, {@code DATABASE_URL}, {@code NATS_URL} or
 * {@code PORT} leaks in). Its output (stdout and stderr) is kept line by line and copied to a log file; {@link #close}
 * sends SIGTERM, as Kubernetes does, and kills it when it has not ended within 30 s.
 */
final class RoleProcess implements AutoCloseable {

  private final String name;
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();
  private final Thread reader;

  private RoleProcess(String name, Process process, Path log) throws IOException {
    this.name = name;
    this.process = process;
    PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true);
    this.reader = new Thread(() -> {
      try (out; BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          out.println(line);
          lines.add(line);
        }
      } catch (IOException e) {
        lines.add("(output ended: " + e + ")");
      }
    }, "role-output-" + name);
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts {@code Main} named {@code name} (its log is {@code target/<name>.log}) with exactly {@code env}. */
  static RoleProcess start(String name, Map<String, String> env) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), Main.class.getName());
    Map<String, String> penv = pb.environment();
    penv.keySet().removeIf(k -> k.startsWith("RUNNEL_") || k.startsWith("REPLICATION_") || k.equals("DATABASE_URL")
        || k.equals("NATS_URL") || k.equals("PORT"));
    penv.putAll(env);
    pb.redirectErrorStream(true);
    Path log = Path.of("target", name + ".log");
    return new RoleProcess(name, pb.start(), log);
  }

  /**
   * The first output line starting with {@code prefix} (after trimming), waiting up to 60 s.
   *
   * @throws AssertionError when the process ends or 60 s pass first, with what it printed
   */
  String awaitLine(String prefix) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      String line = lines.poll(100, TimeUnit.MILLISECONDS);
      if (line != null) {
        seen.add(line);
        if (line.trim().startsWith(prefix)) {
          return line.trim();
        }
      } else if (!process.isAlive() && !reader.isAlive() && lines.isEmpty()) {
        // The process may end before this reader has queued its last lines: done only once its output is read.
        break;
      }
    }
    throw new AssertionError(name + " printed no line starting with '" + prefix + "'"
        + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")") + "; it printed: " + seen);
  }

  /** The port in the URL on the line starting with {@code prefix} ({@code http://localhost:<port>/...}). */
  int awaitPort(String prefix) throws InterruptedException {
    String line = awaitLine(prefix);
    int at = line.indexOf("localhost:") + "localhost:".length();
    int end = at;
    while (end < line.length() && Character.isDigit(line.charAt(end))) {
      end++;
    }
    return Integer.parseInt(line.substring(at, end));
  }

  /**
   * Kills the JVM with SIGKILL, and with it {@code alsoKill} (processes it started, such as its PostgreSQL's
   * watchdog), as a crash or {@code kill -9} would; waits until the JVM is gone.
   */
  void kill(List<ProcessHandle> alsoKill) throws InterruptedException {
    for (ProcessHandle p : alsoKill) {
      p.destroyForcibly();
    }
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
    reader.join(TimeUnit.SECONDS.toMillis(10));
  }

  /** The lines read so far by {@link #awaitLine}, in order. */
  List<String> printed() {
    return List.copyOf(seen);
  }

  /** The processes the JVM started that still run (its children and theirs). */
  List<ProcessHandle> descendants() {
    return process.descendants().toList();
  }

  /** Sends SIGTERM, as Kubernetes does, and returns at once (the process drains and stops on its own). */
  void terminate() {
    process.toHandle().destroy();
  }

  /** Waits up to {@code seconds} for the process to end; its exit value, or null when it still runs. */
  Integer awaitExit(long seconds) throws InterruptedException {
    return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : null;
  }

  /** Sends SIGTERM and waits for the end (at most 30 s, then kills) and for the last of its output. */
  @Override
  public void close() {
    // Through the handle: Process.destroy() would also close the pipes, losing what the process prints as it stops.
    process.toHandle().destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      reader.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
