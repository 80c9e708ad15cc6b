package io.runnel.loadtest;

import io.runnel.testing.DedicatedPostgres;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 2, idle sockets: a Runnel node holds N quiet sockets, each with one live subscription ({@code feed}),
 * spread over the tenants, and the bare Helidon route ({@link BareNode}) holds the same counts with no Runnel
 * state, as the floor. Each node runs in a JVM of its own with the same flags ({@link Jvm#FLAGS}); the clients in
 * one or more other JVMs ({@link SocketBench#PER_CLIENT_JVM} sockets each at most). The counts are reached one
 * after another on the same node (1k, then up to 5k, …); at each the node reports its used heap after GC.
 *
 * <p>Flags: {@code --idle-counts} (quick {@code 1000,2000}, full {@code 1000,5000,10000,19000}),
 * {@code --idle-tenants} (default 100).
 */
public final class IdleScenario implements Scenario {

  @Override
  public String name() {
    return "idle";
  }

  @Override
  public Set<String> flags() {
    return Set.of("idle-counts", "idle-tenants");
  }

  @Override
  public Section run(Flags flags, Path work) throws Exception {
    List<Integer> counts = flags.rising("idle-counts", "1000,2000", "1000,5000,10000,19000");
    int tenants = (int) flags.positive("idle-tenants", 100, 100);
    int max = counts.getLast();
    Map<String, List<Step>> steps = new LinkedHashMap<>();
    try (DedicatedPostgres pg = SocketBench.postgres(work, tenants)) {
      long postmaster = ServerCpu.postmasterPid(work.resolve("pgdata"));
      for (String kind : List.of("runnel", "bare")) {
        steps.put(kind, measure(kind, pg.port(), postmaster, counts, tenants, max, work, flags.jfr()));
      }
    }
    List<List<String>> rows = new ArrayList<>();
    steps.forEach((kind, list) -> list.forEach(s -> rows.add(s.row(kind))));
    List<String> notes = new ArrayList<>();
    List<Step> runnel = Objects.requireNonNull(steps.get("runnel"));
    List<Step> bare = Objects.requireNonNull(steps.get("bare"));
    for (int i = 0; i < counts.size(); i++) {
      Step r = runnel.get(i);
      Step b = bare.get(i);
      double ratio = r.heapPerSocket() / b.heapPerSocket();
      notes.add(String.format(Locale.ROOT, "%,d sockets: heap per socket Runnel %.1f KB, bare %.1f KB, ratio %.2f"
          + " (target ≤ 1.25: %s)", counts.get(i), r.heapPerSocket() / 1000, b.heapPerSocket() / 1000, ratio,
          ratio <= 1.25 ? "met" : "not met"));
    }
    Step top = runnel.getLast();
    notes.add(String.format(Locale.ROOT, "%,d sockets held by one Runnel node: %s", max,
        top.failures() == 0 ? "yes (every one subscribed and got its snapshot)"
            : "no, " + top.failures() + " failed (first: " + top.firstFailure() + ")"));
    List<String> conditions = List.of(
        String.format(Locale.ROOT, "sockets: %s, each with one live subscription (`feed`: the tenant's rows, newest"
            + " first, limit 20) over %d tenants, each tenant's window seeded with %d rows; one user per socket"
            + " (HS256 JWT, claims sub and org_id); no traffic once subscribed (the idle budget raised to 30 min so"
            + " no heartbeat is needed; every other node default kept, including the accept budget of 2,000"
            + " upgrades/s with a burst of 5,000)", counts, tenants, SocketBench.SEED_ROWS),
        "Runnel: a SyncNode with Runnel's replicator and the in-process bus in one JVM, on an embedded PostgreSQL 18"
            + " (zonky); bare: a Helidon 4.5 WebServer with one WsRouting endpoint that echoes (each socket sends"
            + " one frame and waits for its echo, as a Runnel socket sends `sub` and waits for its snapshot)",
        "each node in a JVM of its own with the same flags (" + String.join(" ", Jvm.FLAGS) + ", default GC);"
            + " clients: the JDK's HttpClient WebSocket, one HttpClient per client JVM, " + SocketBench.PER_CLIENT_JVM
            + " sockets per client JVM at most, 64 upgrades in flight per client JVM",
        "counts reached one after another on the same node; heap = used heap after three System.gc() (the node"
            + " reports it, MemoryMXBean), per socket = (heap at N − heap with no socket) / N (the ratio's"
            + " figure: it includes what the node keeps per tenant window, and one-off allocations of the first"
            + " connections); per added socket = the heap's growth"
            + " since the previous count / the sockets added; RSS = VmRSS of the"
            + " node's process (the whole heap is touched at start, -XX:+AlwaysPreTouch, so RSS per socket is what"
            + " grows outside the heap: thread stacks, socket buffers, native memory); connect rate = sockets added"
            + " in the step / the step's wall time (upgrade,"
            + " subscribe, first frame); CPU (user + system, /proc/<pid>/stat) over the step, for the node, all"
            + " client JVMs and the PostgreSQL server (postmaster and children)");
    return new Section(name(), "Idle sockets", conditions, List.of("node", "sockets", "connect rate (sockets/s)",
        "failures", "heap after GC (MB)", "heap per socket (KB)",
        "heap per added socket (KB)", "RSS (MB)", "RSS per socket (KB)",
        "node CPU s", "clients CPU s", "server CPU s"), rows, notes);
  }

  private static List<Step> measure(String kind, int pgPort, long postmaster, List<Integer> counts, int tenants,
      int max, Path work, boolean jfr) throws Exception {
    List<Step> out = new ArrayList<>();
    try (SocketBench.Node node = SocketBench.node(kind, pgPort, work, jfr)) {
      long heap0 = Long.parseLong(node.jvm().ask("gc", "heap", 60).split(" ")[1]);
      long rss0 = node.jvm().rssBytes();
      System.out.printf(Locale.ROOT, "idle: %s node, no socket: heap %.1f MB, RSS %.1f MB%n", kind, heap0 / 1e6,
          rss0 / 1e6);
      List<Jvm> clients = SocketBench.clients(kind, node.port(), tenants, SocketBench.clientJvms(max), work);
      try {
        int held = 0;
        long heapBefore = heap0;
        for (int count : counts) {
          int add = count - held;
          List<Callable<String>> opens = new ArrayList<>();
          int[] share = share(add, clients.size());
          for (int i = 0; i < clients.size(); i++) {
            Jvm c = clients.get(i);
            int n = share[i];
            opens.add(() -> n == 0 ? "opened 0 0 0 -" : c.ask("open " + n, "opened", 600));
          }
          long nodeCpu = node.jvm().cpuTicks();
          long clientCpu = clients.stream().mapToLong(Jvm::cpuTicks).sum();
          long serverCpu = ServerCpu.ticks(postmaster);
          long t0 = System.nanoTime();
          List<String> answers = SocketBench.together(opens);
          long nanos = System.nanoTime() - t0;
          nodeCpu = node.jvm().cpuTicks() - nodeCpu;
          clientCpu = clients.stream().mapToLong(Jvm::cpuTicks).sum() - clientCpu;
          serverCpu = ServerCpu.ticks(postmaster) - serverCpu;
          int failures = 0;
          String firstFailure = "-";
          for (String a : answers) {
            String[] w = a.split(" ", 5);
            failures += Integer.parseInt(w[3]);
            if (firstFailure.equals("-") && !w[4].equals("-")) {
              firstFailure = w[4];
            }
          }
          long heap = Long.parseLong(node.jvm().ask("gc", "heap", 120).split(" ")[1]);
          long rss = node.jvm().rssBytes();
          Step s = new Step(count, add / (nanos / 1e9), failures, firstFailure, heap, (double) (heap - heap0) / count,
              (double) (heap - heapBefore) / add, rss, (double) (rss - rss0) / count, nodeCpu, clientCpu, serverCpu);
          System.out.printf(Locale.ROOT, "idle: %s %,d sockets: %,.0f/s, %d failed, heap %.1f MB (%.1f KB per"
              + " socket), RSS %.1f MB%n", kind, count, s.rate(), failures, heap / 1e6, s.heapPerSocket() / 1000,
              rss / 1e6);
          out.add(s);
          if (count == max) {
            histogram(node.jvm(), work.resolve(kind + "-histogram.txt"));
          }
          held = count;
          heapBefore = heap;
        }
      } finally {
        clients.forEach(Jvm::close);
      }
    }
    return out;
  }

  /** Writes the node's class histogram of live objects ({@code jcmd GC.class_histogram}) to {@code file}. */
  private static void histogram(Jvm node, Path file) throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(node.pid()), "GC.class_histogram").redirectErrorStream(true).redirectOutput(file.toFile())
        .start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
  }

  /** {@code n} split over {@code jvms} as evenly as whole sockets allow. */
  static int[] share(int n, int jvms) {
    int[] out = new int[jvms];
    for (int i = 0; i < jvms; i++) {
      out[i] = n / jvms + (i < n % jvms ? 1 : 0);
    }
    return out;
  }

  /** One count on one node. */
  record Step(int sockets, double rate, int failures, String firstFailure, long heap, double heapPerSocket,
      double marginal, long rss, double rssPerSocket, long nodeCpu, long clientCpu, long serverCpu) {

    List<String> row(String kind) {
      return List.of(kind, String.format(Locale.ROOT, "%,d", sockets), String.format(Locale.ROOT, "%,.0f", rate),
          Integer.toString(failures), String.format(Locale.ROOT, "%.1f", heap / 1e6),
          String.format(Locale.ROOT, "%.1f", heapPerSocket / 1000), String.format(Locale.ROOT, "%.1f", marginal / 1000),
          String.format(Locale.ROOT, "%.1f", rss / 1e6),
          String.format(Locale.ROOT, "%.1f", rssPerSocket / 1000), SocketBench.seconds(nodeCpu),
          SocketBench.seconds(clientCpu), SocketBench.seconds(serverCpu));
    }
  }
}
