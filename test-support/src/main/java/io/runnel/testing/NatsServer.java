package io.runnel.testing;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;

/**
 * A real {@code nats-server} for tests: a test's own ({@link #start}), which it may kill and start again on the same
 * port, or the machine's shared one on {@code 127.0.0.1:4222} ({@link #sharedUrl}).
 *
 * <p>The binary is {@code RUNNEL_NATS_SERVER} when set, else {@code nats-server} on the {@code PATH}, in
 * {@code /usr/sbin} or {@code /usr/bin}. A test's own server runs
 * {@code nats-server -js -a 127.0.0.1 -p <port> -sd <dir>/store -c <dir>/nats.conf} (the first start picks a free port,
 * later starts reuse it), is ready when its log says so, and is stopped by its PID. When the binary is missing, or
 * nothing listens on 4222 for a test that uses the shared server, the test is skipped with the reason, unless the
 * environment variable {@code CI} is set: then it fails, so CI never passes by skipping the bus.
 *
 * <pre>{@code
 * try (NatsServer nats = NatsServer.start(dir, Map.of("max_payload", "2048"))) {
 *   connect(nats.url());
 *   nats.kill();      // SIGKILL by PID
 *   nats.startAgain(); // same port, same store
 * }
 * }</pre>
 */
public final class NatsServer implements AutoCloseable {

  /** The machine's shared server, at 127.0.0.1:4222. */
  public static final String SHARED_URL = "nats://127.0.0.1:4222";

  private static final long READY_SECONDS = 15;
  private static final Pattern LISTENING =
      Pattern.compile("Listening for client connections on [^\\s]*:(\\d+)");

  private final Path binary;
  private final Path directory;
  private final Path config;
  private int port;
  private @Nullable Process process;

  /** The server's process, which {@code start} launches before it hands the server out. */
  private Process process() {
    return Objects.requireNonNull(process, "started");
  }

  private NatsServer(Path binary, Path directory, Path config) {
    this.binary = binary;
    this.directory = directory;
    this.config = config;
  }

  /**
   * Starts a server of the test's own with JetStream on, storing under {@code directory}, with {@code settings}
   * written to its configuration file as {@code key: value} lines (for example {@code max_payload: 2048}); returns
   * once it accepts clients.
   *
   * @throws org.opentest4j.TestAbortedException when the binary is missing and {@code CI} is unset
   * @throws AssertionError when the binary is missing and {@code CI} is set, or it does not start within 15 s
   */
  public static NatsServer start(Path directory, Map<String, String> settings) {
    Path binary = binary();
    try {
      Files.createDirectories(directory.resolve("store"));
      List<String> lines = new ArrayList<>();
      settings.forEach((k, v) -> lines.add(k + ": " + v));
      Path config = Files.write(directory.resolve("nats.conf"), lines);
      NatsServer server = new NatsServer(binary, directory, config);
      server.launch();
      return server;
    } catch (IOException e) {
      throw new UncheckedIOException("Could not prepare " + directory + " for nats-server", e);
    }
  }

  /**
   * The URL of the machine's shared server, after checking that a NATS server answers on {@code 127.0.0.1:4222}.
   *
   * @throws org.opentest4j.TestAbortedException when none answers and {@code CI} is unset
   * @throws AssertionError when none answers and {@code CI} is set
   */
  public static String sharedUrl() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 4222), 2_000);
      s.setSoTimeout(2_000);
      byte[] head = s.getInputStream().readNBytes(4);
      if (!"INFO".equals(new String(head, StandardCharsets.US_ASCII))) {
        missing("What listens on 127.0.0.1:4222 is not a NATS server (it did not greet with INFO).");
      }
    } catch (IOException e) {
      missing("No NATS server listens on 127.0.0.1:4222 (" + e.getMessage() + "). Start one: nats-server -js -a "
          + "127.0.0.1 -p 4222 -sd /tmp/nats-store (.ci/run does this when nothing listens there).");
    }
    return SHARED_URL;
  }

  private static Path binary() {
    String override = System.getenv("RUNNEL_NATS_SERVER");
    List<Path> candidates = new ArrayList<>();
    if (override != null && !override.isBlank()) {
      if (Files.isExecutable(Path.of(override))) {
        return Path.of(override);
      }
      missing("RUNNEL_NATS_SERVER names " + override + ", which is not an executable nats-server.");
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty()) {
        candidates.add(Path.of(dir, "nats-server"));
      }
    }
    candidates.add(Path.of("/usr/sbin/nats-server"));
    candidates.add(Path.of("/usr/bin/nats-server"));
    for (Path p : candidates) {
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    missing("No nats-server binary (looked at PATH, /usr/sbin and /usr/bin). Install it: apt-get install -y "
        + "nats-server, or set RUNNEL_NATS_SERVER to one.");
    throw new AssertionError("unreachable");
  }

  /** Fails under CI, skips otherwise; both with {@code reason}. */
  private static void missing(String reason) {
    if (System.getenv("CI") != null) {
      throw new AssertionError(reason + " CI is set, so the NATS tests fail instead of being skipped.");
    }
    Assumptions.abort(reason + " Skipped (set CI to make this a failure).");
  }

  private void launch() {
    List<String> command = List.of(binary.toString(), "-js", "-a", "127.0.0.1", "-p",
        port == 0 ? "-1" : Integer.toString(port), "-sd", directory.resolve("store").toString(), "-c",
        config.toString());
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new AssertionError("nats-server did not start: " + command, e);
    }
    CountDownLatch ready = new CountDownLatch(1);
    int[] listening = {0};
    Deque<String> log = new ArrayDeque<>();
    Thread.ofVirtual().name("nats-server-log").start(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          synchronized (log) {
            log.addLast(line);
            if (log.size() > 50) {
              log.removeFirst();
            }
          }
          Matcher m = LISTENING.matcher(line);
          if (m.find()) {
            listening[0] = Integer.parseInt(m.group(1));
          }
          if (line.contains("Server is ready")) {
            ready.countDown();
          }
        }
      } catch (IOException e) {
        // The process ended; its exit shows below.
      }
      ready.countDown();
    });
    boolean started;
    try {
      started = ready.await(READY_SECONDS, TimeUnit.SECONDS) && p.isAlive() && listening[0] > 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      started = false;
    }
    if (!started) {
      p.destroyForcibly();
      String tail;
      synchronized (log) {
        tail = String.join("\n", log);
      }
      throw new AssertionError("nats-server did not become ready within " + READY_SECONDS + " s: " + command
          + "\n" + tail);
    }
    port = listening[0];
    process = p;
  }

  /** The client URL, {@code nats://127.0.0.1:<port>}, the same across {@link #startAgain()}. */
  public String url() {
    return "nats://127.0.0.1:" + port;
  }

  /** The client port. */
  public int port() {
    return port;
  }

  /** The running server's process id. */
  public long pid() {
    return process().pid();
  }

  /** Kills the server with SIGKILL (by its PID) and waits until it is gone: clients see their sockets drop. */
  public synchronized void kill() {
    ProcessHandle.of(process().pid()).ifPresent(ProcessHandle::destroyForcibly);
    awaitExit();
  }

  /** Stops the server with SIGTERM (by its PID) and waits until it is gone. */
  public synchronized void stop() {
    ProcessHandle.of(process().pid()).ifPresent(ProcessHandle::destroy);
    awaitExit();
  }

  /**
   * Starts the server again on the same port and store after {@link #kill()} or {@link #stop()}.
   *
   * @throws IllegalStateException when it runs
   */
  public synchronized void startAgain() {
    if (process().isAlive()) {
      throw new IllegalStateException("nats-server " + process().pid() + " still runs");
    }
    launch();
  }

  private void awaitExit() {
    try {
      if (!process().waitFor(15, TimeUnit.SECONDS)) {
        process().destroyForcibly().waitFor(15, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Kills the server when it still runs. */
  @Override
  public synchronized void close() {
    if (process().isAlive()) {
      kill();
    }
  }
}
