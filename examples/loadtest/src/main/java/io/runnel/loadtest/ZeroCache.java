package io.runnel.loadtest;

import io.runnel.testing.SystemPostgres;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Rocicorp Zero's server for scenario 7: its legacy permissions deployed with {@code zero-deploy-permissions}, then
 * {@code zero-cache} on Node 22 against one PostgreSQL cluster, with a fresh replica file, one sync worker and
 * telemetry off; ready when {@code GET /} answers {@code OK}. {@code zero-cache} runs several Node processes (a
 * dispatcher, the change streamer, the replicator, a syncer, a reaper): its CPU is that whole tree's, and
 * {@link #close()} stops the tree by the handle that started it and by the handles of its descendants.
 */
final class ZeroCache implements AutoCloseable {

  /** {@code ZERO_APP_ID}: the schema prefix Zero creates upstream. */
  static final String APP_ID = "bench";
  /** {@code ZERO_ADMIN_PASSWORD} (a benchmark's, not a secret). */
  static final String ADMIN_PASSWORD = "runnel-bench-zero-admin";

  private final Process process;
  private final int port;
  private final Path log;

  private ZeroCache(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /**
   * Deploys the permissions of {@code schema.js} to {@code pg}, starts {@code zero-cache} with its replica in
   * {@code dir} and waits until it serves.
   *
   * @throws IllegalStateException when a step fails or it does not serve within two minutes, naming its log
   */
  static ZeroCache start(ZeroInstall.Ready zero, SystemPostgres pg, Path dir) throws IOException,
      InterruptedException {
    Path deployLog = dir.resolve("zero-deploy-permissions.log");
    Process deploy = node(zero, List.of(zero.deployPermissions().toString(), "--schema-path", "./schema.js",
        "--upstream-db", pg.url(), "--app-id", APP_ID), Map.of(), deployLog);
    if (!deploy.waitFor(120, TimeUnit.SECONDS)) {
      deploy.destroyForcibly();
      throw new IllegalStateException("zero-deploy-permissions did not finish in 120 s; see " + deployLog);
    }
    if (deploy.exitValue() != 0) {
      throw new IllegalStateException("zero-deploy-permissions failed (exit " + deploy.exitValue() + "); see "
          + deployLog);
    }
    int port = freeTriple();
    Path log = dir.resolve("zero-cache.log");
    Process p = node(zero, List.of(zero.zeroCache().toString()), Map.of(
        "ZERO_UPSTREAM_DB", pg.url(),
        "ZERO_REPLICA_FILE", dir.resolve("replica.db").toString(),
        "ZERO_PORT", Integer.toString(port),
        "ZERO_APP_ID", APP_ID,
        "ZERO_ENABLE_TELEMETRY", "false",
        "ZERO_NUM_SYNC_WORKERS", "1",
        "ZERO_ADMIN_PASSWORD", ADMIN_PASSWORD), log);
    ZeroCache cache = new ZeroCache(p, port, log);
    try {
      cache.awaitReady(Duration.ofMinutes(2));
    } catch (RuntimeException | InterruptedException e) {
      cache.close();
      throw e;
    }
    return cache;
  }

  /** Starts Node 22 on {@code args} in the install directory, without inherited {@code ZERO_*} variables. */
  private static Process node(ZeroInstall.Ready zero, List<String> args, Map<String, String> env, Path log)
      throws IOException {
    ProcessBuilder b = new ProcessBuilder();
    b.command().add(zero.node().toString());
    b.command().addAll(args);
    b.directory(zero.dir().toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
    b.environment().keySet().removeIf(k -> k.startsWith("ZERO_"));
    b.environment().putAll(env);
    return b.start();
  }

  private void awaitReady(Duration most) throws InterruptedException {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
        .timeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + most.toNanos();
    String last = "no answer";
    while (true) {
      if (!process.isAlive()) {
        throw new IllegalStateException("zero-cache exited (" + process.exitValue() + ") before serving; see " + log);
      }
      try {
        HttpResponse<String> r = http.send(get, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200 && r.body().trim().equals("OK")) {
          return;
        }
        last = "HTTP " + r.statusCode() + " " + r.body().strip();
      } catch (IOException e) {
        last = e.toString();
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("zero-cache did not answer OK on GET / within " + most.toSeconds() + " s (last:"
            + " " + last + "); see " + log);
      }
      Thread.sleep(100);
    }
  }

  /** The URL its clients connect to ({@code cacheURL}). */
  String url() {
    return "http://127.0.0.1:" + port;
  }

  /** CPU time so far of {@code zero-cache} and every process under it, ticks. */
  long cpuTicks() {
    return ServerCpu.ticks(process.pid());
  }

  /** Its log. */
  Path log() {
    return log;
  }

  /**
   * Stops it: SIGTERM to the process it started (which stops its workers), a forced kill after 15 s, then the
   * same for any descendant still alive.
   */
  @Override
  public void close() {
    List<ProcessHandle> descendants = process.descendants().toList();
    stop(process.toHandle(), 15);
    descendants.forEach(d -> stop(d, 5));
  }

  private static void stop(ProcessHandle h, long seconds) {
    if (!h.isAlive()) {
      return;
    }
    h.destroy();
    try {
      h.onExit().get(seconds, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      h.destroyForcibly();
    } catch (ExecutionException | TimeoutException e) {
      h.destroyForcibly();
    }
  }

  /** A port {@code p} with {@code p + 1} (the change streamer's) and {@code p + 2} free on 127.0.0.1. */
  private static int freeTriple() throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int p = SystemPostgres.freePort();
      if (p + 2 < 65_536 && free(p + 1) && free(p + 2)) {
        return p;
      }
    }
    throw new IllegalStateException("found no three free ports in a row on 127.0.0.1 in 50 tries");
  }

  private static boolean free(int port) {
    try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return s.isBound();
    } catch (IOException e) {
      return false;
    }
  }
}
