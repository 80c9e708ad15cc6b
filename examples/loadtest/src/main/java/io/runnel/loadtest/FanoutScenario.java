package io.runnel.loadtest;

import io.runnel.testing.DedicatedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Scenario 3, fan-out latency: N sockets over T tenants, each subscribed to the live query {@code feed} on a Runnel
 * node ({@link RunnelNode}); a writer in the clients' JVM commits changes straight into PostgreSQL (one autocommit
 * {@code INSERT} at a time, tenant {@code seq % T}) at a fixed rate; each client records when each row's frame
 * arrived. Latency = receipt − the writer's clock right after its {@code COMMIT} returned (same JVM, same clock).
 *
 * <p>A second phase floods: {@code --writers} connections (default 4) commit one-row {@code INSERT}s back to back
 * for {@code --flood-seconds} (quick 5, full 15), the most frames a second this node sends here, for
 * {@link CeilingScenario}'s ratio.
 *
 * <p>Flags (shared with {@link CeilingScenario}): {@code --sockets} (quick 1,000, full 10,000), {@code --tenants}
 * (quick 100, full 1,000), {@code --rate} changes/s (quick 200, full 1,000), {@code --seconds} (quick 10, full 60).
 */
public final class FanoutScenario implements Scenario {

  /** The last measurement in this JVM, for {@link CeilingScenario}'s frame size and ratio; null before one. */
  static volatile @Nullable FanoutResult last;
  /** The last flood measured in this JVM, for {@link CeilingScenario}'s ratio; null before one. */
  static volatile @Nullable FanoutResult lastFlood;

  @Override
  public String name() {
    return "fanout";
  }

  @Override
  public Set<String> flags() {
    return Set.of("sockets", "tenants", "rate", "seconds", "flood-seconds", "writers", "warmup");
  }

  /**
   * The warm-up's length, seconds ({@code --warmup}, quick 2, full 5): the same writer at the same rate before the
   * measured period, reported as a row of its own and left out of the target's figure, so the target is judged on a
   * node whose code the JIT has compiled (a node serves for days; it starts cold once).
   */
  static double warmup(Flags flags) {
    return flags.positive("warmup", 2, 5);
  }

  /** The sizes both fan-out scenarios read. */
  record Size(int sockets, int tenants, double rate, double seconds) {
    static Size of(Flags flags) {
      return new Size((int) flags.positive("sockets", 1_000, 10_000), (int) flags.positive("tenants", 100, 1_000),
          flags.positive("rate", 200, 1_000), flags.positive("seconds", 10, 60));
    }

    String describe() {
      return String.format(Locale.ROOT, "%,d sockets over %,d tenants (%,d a tenant), %,.0f changes/s for %.0f s",
          sockets, tenants, sockets / tenants, rate, seconds);
    }
  }

  @Override
  public Section run(Flags flags, Path work) throws Exception {
    Size size = Size.of(flags);
    double floodSeconds = flags.positive("flood-seconds", 5, 15);
    int writers = (int) flags.positive("writers", 4, 4);
    List<Phase> phases = new ArrayList<>();
    double dropped;
    SocketBench.Opened opened = null;
    try (DedicatedPostgres pg = SocketBench.postgres(work, size.tenants());
        SocketBench.Node node = SocketBench.node("runnel", pg.port(), work, flags.jfr())) {
      long postmaster = ServerCpu.postmasterPid(work.resolve("pgdata"));
      List<Jvm> clients = SocketBench.clients("runnel", node.port(), size.tenants(), 1, work);
      Jvm client = clients.getFirst();
      try {
        opened = SocketBench.open(client, size.sockets(), 600, "fanout: sockets");
        System.out.println("fanout: " + opened.line());
        phases.add(phase("warm-up", node.jvm(), client, postmaster, "fanout " + pg.port() + " " + size.rate() + " "
            + warmup(flags), (long) warmup(flags) + 120));
        phases.add(phase("paced", node.jvm(), client, postmaster, "fanout " + pg.port() + " " + size.rate() + " "
            + size.seconds(), (long) size.seconds() + 120));
        double droppedBefore = NodeCounters.scrape(node.port()).framesDropped();
        phases.add(phase("flood", node.jvm(), client, postmaster, "flood " + pg.port() + " " + writers + " "
            + floodSeconds, (long) floodSeconds + 120));
        dropped = NodeCounters.scrape(node.port()).framesDropped() - droppedBefore;
      } finally {
        clients.forEach(Jvm::close);
      }
    }
    FanoutResult r = phases.get(1).result();
    last = r;
    lastFlood = phases.get(2).result();
    List<List<String>> rows = new ArrayList<>();
    for (Phase p : phases) {
      FanoutResult x = p.result();
      boolean paced = !p.name().equals("flood");
      double fps = paced ? x.framesPerSecond() : x.frames() / (x.spanNanos() / 1e9);
      System.out.printf(Locale.ROOT, "fanout (%s): %,d of %,d frames, %,.0f frames/s, p50 %s ms, p99 %s ms, max %s"
          + " ms%n", p.name(), x.frames(), x.expected(), fps, FanoutResult.ms(x.p50()), FanoutResult.ms(x.p99()),
          FanoutResult.ms(x.max()));
      List<String> row = new ArrayList<>(List.of(paced ? p.name() : "flood (" + writers + " writers)",
          paced ? String.format(Locale.ROOT, "%,.0f", size.rate()) : "unpaced"));
      row.addAll(x.cells(fps));
      row.addAll(p.cpu());
      rows.add(row);
    }
    List<String> notes = new ArrayList<>();
    if (opened != null && opened.note("sockets") != null) {
      notes.add(opened.note("sockets"));
    }
    notes.add(String.format(Locale.ROOT, "paced p99 %s ms (target ≤ 50 ms at 1,000 changes/s over 10,000 sockets:"
        + " %s%s)", FanoutResult.ms(r.p99()), r.p99() <= 50_000_000L ? "met" : "not met",
        size.sockets() == 10_000 && size.rate() == 1_000 ? "" : "; this run's size is not the target's"));
    FanoutResult flood = phases.get(2).result();
    notes.add(String.format(Locale.ROOT, "flood: %,d of %,d frames expected arrived; the node dropped %,.0f over a"
        + " socket's outbound bound (runnel_frames_dropped_total; each such subscription is re-snapshotted once its"
        + " socket drains, which the clients do not count as a patch)", flood.frames(), flood.expected(), dropped));
    Path jfr = work.resolve("runnel-node.jfr");
    if (flags.jfr() && Files.exists(jfr)) {
      notes.add(JfrTop.summarise(jfr, "runnel node", System.out));
    }
    if (r.belowZero() > 0) {
      notes.add(String.format(Locale.ROOT, "paced: %,d frames (%.1f %%) arrived before the writer's clock read the"
          + " commit (counted as 0 ms): the commit's acknowledgement reached the writer's thread later than the"
          + " change reached the client; the column 'from the statement sent' is the upper bound", r.belowZero(),
          100.0 * r.belowZero() / Math.max(1, r.frames())));
    }
    List<String> conditions = List.of(size.describe() + "; each socket one user (HS256 JWT) subscribed to `feed`"
            + " (the tenant's rows, newest first, limit 20, seeded with " + SocketBench.SEED_ROWS + " rows a"
            + " tenant), so each change is one `patch` (a put, and a del of the row that falls out) to each socket"
            + " of its tenant",
        "writer: one JDBC connection in the clients' JVM, one autocommit INSERT (seq, tenant, 100-char body) at a"
            + " time on an absolute schedule; commit time = System.nanoTime() right after executeUpdate returns;"
            + " receipt = System.nanoTime() when the client's listener has the whole frame; frames matched by the"
            + " row's seq; after the writer stops the clients wait until every expected frame came, or 2 s without"
            + " one; frames/s = frames received / the writer's period (paced)",
        String.format(Locale.ROOT, "warm-up: the same writer at the same rate for %.0f s right before the measured"
            + " (paced) period, on the same node and sockets; its own row, not counted in the target's figure (the"
            + " JIT compiles the node's code in it; a node serves for days and starts cold once)", warmup(flags)),
        String.format(Locale.ROOT, "flood: %d JDBC connections in the clients' JVM each committing one-row INSERTs"
            + " back to back for %.0f s, clocks as above; frames/s = frames received / first to last receipt (as the"
            + " bare flood of scenario 6): the most this node fans out here with a writer that is not the limit",
            writers, floodSeconds),
        "Runnel node: SyncNode + replicator + in-process bus in one JVM (" + String.join(" ", Jvm.FLAGS) + "), node"
            + " defaults except the idle budget (30 min); embedded PostgreSQL 18 (zonky, synchronous_commit on,"
            + " fsync off); clients: one JVM, the JDK's HttpClient WebSocket, one HttpClient; all on this machine",
        "CPU (user + system, /proc/<pid>/stat) over the writer's period and the wait after it: node JVM, client"
            + " JVM (writer included), PostgreSQL server");
    return new Section(name(), "Fan-out latency", conditions, List.of("phase", "offered changes/s",
        "committed changes/s", "frames received / expected", "frames/s received", "frame bytes (mean)", "p50 ms",
        "p99 ms", "max ms",
        "from the statement sent: p50 / p99 ms", "node CPU s", "clients CPU s", "server CPU s"), rows, notes);
  }

  /** Asks {@code client} for {@code command}'s result line, reading each side's CPU around it. */
  static Phase phase(String name, Jvm node, Jvm client, long postmaster, String command, long timeout)
      throws InterruptedException {
    long nodeCpu = node.cpuTicks();
    long clientCpu = client.cpuTicks();
    long serverCpu = ServerCpu.ticks(postmaster);
    FanoutResult r = FanoutResult.parse(client.ask(command, "result", timeout));
    return new Phase(name, r, node.cpuTicks() - nodeCpu, client.cpuTicks() - clientCpu,
        ServerCpu.ticks(postmaster) - serverCpu);
  }

  /** One phase's result and the CPU each side used over it, ticks. */
  record Phase(String name, FanoutResult result, long nodeCpu, long clientCpu, long serverCpu) {

    /** The CPU cells: node, clients, server, seconds. */
    List<String> cpu() {
      return List.of(SocketBench.seconds(nodeCpu), SocketBench.seconds(clientCpu), SocketBench.seconds(serverCpu));
    }
  }
}
