package io.runnel.loadtest;

import io.runnel.testing.DedicatedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Scenario 4, one table and many users under a policy: {@code --subscribers} sockets (quick and full 1,000), each a
 * different user of one tenant, subscribed to the live query {@code notes} of a Runnel node ({@link RunnelNode}),
 * whose row rule lets a user see the notes for everyone and its own. A writer in the clients' JVM commits one
 * autocommit {@code INSERT} at a time at {@code --policy-rate} changes/s (quick and full 20) for
 * {@code --policy-seconds} (quick 10, full 30): one row in two for everyone, every other row private to one of the
 * subscribers ({@link FeedWriter#notes}). Latency = receipt − the writer's clock right after its {@code COMMIT}
 * returned, over every frame that carries the new row.
 *
 * <p>The default rate makes the frames delivered a second the same as scenario 3's target (1,000 changes/s to 10
 * sockets each): 20 × (1,000 / 2 + 1 / 2) ≈ 10,000 frames/s; here every change is checked against the row rule of
 * every subscriber of the one window.
 */
public final class PolicyScenario implements Scenario {

  @Override
  public String name() {
    return "policy";
  }

  @Override
  public Set<String> flags() {
    return Set.of("subscribers", "policy-rate", "policy-seconds", "warmup");
  }

  @Override
  public Section run(Flags flags, Path work) throws Exception {
    int subscribers = (int) flags.positive("subscribers", 1_000, 1_000);
    double rate = flags.positive("policy-rate", 20, 20);
    double seconds = flags.positive("policy-seconds", 10, 30);
    double warmup = FanoutScenario.warmup(flags);
    List<List<String>> rows = new ArrayList<>();
    FanoutResult r = null;
    SocketBench.Opened opened = null;
    try (DedicatedPostgres pg = SocketBench.postgres(work, 1);
        SocketBench.Node node = SocketBench.node("runnel", pg.port(), work, flags.jfr())) {
      long postmaster = ServerCpu.postmasterPid(work.resolve("pgdata"));
      List<Jvm> clients = SocketBench.clients("runnel", node.port(), 1, 1, work, "notes", false);
      Jvm client = clients.getFirst();
      try {
        opened = SocketBench.open(client, subscribers, 600, "policy: sockets");
        System.out.println("policy: " + opened.line());
        for (String phase : List.of("warm-up", "measured")) {
          double length = phase.equals("warm-up") ? warmup : seconds;
          FanoutScenario.Phase p = FanoutScenario.phase(phase, node.jvm(), client, postmaster, "policy " + pg.port()
              + " " + rate + " " + length, (long) length + 120);
          r = p.result();
          System.out.printf(Locale.ROOT, "policy (%s): %,d of %,d frames, %,.0f frames/s, p50 %s ms, p99 %s ms,"
              + " max %s ms%n", phase, r.frames(), r.expected(), r.framesPerSecond(), FanoutResult.ms(r.p50()),
              FanoutResult.ms(r.p99()), FanoutResult.ms(r.max()));
          List<String> row = new ArrayList<>(List.of(phase, String.format(Locale.ROOT, "%,d", subscribers),
              String.format(Locale.ROOT, "%,.0f", rate)));
          row.addAll(r.cells(r.framesPerSecond()));
          row.addAll(p.cpu());
          rows.add(row);
        }
      } finally {
        clients.forEach(Jvm::close);
      }
    }
    if (r == null) {
      throw new IllegalStateException("the measured phase ran without a result");
    }
    List<String> notes = new ArrayList<>();
    if (opened != null && opened.note("sockets") != null) {
      notes.add(opened.note("sockets"));
    }
    notes.add(String.format(Locale.ROOT, "measured p99 %s ms (target ≤ 50 ms for 1,000 policy subscribers: %s%s)",
        FanoutResult.ms(r.p99()), r.p99() >= 0 && r.p99() <= 50_000_000L ? "met" : "not met",
        subscribers == 1_000 ? "" : "; this run's size is not the target's"));
    if (r.frames() < r.expected()) {
      notes.add(String.format(Locale.ROOT, "%,d frames expected did not arrive", r.expected() - r.frames()));
    }
    Path jfr = work.resolve("runnel-node.jfr");
    if (flags.jfr() && Files.exists(jfr)) {
      notes.add(JfrTop.summarise(jfr, "runnel node", System.out));
    }
    List<String> conditions = List.of(String.format(Locale.ROOT, "%,d sockets, each a different user (HS256 JWT,"
            + " sub u<i>, org t0) of one tenant, subscribed to `notes` (the tenant's notes, newest first, limit 20,"
            + " seeded with 20 notes for everyone) under the row rule `audience = 'all' or owner = the user`; one"
            + " window, every change checked against every subscriber's rule", subscribers),
        String.format(Locale.ROOT, "writer: one JDBC connection in the clients' JVM, one autocommit INSERT at a time,"
            + " %,.0f a second for %.0f s on an absolute schedule; even seq for everyone, odd seq private to one"
            + " subscriber (spread by a multiplicative hash), so about %,.0f frames/s carry a new row (and rows"
            + " falling out of a subscriber's list add patches without one, not counted); latency as in scenario 3:"
            + " commit returned → the client's listener has the whole frame", rate, seconds,
            rate * (subscribers + 1) / 2.0),
        String.format(Locale.ROOT, "warm-up: the same writer for %.0f s right before the measured period, its own"
            + " row, not counted in the target's figure (as in scenario 3)", warmup),
        "Runnel node and clients as in scenario 3 (" + String.join(" ", Jvm.FLAGS) + "); CPU (user + system,"
            + " /proc/<pid>/stat) over the writer's period and the wait after it");
    return new Section(name(), "One table, many users under a policy", conditions, List.of("phase", "subscribers",
        "offered changes/s", "committed changes/s", "frames received / expected", "frames/s received",
        "frame bytes (mean)", "p50 ms", "p99 ms", "max ms", "from the statement sent: p50 / p99 ms", "node CPU s",
        "clients CPU s", "server CPU s"), rows, notes);
  }
}
