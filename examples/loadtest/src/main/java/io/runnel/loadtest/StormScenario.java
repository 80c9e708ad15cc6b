package io.runnel.loadtest;

import io.runnel.testing.DedicatedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Scenario 5, the reconnect storm: scenario 3's sockets and tenants ({@code --sockets}, {@code --tenants}) on a
 * Runnel node, each keeping its cursor and keys as the Runnel client does; a paced writer commits into {@code feed}
 * at {@code --rate} for {@code --storm-lead} seconds (quick and full 3) and 5 s more; at the lead every socket is cut
 * at once and reconnects with the client's backoff, resubscribing with its cursor ({@link SocketClients}
 * {@code storm}). Measured: the share resumed as a delta (the first frame after the resubscribe is a {@code patch},
 * and the node's {@code runnel_resumes_total{path}}), the node's window reads during the storm
 * ({@code runnel_window_reads_total}), and the time from the cut until every socket is live again.
 */
public final class StormScenario implements Scenario {

  @Override
  public String name() {
    return "storm";
  }

  @Override
  public Set<String> flags() {
    return Set.of("sockets", "tenants", "rate", "storm-lead");
  }

  @Override
  public Section run(Flags flags, Path work) throws Exception {
    FanoutScenario.Size size = FanoutScenario.Size.of(flags);
    double lead = flags.positive("storm-lead", 3, 3);
    double most = 60;
    String stormed;
    NodeCounters before;
    NodeCounters after;
    long nodeCpu;
    long clientCpu;
    long serverCpu;
    SocketBench.Opened opened = null;
    try (DedicatedPostgres pg = SocketBench.postgres(work, size.tenants());
        SocketBench.Node node = SocketBench.node("runnel", pg.port(), work, flags.jfr())) {
      long postmaster = ServerCpu.postmasterPid(work.resolve("pgdata"));
      List<Jvm> clients = SocketBench.clients("runnel", node.port(), size.tenants(), 1, work, "feed", true);
      Jvm client = clients.getFirst();
      try {
        opened = SocketBench.open(client, size.sockets(), 600, "storm: sockets");
        System.out.println("storm: " + opened.line());
        before = NodeCounters.scrape(node.port());
        long n0 = node.jvm().cpuTicks();
        long c0 = client.cpuTicks();
        long s0 = ServerCpu.ticks(postmaster);
        stormed = client.ask("storm " + pg.port() + " " + size.rate() + " " + lead + " " + most, "stormed",
            (long) (lead + most) + 120);
        nodeCpu = node.jvm().cpuTicks() - n0;
        clientCpu = client.cpuTicks() - c0;
        serverCpu = ServerCpu.ticks(postmaster) - s0;
        after = NodeCounters.scrape(node.port());
      } finally {
        clients.forEach(Jvm::close);
      }
    }
    System.out.println("storm: " + stormed);
    String[] w = stormed.split(" ");
    int sockets = Integer.parseInt(w[1]);
    int delta = Integer.parseInt(w[2]);
    int snapshot = Integer.parseInt(w[3]);
    int failed = Integer.parseInt(w[4]);
    long attempts = Long.parseLong(w[5]);
    long p50 = Long.parseLong(w[6]);
    long p99 = Long.parseLong(w[7]);
    long allLive = Long.parseLong(w[8]);
    long upgraded50 = Long.parseLong(w[9]);
    long upgraded99 = Long.parseLong(w[10]);
    double deltaShare = 100.0 * delta / Math.max(1, sockets);
    double nodeDelta = after.deltas() - before.deltas();
    double nodeSnapshot = after.snapshots() - before.snapshots();
    double reads = after.windowReads() - before.windowReads();
    List<String> row = List.of(String.format(Locale.ROOT, "%,d", sockets),
        String.format(Locale.ROOT, "%,d (%.2f %%)", delta, deltaShare), String.format(Locale.ROOT, "%,d", snapshot),
        String.format(Locale.ROOT, "%,d", failed), String.format(Locale.ROOT, "%,.0f / %,.0f", nodeDelta, nodeSnapshot),
        String.format(Locale.ROOT, "%,.0f", reads), String.format(Locale.ROOT, "%,d", attempts),
        FanoutResult.ms(upgraded50) + " / " + FanoutResult.ms(upgraded99), FanoutResult.ms(p50), FanoutResult.ms(p99),
        allLive < 0 ? "not all" : FanoutResult.ms(allLive),
        SocketBench.seconds(nodeCpu), SocketBench.seconds(clientCpu), SocketBench.seconds(serverCpu));
    List<String> notes = new ArrayList<>();
    if (opened != null && opened.note("sockets") != null) {
      notes.add(opened.note("sockets"));
    }
    boolean deltasMet = deltaShare >= 99.0;
    boolean readsMet = reads == 0;
    boolean liveMet = allLive >= 0 && allLive <= 10_000_000_000L;
    notes.add(String.format(Locale.ROOT, "delta resumes %.2f %% (target ≥ 99 %%: %s); window reads during the storm"
        + " %,.0f (target 0 for cursors inside the ring: %s); all live after %s (target ≤ 10 s: %s)%s", deltaShare,
        deltasMet ? "met" : "not met", reads, readsMet ? "met" : "not met",
        allLive < 0 ? "never, within " + (long) most + " s" : FanoutResult.ms(allLive) + " ms",
        liveMet ? "met" : "not met",
        size.sockets() == 10_000 ? "" : "; this run's size is not scenario 3's full size"));
    Path jfr = work.resolve("runnel-node.jfr");
    if (flags.jfr() && Files.exists(jfr)) {
      notes.add(JfrTop.summarise(jfr, "runnel node", System.out));
    }
    List<String> conditions = List.of(size.describe().replaceFirst(", [^,]*changes/s for .*", "") + " as in scenario"
            + " 3 (`feed`, limit 20), each socket keeping its cursor and the keys it holds, read from its frames",
        String.format(Locale.ROOT, "a paced writer (one autocommit INSERT at a time, %,.0f a second) runs from %.0f s"
            + " before the cut until 5 s after it, so each window moves on while its sockets are away", size.rate(),
            lead),
        "the cut: every socket aborted at once by the client (WebSocket.abort: the TCP connection dropped, no close"
            + " frame), as a network failure or a killed node drops them; each then reconnects as the Runnel client"
            + " does: equal-jitter backoff (the first delay 250–500 ms, the cap doubling from 500 ms to 4 s), and"
            + " sends `sub` with its cursor and `ids`; live = its first frame after that (`patch`: a delta;"
            + " `snapshot`); node defaults kept, including the accept budget (2,000 upgrades/s, burst 5,000), whose"
            + " refusals (503) count as failed attempts; upgraded after = from the cut until the socket's upgrade"
            + " completed (the client's handshake), time to live = until its first frame after `sub`",
        "window reads and resumes by path from the node's /metrics (runnel_window_reads_total,"
            + " runnel_resumes_total{path}) before and after; CPU (user + system, /proc/<pid>/stat) from the"
            + " writer's start until every socket is live and the writer has stopped");
    return new Section(name(), "Reconnect storm", conditions, List.of("sockets", "resumed as a delta",
        "snapshots", "not live", "node resumes delta / snapshot", "window reads", "connect attempts",
        "upgraded after p50 / p99 ms", "time to live p50 ms", "p99 ms", "all live after ms", "node CPU s",
        "clients CPU s", "server CPU s"),
        List.of(row), notes);
  }
}
