package io.runnel.loadtest;

import io.runnel.testing.DedicatedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 1, decode: one workload of row changes committed to an embedded PostgreSQL 18, then decoded from the
 * same position by each decoder in turn, each on a slot of its own created before the workload: a bare pgjdbc
 * stream and {@code pg_recvlogical} (the physical limit), Runnel's replicator to the in-process bus, and Debezium
 * embedded's PostgreSQL connector (the peer).
 *
 * <p>Flags: {@code --changes} (quick 20,000, full 1,000,000), {@code --max-transaction} (rows, default 50),
 * {@code --seed} (default 1). Every JVM decoder runs in a JVM of its own ({@link DecodeWorker}), one after
 * another, so none competes with another for the two CPUs or inherits warmed-up code.
 */
public final class DecodeScenario implements Scenario {

  static final String PUBLICATION = "bench";
  static final List<String> JVM_DECODERS = List.of("bare", "runnel", "debezium");
  /** The readers that measure the physical limit; the target compares Runnel with the fastest of them. */
  static final List<String> LIMITS = List.of("bare", "pg_recvlogical");

  @Override
  public String name() {
    return "decode";
  }

  @Override
  public Set<String> flags() {
    return Set.of("changes", "max-transaction", "seed", "repeat");
  }

  @Override
  public Section run(Flags flags, Path work) throws Exception {
    long changes = flags.positive("changes", 20_000, 1_000_000);
    int maxTx = (int) flags.positive("max-transaction", 50, 50);
    long seed = flags.positive("seed", 1, 1);
    int repeat = (int) flags.positive("repeat", 1, 3);
    Optional<Path> recvlogical = PgRecvLogical.find();
    List<String> decoders = decoders(recvlogical.isPresent());
    Map<String, List<DecodeRun>> runs = new LinkedHashMap<>();
    List<String> notes = new ArrayList<>();
    List<String> conditions = new ArrayList<>();
    try (DedicatedPostgres pg = DedicatedPostgres.start(work.resolve("pgdata"), Map.of("max_replication_slots",
        Integer.toString(decoders.size() * repeat + 4), "max_wal_senders",
        Integer.toString(decoders.size() * repeat + 4)))) {
      long postmaster = ServerCpu.postmasterPid(work.resolve("pgdata"));
      String version;
      String startLsn;
      String endLsn;
      long walBytes;
      double writeSeconds;
      List<String> slotLsns = new ArrayList<>();
      try (Connection c = pg.connect()) {
        version = one(c, "SHOW server_version");
        DecodeWorkload.createSchema(c, PUBLICATION);
        for (int i = 1; i <= repeat; i++) {
          for (String d : decoders) {
            slotLsns.add(slot(d, i) + " " + one(c, "SELECT lsn::text FROM pg_create_logical_replication_slot('"
                + slot(d, i) + "', 'pgoutput')"));
          }
        }
        startLsn = one(c, "SELECT pg_current_wal_lsn()::text");
        var plan = DecodeWorkload.plan(changes, maxTx, seed);
        System.out.printf(Locale.ROOT, "decode: committing %,d changes in %,d transactions%n", changes, plan.size());
        long t0 = System.nanoTime();
        DecodeWorkload.commit(c, plan);
        writeSeconds = (System.nanoTime() - t0) / 1e9;
        c.setAutoCommit(true);
        endLsn = one(c, "SELECT pg_current_wal_insert_lsn()::text");
        walBytes = Long.parseLong(one(c, "SELECT pg_wal_lsn_diff('" + endLsn + "', '" + startLsn + "')::int8"));
        conditions.add(String.format(Locale.ROOT, "workload: %,d row changes (about 50 %% inserts, 30 %% updates, 20 %%"
            + " deletes; rows of about 150 bytes: int8 key, int4, text, numeric, 80–100-char note, timestamptz) in"
            + " %,d transactions of 1–%d rows, seed %d; committed in %.1f s (%,.0f changes/s, one statement at a time,"
            + " synchronous_commit on, fsync off); %,d bytes of WAL (%s to %s)", changes, plan.size(), maxTx, seed,
            writeSeconds, changes / writeSeconds, walBytes, startLsn, endLsn));
        conditions.add("server: embedded PostgreSQL " + version + " (zonky), wal_level=logical, on this machine;"
            + " publication `" + PUBLICATION + "` FOR TABLE items; one pgoutput slot per decoder, all created before"
            + " the workload (" + String.join(", ", slotLsns) + "), so each decodes the identical WAL");
      }
      long timeout = Math.max(120, changes / 500);
      // Round after round, every decoder once per round, so a change in the machine's load falls on all alike; each
      // round starts one decoder later, so none is always the first to read the WAL after the workload.
      for (int i = 1; i <= repeat; i++) {
        List<String> order = new ArrayList<>(decoders);
        Collections.rotate(order, -(i - 1));
        for (String d : order) {
          System.out.printf("decode: %s, round %d of %d …%n", d, i, repeat);
          DecodeRun run = d.equals("pg_recvlogical")
              ? PgRecvLogical.run(recvlogical.orElseThrow(), pg.port(), slot(d, i), PUBLICATION, endLsn, changes,
                  postmaster, timeout)
              : worker(d, slot(d, i), pg.port(), changes, postmaster, timeout, flags.jfr(), work.resolve(d + "-" + i));
          runs.computeIfAbsent(d, k -> new ArrayList<>()).add(run);
          System.out.println("decode: " + describe(run));
          Path jfr = work.resolve(d + "-" + i + ".jfr");
          if (flags.jfr() && Files.exists(jfr)) {
            String top = JfrTop.summarise(jfr, d, System.out);
            if (i == 1) {
              notes.add(top);
            }
          }
        }
      }
    }
    if (recvlogical.isEmpty()) {
      notes.add(0, "pg_recvlogical: skipped, no /usr/lib/postgresql/*/bin/pg_recvlogical on this machine");
    }
    Map<String, DecodeRun> medians = new LinkedHashMap<>();
    runs.forEach((d, list) -> medians.put(d, median(list)));
    notes.addAll(0, ratios(medians));
    conditions.add(repeat + (repeat == 1 ? " round" : " rounds (each decoder once per round, on a slot of its own,"
        + " each round starting one decoder later in the order " + String.join(", ", decoders) + "; the table shows"
        + " the run with the median steady rate and the range of all)") + "; each JVM decoder in a fresh"
        + " JVM of its own (-Xmx1g, same flags), one after another; clock from"
        + " opening the stream (starting the engine) to the last change, and from the first change to the last"
        + " (steady); CPU from /proc/<pid>/stat of the decoding process and of every PostgreSQL server process over"
        + " the first interval (10 ms ticks)");
    conditions.add("counted: bare = pgoutput Insert/Update/Delete messages read (nothing decoded); pg_recvlogical ="
        + " bytes to a pipe until --endpos; Runnel = change envelopes (JSON) delivered by the in-process bus to one"
        + " subscriber; Debezium = records with a value handed to the consumer (Json format, schemas off, tombstones"
        + " skipped), offsets in memory, snapshot.mode=no_data");
    return new Section(name(), "Decode", conditions, List.of("decoder", "changes/s (steady)", "steady, all rounds",
        "changes/s (with start)", "seconds (steady / with start)", "decoder CPU s", "decoder CPU µs per change",
        "server CPU s",
        "bytes per change handed over"), runs.values().stream().map(DecodeScenario::row).toList(), notes);
  }

  /** The decoders that run here, in order. */
  static List<String> decoders(boolean recvlogical) {
    return recvlogical ? List.of("bare", "pg_recvlogical", "runnel", "debezium") : JVM_DECODERS;
  }

  private static String slot(String decoder, int round) {
    return "bench_" + decoder.replace("pg_", "") + "_" + round;
  }

  /** The run with the median steady rate (the lower middle one of an even count). */
  static DecodeRun median(List<DecodeRun> runs) {
    List<DecodeRun> sorted = runs.stream().sorted(Comparator.comparingDouble(DecodeRun::steadyRate)).toList();
    return sorted.get((sorted.size() - 1) / 2);
  }

  /**
   * The ratios against the decode targets of {@code docs/performance.md}, steady rates: Runnel ≥ 0.8 × the physical
   * limit (the fastest of the {@link #LIMITS} readers that ran), ≥ 1.5 × Debezium; and Runnel's ratio to each limit
   * reader, for the record.
   */
  static List<String> ratios(Map<String, DecodeRun> runs) {
    List<String> out = new ArrayList<>();
    DecodeRun runnel = runs.get("runnel");
    if (runnel == null) {
      return out;
    }
    DecodeRun limit = LIMITS.stream().map(runs::get).filter(r -> r != null && r.steadyRate() > 0)
        .max(Comparator.comparingDouble(DecodeRun::steadyRate)).orElse(null);
    if (limit != null) {
      out.add(judged("the limit (the fastest of " + String.join(", ", LIMITS.stream().filter(runs::containsKey)
          .toList()) + ": " + limit.decoder() + ")", runnel, limit, 0.8));
    }
    for (String d : LIMITS) {
      DecodeRun other = runs.get(d);
      if (other != null && other.steadyRate() > 0) {
        out.add(String.format(Locale.ROOT, "Runnel / %s: %.2f steady, %.2f with start", d,
            runnel.steadyRate() / other.steadyRate(), runnel.startRate() / other.startRate()));
      }
    }
    DecodeRun debezium = runs.get("debezium");
    if (debezium != null && debezium.steadyRate() > 0) {
      out.add(judged("debezium", runnel, debezium, 1.5));
    }
    return out;
  }

  private static String judged(String name, DecodeRun runnel, DecodeRun other, double target) {
    double steady = runnel.steadyRate() / other.steadyRate();
    return String.format(Locale.ROOT, "Runnel / %s: %.2f steady, %.2f with start (target ≥ %.1f: %s)", name, steady,
        runnel.startRate() / other.startRate(), target, steady >= target ? "met" : "not met");
  }

  static List<String> row(List<DecodeRun> all) {
    DecodeRun r = median(all);
    String range = all.stream().map(DecodeRun::steadyRate).sorted()
        .map(x -> String.format(Locale.ROOT, "%,.0f", x)).reduce((a, b) -> a + ", " + b).orElse("");
    return List.of(r.decoder(), String.format(Locale.ROOT, "%,.0f", r.steadyRate()), range,
        String.format(Locale.ROOT, "%,.0f", r.startRate()),
        String.format(Locale.ROOT, "%.2f / %.2f", r.steadyNanos() / 1e9, r.startNanos() / 1e9),
        String.format(Locale.ROOT, "%.2f", (double) r.clientCpuTicks() / ProcStat.TICKS_PER_SECOND),
        String.format(Locale.ROOT, "%.1f", r.changes() == 0 ? 0.0
            : r.clientCpuTicks() * 1e6 / ProcStat.TICKS_PER_SECOND / r.changes()),
        String.format(Locale.ROOT, "%.2f", (double) r.serverCpuTicks() / ProcStat.TICKS_PER_SECOND),
        String.format(Locale.ROOT, "%.0f", r.changes() == 0 ? 0.0 : (double) r.payloadBytes() / r.changes()));
  }

  private static String describe(DecodeRun r) {
    return String.format(Locale.ROOT, "%s: %,d changes, %,.0f changes/s steady (%.2f s), %,.0f with start (%.2f s),"
        + " decoder CPU %.2f s, server CPU %.2f s", r.decoder(), r.changes(), r.steadyRate(), r.steadyNanos() / 1e9,
        r.startRate(), r.startNanos() / 1e9, r.clientCpuTicks() / 100.0, r.serverCpuTicks() / 100.0);
  }

  private static DecodeRun worker(String decoder, String slot, int port, long changes, long postmaster, long timeout,
      boolean jfr, Path files) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g"));
    if (jfr) {
      cmd.add("-XX:StartFlightRecording=filename=" + files + ".jfr,settings=profile,method-profiling=max");
    }
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), DecodeWorker.class.getName(), decoder,
        Integer.toString(port), slot, PUBLICATION, Long.toString(changes),
        Long.toString(postmaster), Long.toString(timeout)));
    Path log = Path.of(files + ".log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(timeout + 60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(decoder + " did not finish in " + (timeout + 60) + " s; see " + log);
    }
    return Files.readAllLines(log).stream().filter(l -> l.startsWith(DecodeRun.PREFIX)).findFirst()
        .map(DecodeRun::parse)
        .orElseThrow(() -> new IllegalStateException(decoder + " printed no result (exit " + p.exitValue()
            + "); see " + log));
  }

  private static String one(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getString(1);
    }
  }

}
