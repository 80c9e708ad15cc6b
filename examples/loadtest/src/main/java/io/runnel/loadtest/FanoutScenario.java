package io.runnel.loadtest;

import io.runnel.testing.DedicatedPostgres;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Scenario 3, fan-out latency: N sockets over T tenants, each subscribed to the live query {@code feed} on a Runnel
 * node ({@link RunnelNode}); a writer in the clients' JVM commits changes straight into PostgreSQL (one autocommit
 * {@code INSERT} at a time, tenant {@code seq % T}) at a fixed rate; each client records when each row's frame
 * arrived. Latency = receipt − the writer's clock right after its {@code COMMIT} returned (same JVM, same clock).
 *
 * <p>Flags (shared with {@link CeilingScenario}): {@code --sockets} (quick 1,000, full 10,000), {@code --tenants}
 * (quick 100, full 1,000), {@code --rate} changes/s (quick 200, full 1,000), {@code --seconds} (quick 10, full 60).
 */
public final class FanoutScenario implements Scenario {

  /** The last measurement in this JVM, for {@link CeilingScenario}'s frame size and ratio; null before one. */
  static volatile FanoutResult last;

  @Override
  public String name() {
    return "fanout";
  }

  @Override
  public Set<String> flags() {
    return Set.of("sockets", "tenants", "rate", "seconds");
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
    FanoutResult r;
    long nodeCpu;
    long clientCpu;
    long serverCpu;
    String opened;
    try (DedicatedPostgres pg = SocketBench.postgres(work, size.tenants());
        SocketBench.Node node = SocketBench.node("runnel", pg.port(), work, flags.jfr())) {
      long postmaster = ServerCpu.postmasterPid(work.resolve("pgdata"));
      List<Jvm> clients = SocketBench.clients("runnel", node.port(), size.tenants(), 1, work);
      Jvm client = clients.getFirst();
      try {
        opened = client.ask("open " + size.sockets(), "opened", 600);
        System.out.println("fanout: " + opened);
        if (!opened.split(" ")[3].equals("0")) {
          throw new IllegalStateException("fanout: sockets failed to subscribe: " + opened);
        }
        nodeCpu = node.jvm().cpuTicks();
        clientCpu = client.cpuTicks();
        serverCpu = ServerCpu.ticks(postmaster);
        r = FanoutResult.parse(client.ask("fanout " + pg.port() + " " + size.rate() + " " + size.seconds(),
            "result", (long) size.seconds() + 120));
        nodeCpu = node.jvm().cpuTicks() - nodeCpu;
        clientCpu = client.cpuTicks() - clientCpu;
        serverCpu = ServerCpu.ticks(postmaster) - serverCpu;
      } finally {
        clients.forEach(Jvm::close);
      }
    }
    last = r;
    System.out.printf(Locale.ROOT, "fanout: %,d of %,d frames, %,.0f frames/s, p50 %s ms, p99 %s ms, max %s ms%n",
        r.frames(), r.expected(), r.framesPerSecond(), FanoutResult.ms(r.p50()), FanoutResult.ms(r.p99()),
        FanoutResult.ms(r.max()));
    List<String> row = new ArrayList<>(List.of(String.format(Locale.ROOT, "%,.0f", size.rate()),
        String.format(Locale.ROOT, "%,.0f", r.changesPerSecond()), String.format(Locale.ROOT, "%,d / %,d",
            r.frames(), r.expected()), String.format(Locale.ROOT, "%,.0f", r.framesPerSecond()),
        String.format(Locale.ROOT, "%.0f", r.frameBytes())));
    row.addAll(r.latencies());
    row.add(FanoutResult.ms(r.sentP50()) + " / " + FanoutResult.ms(r.sentP99()));
    row.addAll(List.of(SocketBench.seconds(nodeCpu), SocketBench.seconds(clientCpu), SocketBench.seconds(serverCpu)));
    List<String> notes = new ArrayList<>();
    notes.add(String.format(Locale.ROOT, "p99 %s ms (target ≤ 50 ms at 1,000 changes/s over 10,000 sockets: %s%s)",
        FanoutResult.ms(r.p99()), r.p99() <= 50_000_000L ? "met" : "not met",
        size.sockets() == 10_000 && size.rate() == 1_000 ? "" : "; this run's size is not the target's"));
    java.nio.file.Path jfr = work.resolve("runnel-node.jfr");
    if (flags.jfr() && java.nio.file.Files.exists(jfr)) {
      notes.add(JfrTop.summarise(jfr, "runnel node", System.out));
    }
    if (r.belowZero() > 0) {
      notes.add(String.format(Locale.ROOT, "%,d frames (%.1f %%) arrived before the writer's clock read the commit"
          + " (counted as 0 ms): the commit's acknowledgement reached the writer's thread later than the change"
          + " reached the client; the column 'from the statement sent' is the upper bound", r.belowZero(),
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
            + " one",
        "Runnel node: SyncNode + replicator + in-process bus in one JVM (" + String.join(" ", Jvm.FLAGS) + "), node"
            + " defaults except the idle budget (30 min); embedded PostgreSQL 18 (zonky, synchronous_commit on,"
            + " fsync off); clients: one JVM, the JDK's HttpClient WebSocket, one HttpClient; all on this machine",
        "CPU (user + system, /proc/<pid>/stat) over the writer's period and the wait after it: node JVM, client"
            + " JVM (writer included), PostgreSQL server");
    return new Section(name(), "Fan-out latency", conditions, List.of("offered changes/s", "committed changes/s",
        "frames received / expected", "frames/s received", "frame bytes (mean)", "p50 ms", "p99 ms", "max ms",
        "from the statement sent: p50 / p99 ms", "node CPU s", "clients CPU s", "server CPU s"), List.of(row), notes);
  }
}
