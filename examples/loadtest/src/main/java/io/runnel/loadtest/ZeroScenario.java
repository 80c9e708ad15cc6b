package io.runnel.loadtest;

import io.runnel.testing.SystemPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Scenario 7, a peer side by side: Runnel and Rocicorp Zero 1.9.0 ({@link ZeroInstall}) on the same table and the
 * same insert schedule, at each client count in turn (quick and full: 1, 10, 100). At each count each system gets a
 * fresh PostgreSQL cluster of its own from the machine's install ({@link SystemPostgres}), the table {@code feed}
 * with {@link SocketBench#SEED_ROWS} rows of tenant {@code t0}, and N clients that all show tenant {@code t0}'s rows,
 * newest first, at most 20; a writer ({@link FeedWriter}) then commits one autocommit {@code INSERT} of tenant
 * {@code t0} at a time at a fixed rate, so each insert reaches every client. Latency = the moment a client saw the
 * row − the writer's {@link System#nanoTime()} right after its {@code COMMIT} returned. Runnel runs first, then Zero;
 * only one system is up at a time, and each is stopped (with its cluster) before the next starts.
 *
 * <p>Same clock: Runnel's writer runs in its clients' JVM ({@link SocketClients}, as in scenario 3); Zero's in this
 * JVM, and its Node clients read {@code process.hrtime.bigint()}: both are {@code CLOCK_MONOTONIC} on Linux, which
 * each run checks once (Node's reading must fall between two readings of this JVM's clock around it).
 *
 * <p>Flags: {@code --zero-clients} (default {@code 1,10,100}), {@code --zero-inserts} (quick 200, full 500),
 * {@code --zero-rate} inserts/s (default 20). Where npm or the registry is missing the scenario skips and says so.
 */
public final class ZeroScenario implements Scenario {

  /** The tenant every client of this scenario shows. */
  static final String ORG = "t0";

  @Override
  public String name() {
    return "zero";
  }

  @Override
  public Set<String> flags() {
    return Set.of("zero-clients", "zero-inserts", "zero-rate");
  }

  @Override
  public Section run(Flags flags, Path work) throws Exception {
    List<Integer> counts = flags.rising("zero-clients", "1,10,100", "1,10,100");
    int inserts = (int) flags.positive("zero-inserts", 200, 500);
    double rate = flags.positive("zero-rate", 20, 20);
    double seconds = inserts / rate;
    Path bin = SystemPostgres.find().orElseThrow(() -> new IllegalStateException("zero: no PostgreSQL install with"
        + " initdb and pg_ctl under /usr/lib/postgresql: install one (apt-get install -y postgresql-15)"));
    ZeroInstall install = ZeroInstall.prepare(Path.of("examples/loadtest/target/zero").toAbsolutePath(),
        work.resolve("npm.log"));
    List<String> header = List.of("clients", "system", "committed inserts/s", "rows seen / expected", "p50 ms",
        "p99 ms", "max ms", "from the statement sent: p50 / p99 ms", "system CPU s", "clients CPU s",
        "PostgreSQL CPU s");
    return switch (install) {
      case ZeroInstall.Unavailable u -> {
        System.out.println("zero: skipped: " + u.reason());
        yield new Section(name(), "Rocicorp Zero side by side", List.of(), header, List.of(),
            List.of("skipped, nothing measured: Zero and Node 22 could not be installed from the npm registry: "
                + u.reason()));
      }
      case ZeroInstall.Ready zero -> measure(flags, work, counts, inserts, rate, seconds, bin, zero, header);
    };
  }

  private Section measure(Flags flags, Path work, List<Integer> counts, int inserts, double rate, double seconds,
      Path bin, ZeroInstall.Ready zero, List<String> header) throws Exception {
    System.out.println("zero: " + zero.versions() + "; PostgreSQL " + SystemPostgres.major(bin) + " from " + bin);
    List<List<String>> rows = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    List<String> clocks = new ArrayList<>();
    Side runnelHundred = null;
    Side zeroHundred = null;
    Side runnelOne = null;
    Side zeroOne = null;
    for (int n : counts) {
      Side runnel = runnel(n, rate, seconds, bin, work.resolve("runnel-" + n), flags.jfr());
      Side peer = zero(n, rate, seconds, bin, zero, work.resolve("zero-" + n), clocks);
      for (Side s : List.of(runnel, peer)) {
        rows.add(s.row(n));
        System.out.printf(Locale.ROOT, "zero: %s, %s: %,d of %,d rows seen, p50 %s ms, p99 %s ms, max %s ms%n",
            clients(n), s.system(), s.result().frames(), s.result().expected(), FanoutResult.ms(s.result().p50()),
            FanoutResult.ms(s.result().p99()), FanoutResult.ms(s.result().max()));
      }
      notes.addAll(notes(n, runnel, peer));
      if (n == 1) {
        runnelOne = runnel;
        zeroOne = peer;
      }
      if (n == 100) {
        runnelHundred = runnel;
        zeroHundred = peer;
      }
    }
    if (runnelOne != null && zeroOne != null) { // set together
      notes.add("target at 1 client, never worse than Zero: p50 " + notWorse(runnelOne.result().p50(),
          zeroOne.result().p50()) + ", p99 " + notWorse(runnelOne.result().p99(), zeroOne.result().p99()));
    }
    int most = counts.getLast();
    if (runnelHundred != null && zeroHundred != null // set together
        && (runnelHundred.result().p99() < 0 || zeroHundred.result().p99() < 0)) {
      notes.add("target at 100 clients, p99 ≤ 0.25 × Zero's: not measured (a side saw no row)");
    } else if (runnelHundred != null && zeroHundred != null) {
      double r99 = (double) runnelHundred.result().p99() / Math.max(1, zeroHundred.result().p99());
      notes.add(String.format(Locale.ROOT, "target at 100 clients, p99 ≤ 0.25 × Zero's: %s (%.3f)",
          r99 <= 0.25 ? "met" : "not met", r99));
    } else {
      notes.add("target at 100 clients, p99 ≤ 0.25 × Zero's: not measured (this run has no 100-client count)");
    }
    Path jfr = work.resolve("runnel-" + most).resolve("runnel-node.jfr");
    if (flags.jfr() && Files.exists(jfr)) {
      notes.add(JfrTop.summarise(jfr, "runnel node at " + most + " clients", System.out));
    }
    return new Section(name(), "Rocicorp Zero side by side", conditions(counts, inserts, rate, seconds, bin, zero,
        clocks), header, rows, notes);
  }

  /** The report's conditions: sizes, clocks, each system's setup, PostgreSQL, what the CPU columns cover. */
  private static List<String> conditions(List<Integer> counts, int inserts, double rate, double seconds, Path bin,
      ZeroInstall.Ready zero, List<String> clocks) {
    return List.of(
        String.format(Locale.ROOT, "table `feed (seq int8 primary key, org text, body text)` seeded with %d rows of"
            + " tenant %s; %,d inserts at %,.0f/s (%.0f s), the same schedule for both: one autocommit INSERT (org %s,"
            + " a 100-character body) at a time on an absolute schedule, one JDBC connection; every client shows"
            + " tenant %s's rows, newest seq first, at most 20, so each insert reaches every client; client counts %s",
            SocketBench.SEED_ROWS, ORG, inserts, rate, seconds, ORG, ORG, counts),
        "latency = the moment the client saw the row − System.nanoTime() right after the writer's executeUpdate"
            + " returned (the COMMIT acknowledged); Runnel: the writer runs in the clients' JVM, seen = the JDK"
            + " WebSocket listener has the whole `patch` frame (no client-side store); Zero: the writer runs in the"
            + " bench's JVM, seen = process.hrtime.bigint() in the materialized view's listener the first time the"
            + " row shows (after Zero's client-side query engine); after the writer stops the clients wait until"
            + " every expected row came, or 2 s without one",
        "one clock: System.nanoTime() and process.hrtime.bigint() both read CLOCK_MONOTONIC on Linux; checked at"
            + " each count: Node's reading fell between two readings of the bench JVM's clock around it ("
            + String.join(", ", clocks) + " apart)",
        "Runnel: SyncNode + replicator + in-process bus in one JVM (" + String.join(" ", Jvm.FLAGS) + "), node"
            + " defaults except the idle budget (30 min); each client its own user (HS256 JWT, org " + ORG + ")"
            + " subscribed to the live query `feed`; clients: one JVM, the JDK's HttpClient WebSocket",
        "Zero: " + zero.versions() + "; zero-cache with ZERO_NUM_SYNC_WORKERS=1, ZERO_ENABLE_TELEMETRY=false, a"
            + " fresh ZERO_REPLICA_FILE, everything else its default; legacy permissions (anyone may select `feed`)"
            + " deployed with zero-deploy-permissions; clients: one Node process, each"
            + " `new Zero({schema, cacheURL, userID: 'u<i>', kvStore: 'mem'})` (the ws package as WebSocket) with"
            + " `z.materialize(z.query.feed.where('org', '=', '" + ORG + "').orderBy('seq', 'desc').limit(20))`",
        "PostgreSQL: each system its own fresh PostgreSQL " + SystemPostgres.major(bin) + " cluster from " + bin
            + " (initdb, then pg_ctl start on 127.0.0.1): " + SystemPostgres.SETTINGS.entrySet().stream().sorted(
                Map.Entry.comparingByKey()).map(e -> e.getKey() + "=" + e.getValue()).toList()
            + ", fsync on (the default); state wiped between runs: a new cluster for each system at each count (and"
            + " a new replica file for Zero), every process stopped before the next run",
        "CPU (user + system, /proc/<pid>/stat) over the writer's period and the wait after it: the system (Runnel:"
            + " the node JVM; Zero: zero-cache and every worker process under it), the clients (Runnel's client"
            + " JVM includes the writer; Zero's writer runs in the bench's JVM and is not counted), the PostgreSQL"
            + " server (the postmaster and every process under it)");
  }

  /** The notes of one count: the ratios, and for each side the rows seen early or never. */
  private static List<String> notes(int n, Side runnel, Side peer) {
    List<String> notes = new ArrayList<>();
    notes.add(String.format(Locale.ROOT, "%s: Runnel / Zero p50 %s, p99 %s, max %s", clients(n),
        ratio(runnel.result().p50(), peer.result().p50()), ratio(runnel.result().p99(), peer.result().p99()),
        ratio(runnel.result().max(), peer.result().max())));
    for (Side s : List.of(runnel, peer)) {
      if (s.mark() != null) {
        notes.add(s.mark());
      }
      FanoutResult r = s.result();
      if (r.belowZero() > 0) {
        notes.add(String.format(Locale.ROOT, "%s, %s: %,d row%s (%.1f %%) seen before the writer's clock read the"
            + " commit (counted as 0 ms); the column 'from the statement sent' is the upper bound", clients(n),
            s.system(), r.belowZero(), r.belowZero() == 1 ? "" : "s", 100.0 * r.belowZero() / Math.max(1, r.frames())));
      }
      if (r.frames() < r.expected()) {
        notes.add(String.format(Locale.ROOT, "%s, %s: %,d of %,d rows never seen: a client that falls more than 20"
            + " inserts behind gets the rows it missed in one batch, and those already out of the newest 20 never"
            + " show (or none came for 2 s after the writer stopped); the percentiles cover only the rows seen, which"
            + " flatters the side that missed rows", clients(n), s.system(), r.expected() - r.frames(),
            r.expected()));
      }
    }
    return notes;
  }

  /** Runnel at {@code n} clients: its own cluster, node JVM and client JVM; the writer in the client JVM. */
  private static Side runnel(int n, double rate, double seconds, Path bin, Path dir, boolean jfr) throws Exception {
    try (SystemPostgres pg = SystemPostgres.start(bin, dir.resolve("pg"))) {
      seed(pg);
      long postmaster = ServerCpu.postmasterPid(pg.data());
      try (SocketBench.Node node = SocketBench.node("runnel", pg.port(), dir, jfr)) {
        List<Jvm> clients = SocketBench.clients("runnel", node.port(), 1, 1, dir);
        Jvm client = clients.getFirst();
        try {
          SocketBench.Opened opened = SocketBench.open(client, n, 300, "zero: Runnel's sockets");
          long nodeCpu = node.jvm().cpuTicks();
          long clientCpu = client.cpuTicks();
          long serverCpu = ServerCpu.ticks(postmaster);
          FanoutResult r = FanoutResult.parse(client.ask("fanout " + pg.port() + " " + rate + " " + seconds, "result",
              (long) seconds + 120));
          return new Side("Runnel", r, node.jvm().cpuTicks() - nodeCpu, client.cpuTicks() - clientCpu,
              ServerCpu.ticks(postmaster) - serverCpu, opened.note("Runnel's sockets at " + clients(n)));
        } finally {
          clients.forEach(Jvm::close);
        }
      }
    }
  }

  /** Zero at {@code n} clients: its own cluster, zero-cache and Node clients; the writer in this JVM. */
  private static Side zero(int n, double rate, double seconds, Path bin, ZeroInstall.Ready zero, Path dir,
      List<String> clocks) throws Exception {
    try (SystemPostgres pg = SystemPostgres.start(bin, dir.resolve("pg"))) {
      seed(pg);
      long postmaster = ServerCpu.postmasterPid(pg.data());
      Path receipts = dir.resolve("receipts.txt");
      try (ZeroCache cache = ZeroCache.start(zero, pg, dir);
          Jvm clients = Jvm.process("zero-clients", List.of(zero.node().toString(), "clients.js", cache.url(),
              Integer.toString(n), ORG, receipts.toString()), zero.dir(), Map.of(), dir.resolve("zero-clients.log"))) {
        clients.await("ready", 300);
        clocks.add(clockCheck(clients));
        long cacheCpu = cache.cpuTicks();
        long clientCpu = clients.cpuTicks();
        long serverCpu = ServerCpu.ticks(postmaster);
        FeedWriter.Written w = FeedWriter.write(pg.port(), FeedWriter.feed(1, new int[] {n}), rate, seconds, 1);
        clients.ask("settle " + w.expected() + " 2000 30000", "settled", 90);
        long cacheUsed = cache.cpuTicks() - cacheCpu;
        long clientUsed = clients.cpuTicks() - clientCpu;
        long serverUsed = ServerCpu.ticks(postmaster) - serverCpu;
        long[] pairs = ZeroReceipts.parse(Files.readAllLines(receipts));
        FanoutResult r = FanoutResult.parse(Receipts.result(List.of(pairs), 0, w.changes(), w.nanos(), w.expected(),
            w.from(w.committed()), w.from(w.sent())));
        return new Side("Zero", r, cacheUsed, clientUsed, serverUsed, null);
      }
    }
  }

  /**
   * Checks that the Node clients' clock is this JVM's: their {@code process.hrtime.bigint()} must fall between two
   * {@link System#nanoTime()} readings around the question; returns the bracket's width for the report.
   *
   * @throws IllegalStateException when it does not (latencies across the two would mean nothing)
   */
  private static String clockCheck(Jvm clients) throws InterruptedException {
    long before = System.nanoTime();
    String line = clients.ask("clock", "clock", 30);
    long after = System.nanoTime();
    long node = Long.parseLong(line.split(" ")[1]);
    if (!ZeroReceipts.within(node, before, after)) {
      throw new IllegalStateException("zero: Node's process.hrtime.bigint() read " + node + ", not between this"
          + " JVM's System.nanoTime() readings " + before + " and " + after + " around it: the two clocks differ"
          + " here, so a latency from one to the other would mean nothing");
    }
    return String.format(Locale.ROOT, "%.1f ms", (after - before) / 1e6);
  }

  /** "met" when Runnel's figure is at most Zero's, "not measured" when either side saw no row (-1). */
  static String notWorse(long runnel, long zero) {
    return runnel < 0 || zero < 0 ? "not measured" : runnel <= zero ? "met" : "not met";
  }

  /**
   * Creates {@code feed} and its seed rows (tenant {@link #ORG}, seq 1 to {@link SocketBench#SEED_ROWS}), and the
   * empty {@code notes} the Runnel node also publishes (scenario 4's table).
   */
  private static void seed(SystemPostgres pg) throws SQLException {
    try (Connection c = pg.connect()) {
      try (Statement s = c.createStatement()) {
        s.execute(RunnelNode.TABLE);
        s.execute(RunnelNode.NOTES_TABLE);
      }
      try (PreparedStatement p = c.prepareStatement("INSERT INTO feed (seq, org, body) VALUES (?, ?, ?)")) {
        for (int seq = 1; seq <= SocketBench.SEED_ROWS; seq++) {
          p.setLong(1, seq);
          p.setString(2, ORG);
          p.setString(3, "seed row " + seq);
          p.executeUpdate();
        }
      }
    }
  }

  private static String clients(int n) {
    return n == 1 ? "1 client" : n + " clients";
  }

  private static String ratio(long runnel, long zero) {
    return zero <= 0 ? "-" : String.format(Locale.ROOT, "%.3f", (double) runnel / zero);
  }

  /** One system at one client count: what its clients saw and the CPU each side used, ticks. */
  record Side(String system, FanoutResult result, long systemCpu, long clientsCpu, long serverCpu,
      @Nullable String mark) {

    List<String> row(int clients) {
      List<String> row = new ArrayList<>(List.of(Integer.toString(clients), system,
          String.format(Locale.ROOT, "%,.1f", result.changesPerSecond()),
          String.format(Locale.ROOT, "%,d / %,d", result.frames(), result.expected())));
      row.addAll(result.latencies());
      row.add(FanoutResult.ms(result.sentP50()) + " / " + FanoutResult.ms(result.sentP99()));
      row.addAll(List.of(SocketBench.seconds(systemCpu), SocketBench.seconds(clientsCpu),
          SocketBench.seconds(serverCpu)));
      return row;
    }
  }
}
