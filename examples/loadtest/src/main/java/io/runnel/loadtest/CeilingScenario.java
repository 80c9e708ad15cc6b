package io.runnel.loadtest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Scenario 6, the raw fan-out ceiling: the same socket count, tenants and client as {@link FanoutScenario}, fed by
 * the bare Helidon route ({@link BareNode#blast}) with pre-encoded frames of the size Runnel's patches had, each
 * change to the sockets of one tenant. Two phases: at the same rate as scenario 3 (what the bare route does with
 * the same offered load), and a flood: changes sent back to back by one thread for {@code --flood-seconds}
 * (quick 5, full 15) (the most frames a second the machine carries from a Helidon route to these clients: the physical
 * limit for scenario 3's frames/s).
 *
 * <p>Flags: those of {@link FanoutScenario}, and {@code --flood-seconds}.
 */
public final class CeilingScenario implements Scenario {

  /** The frame size used when scenario 3 did not run in the same command, bytes. */
  static final int DEFAULT_FRAME_BYTES = 400;


  @Override
  public String name() {
    return "ceiling";
  }

  @Override
  public Set<String> flags() {
    return Set.of("sockets", "tenants", "rate", "seconds", "flood-seconds", "writers");
  }

  @Override
  public Section run(Flags flags, Path work) throws Exception {
    FanoutScenario.Size size = FanoutScenario.Size.of(flags);
    double floodSeconds = flags.positive("flood-seconds", 5, 15);
    FanoutResult runnel = FanoutScenario.last;
    int frameBytes = runnel == null || runnel.frames() == 0 ? DEFAULT_FRAME_BYTES
        : (int) Math.round(runnel.frameBytes());
    List<List<String>> rows = new ArrayList<>();
    List<FanoutResult> results = new ArrayList<>();
    try (SocketBench.Node node = SocketBench.node("bare", 0, work, flags.jfr())) {
      List<Jvm> clients = SocketBench.clients("bare", node.port(), size.tenants(), 1, work);
      Jvm client = clients.getFirst();
      try {
        String opened = client.ask("open " + size.sockets(), "opened", 600);
        System.out.println("ceiling: " + opened);
        for (String phase : List.of("same rate", "flood")) {
          boolean flood = phase.equals("flood");
          double rate = flood ? 0 : size.rate();
          long planned = flood ? Long.MAX_VALUE : Math.round(size.rate() * size.seconds());
          double seconds = flood ? floodSeconds : size.seconds();
          client.ask("listen " + (flood ? 1 : seconds), "listening", 60);
          long nodeCpu = node.jvm().cpuTicks();
          long clientCpu = client.cpuTicks();
          List<Callable<String>> both = List.of(
              () -> client.await("result", (long) seconds + 600),
              () -> node.jvm().ask("blast " + rate + " " + planned + " " + (flood ? seconds : seconds + 5) + " "
                  + size.tenants() + " " + frameBytes, "blasted", (long) seconds + 600));
          List<String> answers = SocketBench.together(both);
          nodeCpu = node.jvm().cpuTicks() - nodeCpu;
          clientCpu = client.cpuTicks() - clientCpu;
          FanoutResult r = FanoutResult.parse(answers.get(0));
          String[] blasted = answers.get(1).split(" ");
          long changes = Long.parseLong(blasted[1]);
          long sent = Long.parseLong(blasted[2]);
          // The listener's period starts before the blast and ends after it; frames/s over first to last receipt.
          double fps = r.frames() / (r.spanNanos() / 1e9);
          results.add(r);
          System.out.printf(Locale.ROOT, "ceiling (%s): %,d of %,d frames, %,.0f frames/s, p50 %s ms, p99 %s ms%n",
              phase, r.frames(), sent, fps, FanoutResult.ms(r.p50()), FanoutResult.ms(r.p99()));
          List<String> row = new ArrayList<>(List.of(phase,
              flood ? "unpaced" : String.format(Locale.ROOT, "%,.0f", rate),
              String.format(Locale.ROOT, "%,d", changes), String.format(Locale.ROOT, "%,d / %,d", r.frames(), sent),
              String.format(Locale.ROOT, "%,.0f", fps), String.format(Locale.ROOT, "%.0f", r.frameBytes())));
          row.addAll(r.latencies());
          row.addAll(List.of(SocketBench.seconds(nodeCpu), SocketBench.seconds(clientCpu)));
          rows.add(row);
        }
      } finally {
        clients.forEach(Jvm::close);
      }
    }
    List<String> notes = new ArrayList<>();
    FanoutResult runnelFlood = FanoutScenario.lastFlood;
    if (runnel == null || runnelFlood == null) {
      notes.add("scenario 3 (fanout) did not run in this command: frames of " + DEFAULT_FRAME_BYTES
          + " bytes, and no ratio");
    } else {
      FanoutResult flood = results.get(1);
      double ceiling = flood.frames() / (flood.spanNanos() / 1e9);
      double runnelMost = runnelFlood.frames() / (runnelFlood.spanNanos() / 1e9);
      double ratio = runnelMost / ceiling;
      notes.add(String.format(Locale.ROOT, "Runnel's flood (scenario 3, %,.0f frames/s, %,d of %,d frames"
          + " received) / the bare flood (%,.0f frames/s): %.3f (target ≥ 0.5: %s)", runnelMost,
          runnelFlood.frames(), runnelFlood.expected(), ceiling, ratio, ratio >= 0.5 ? "met" : "not met"));
      FanoutResult same = results.get(0);
      double sameFps = same.frames() / (same.spanNanos() / 1e9);
      notes.add(String.format(Locale.ROOT, "at the same offered rate: Runnel %,.0f frames/s, p99 %s ms; bare %,.0f"
          + " frames/s, p99 %s ms", runnel.framesPerSecond(), FanoutResult.ms(runnel.p99()), sameFps,
          FanoutResult.ms(same.p99())));
    }
    List<String> conditions = List.of(
        size.describe() + String.format(Locale.ROOT, " (the flood: unpaced, for %.0f s)", floodSeconds),
        "bare route: a Helidon 4.5 WebServer with one WsRouting endpoint, no Runnel ("
            + String.join(" ", Jvm.FLAGS) + "); each socket filed under its tenant; one thread sends each change"
            + " as one pre-encoded text frame of " + frameBytes + " bytes (" + (runnel == null ? "a default"
            : "scenario 3's mean patch size") + ", carrying seq and the send time) to each socket of its tenant"
            + " (WsSession.send), on an absolute schedule (the flood: back to back)",
        "latency = receipt − the send time stamped in the frame (System.nanoTime(), the same machine's monotonic"
            + " clock in both JVMs); frames/s = frames received / first to last receipt; same client JVM as"
            + " scenario 3 (the JDK's HttpClient WebSocket)",
        "CPU (user + system, /proc/<pid>/stat) over each phase: node JVM, client JVM");
    return new Section(name(), "Raw fan-out ceiling", conditions, List.of("phase", "offered changes/s", "changes",
        "frames received / sent", "frames/s received", "frame bytes (mean)", "p50 ms", "p99 ms", "max ms",
        "node CPU s", "clients CPU s"), rows, notes);
  }
}
