package io.runnel.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A fresh PostgreSQL cluster from the machine's own PostgreSQL install ({@code /usr/lib/postgresql/<major>/bin},
 * the newest there; PostgreSQL 15 on these machines): for tests that must also pass on a PostgreSQL older than the
 * embedded 18, and for the benchmark's scenario 7, where Runnel and Zero each get a cluster of their own made the
 * same way: {@code initdb} (trust authentication, UTF-8, {@code --no-sync}) into a new directory, then
 * {@code pg_ctl start} on a free port on 127.0.0.1 (TCP only) with {@link #SETTINGS} and the caller's overrides, every
 * other setting the install's default (fsync on), and {@code pg_ctl stop -m fast} on {@link #close()}.
 *
 * <p>{@code initdb} refuses to run as root: as root, every {@code initdb} and {@code pg_ctl} runs as the
 * {@code postgres} user ({@code runuser -u postgres --}), and the cluster lives in a new directory of that user's
 * under the system's temporary directory (the work directory may sit under one the {@code postgres} user cannot
 * enter, such as a home or a {@code mktemp -d} directory); its server log is copied to the work directory and the
 * cluster removed on {@link #close()}.
 */
public final class SystemPostgres implements AutoCloseable {

  /** The server settings of every cluster this class starts (besides the port and addresses). */
  public static final Map<String, String> SETTINGS = Map.of("wal_level", "logical", "max_replication_slots", "10",
      "max_wal_senders", "10", "max_connections", "100", "synchronous_commit", "on", "timezone", "UTC");

  private final Path bin;
  private final Path dir;
  private final Path home;
  private final Path data;
  private final int port;
  private final List<String> asOwner;
  private final Map<String, String> settings;
  private boolean running = true;

  private SystemPostgres(Path bin, Path dir, Path home, int port, List<String> asOwner, Map<String, String> settings) {
    this.bin = bin;
    this.dir = dir;
    this.home = home;
    this.data = home.resolve("data");
    this.port = port;
    this.asOwner = asOwner;
    this.settings = settings;
  }

  /** The {@code bin} directory of the newest PostgreSQL install with {@code initdb} and {@code pg_ctl}, if any. */
  public static Optional<Path> find() {
    Path root = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    try (Stream<Path> majors = Files.list(root)) {
      return majors.map(m -> m.resolve("bin"))
          .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
          .max(Comparator.comparingInt(SystemPostgres::major));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The major version of an install's {@code bin} directory ({@code /usr/lib/postgresql/15/bin}: 15), or 0. */
  public static int major(Path bin) {
    Path install = bin.getParent();
    Path name = install == null ? null : install.getFileName();
    return name == null ? 0 : major(name.toString());
  }

  private static int major(String s) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * Makes a new cluster with the binaries in {@code bin} and starts it: in {@code dir/data}, or as root in a
   * directory of the {@code postgres} user's (above); its server log ends up in {@code dir/postgres.log}.
   *
   * @param dir a directory that does not exist yet
   * @throws IllegalStateException when {@code initdb} or {@code pg_ctl start} fails (naming its output), or when
   *     running as root and there is no {@code postgres} user
   * @throws IOException when a directory or a log cannot be written
   * @throws InterruptedException when interrupted while a command runs
   */
  public static SystemPostgres start(Path bin, Path dir) throws IOException, InterruptedException {
    return start(bin, dir, Map.of());
  }

  /**
   * The same, with {@code overrides} applied after {@link #SETTINGS} (for example {@code max_slot_wal_keep_size}).
   *
   * @throws IllegalStateException when {@code initdb} or {@code pg_ctl start} fails (naming its output)
   * @throws IOException when a directory or a log cannot be written
   * @throws InterruptedException when interrupted while a command runs
   */
  public static SystemPostgres start(Path bin, Path dir, Map<String, String> overrides)
      throws IOException, InterruptedException {
    Map<String, String> settings = new LinkedHashMap<>(SETTINGS);
    settings.putAll(overrides);
    Files.createDirectories(dir);
    Path home = dir;
    List<String> asOwner = new ArrayList<>();
    if ("root".equals(System.getProperty("user.name"))) {
      UserPrincipal postgres;
      try {
        postgres = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
      } catch (UserPrincipalNotFoundException e) {
        throw new IllegalStateException("initdb refuses root and there is no postgres user to run it as: create one"
            + " (useradd -r postgres) or run the bench as a user other than root", e);
      }
      home = Files.createTempDirectory("runnel-pg-");
      Files.setOwner(home, postgres);
      asOwner.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    Path data = home.resolve("data");
    List<String> initdb = new ArrayList<>(asOwner);
    initdb.addAll(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres", "-A", "trust",
        "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"));
    if (run(initdb, dir.resolve("initdb.log"), 120) != 0) {
      removeIfTemporary(dir, home);
      throw new IllegalStateException("initdb failed; see " + dir.resolve("initdb.log"));
    }
    int port = freePort();
    SystemPostgres server = new SystemPostgres(bin, dir, home, port, asOwner, settings);
    server.launch();
    return server;
  }

  /** Starts the cluster on its data directory and port ({@code pg_ctl start}). */
  private void launch() throws IOException, InterruptedException {
    // No Unix socket (its path could pass the 107-byte limit under a deep work directory); pg_ctl hands these
    // options to a shell, which reads '' as the empty value.
    StringBuilder options = new StringBuilder("-p " + port + " -c listen_addresses=127.0.0.1"
        + " -c unix_socket_directories=''");
    settings.forEach((k, v) -> options.append(" -c ").append(k).append('=').append(v));
    List<String> start = new ArrayList<>(asOwner);
    start.addAll(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l",
        home.resolve("postgres.log").toString(), "-w", "-t", "120", "-o", options.toString(), "start"));
    if (run(start, dir.resolve("pg_ctl-start.log"), 180) != 0) {
      // The postmaster may have forked before pg_ctl gave up: stop whatever started, by the same handles.
      close();
      throw new IllegalStateException("pg_ctl start failed; see " + dir.resolve("pg_ctl-start.log") + " and "
          + dir.resolve("postgres.log"));
    }
  }

  /** The port on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** The data directory (its {@code postmaster.pid} names the server's process). */
  public Path data() {
    return data;
  }

  /** A connection URL for libpq-style clients (Zero): the superuser on database {@code postgres}. */
  public String url() {
    return "postgres://postgres@127.0.0.1:" + port + "/postgres";
  }

  /** A new connection to database {@code postgres} as the superuser. @throws SQLException when refused */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres");
  }

  /** A JDBC URL for database {@code database} as the superuser. */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=postgres";
  }

  /** The major version of the binaries, for the report. */
  public int major() {
    return major(bin);
  }

  /**
   * Stops the server ({@code pg_ctl stop -m fast}); when {@code pg_ctl} fails, stops the postmaster named by
   * {@code postmaster.pid} through its process handle.
   */
  @Override
  public void close() {
    if (!running) {
      return;
    }
    running = false;
    try {
      stop();
    } finally {
      removeIfTemporary(dir, home);
    }
  }

  private void stop() {
    List<String> stop = new ArrayList<>(asOwner);
    stop.addAll(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "fast", "-w", "-t", "60",
        "stop"));
    try {
      if (run(stop, dir.resolve("pg_ctl-stop.log"), 90) == 0) {
        return;
      }
    } catch (IOException e) {
      // fall through to the handle
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
    } catch (IOException | RuntimeException e) {
      System.err.println("could not stop the PostgreSQL server in " + data + ": " + e);
    }
  }

  /** Keeps the server log of a cluster that lived outside the work directory, and removes that cluster. */
  private static void removeIfTemporary(Path dir, Path home) {
    if (home.equals(dir)) {
      return;
    }
    try {
      Path log = home.resolve("postgres.log");
      if (Files.exists(log)) {
        Files.copy(log, dir.resolve("postgres.log"), StandardCopyOption.REPLACE_EXISTING);
      }
      try (Stream<Path> all = Files.walk(home)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    } catch (IOException e) {
      System.err.println("could not remove the PostgreSQL cluster in " + home + ": " + e);
    }
  }

  /** Runs {@code command} with its output in {@code log}; its exit code, or -1 after {@code timeout} seconds. */
  private static int run(List<String> command, Path log, long timeout) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(timeout, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return -1;
    }
    return p.exitValue();
  }

  /** A port free on 127.0.0.1 now. */
  public static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
