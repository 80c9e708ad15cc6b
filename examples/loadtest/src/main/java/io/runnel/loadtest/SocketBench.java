package io.runnel.loadtest;

import io.runnel.testing.DedicatedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;

/**
 * What the socket scenarios share: the embedded PostgreSQL with the table {@code feed} seeded with a few rows per
 * tenant, the worker JVMs (a node, {@link SocketNode}; clients, {@link SocketClients}), and the CPU readings of
 * each side.
 */
final class SocketBench {

  /** Sockets one client JVM holds at most (the descriptor limit here is 20,000 per process). */
  static final int PER_CLIENT_JVM = 9_000;
  /** Rows each tenant's window starts with. */
  static final int SEED_ROWS = 5;

  private SocketBench() {}

  /**
   * Starts PostgreSQL in {@code work/pgdata} with {@code feed} and {@link #SEED_ROWS} rows for each tenant, and
   * {@code notes} (scenario 4) with 20 notes for everyone in tenant {@code t0}.
   */
  static DedicatedPostgres postgres(Path work, int tenants) throws SQLException {
    DedicatedPostgres pg = DedicatedPostgres.start(work.resolve("pgdata"), Map.of("max_connections", "50"));
    try (Connection c = pg.connect()) {
      try (Statement s = c.createStatement()) {
        s.execute(RunnelNode.TABLE);
        s.execute(RunnelNode.NOTES_TABLE);
        s.execute("INSERT INTO notes SELECT g, 't0', 'writer', 'all', 'seed note ' || g FROM generate_series(1, 20) g");
      }
      c.setAutoCommit(false);
      try (PreparedStatement p = c.prepareStatement("INSERT INTO feed (seq, org, body) VALUES (?, ?, ?)")) {
        long seq = 1;
        for (int r = 0; r < SEED_ROWS; r++) {
          for (int t = 0; t < tenants; t++) {
            p.setLong(1, seq);
            p.setString(2, "t" + (seq % tenants));
            p.setString(3, "seed row " + seq);
            p.addBatch();
            seq++;
          }
        }
        p.executeBatch();
      }
      c.commit();
    }
    return pg;
  }

  /** A node JVM ({@code runnel} on the server at {@code pgPort}, or {@code bare}), started and listening. */
  static Node node(String kind, int pgPort, Path work, boolean jfr) throws Exception {
    List<String> args = kind.equals("runnel") ? List.of("runnel", Integer.toString(pgPort)) : List.of("bare");
    Jvm jvm = Jvm.start(kind + "-node", SocketNode.class, args, work.resolve(kind + "-node"), jfr);
    int port = Integer.parseInt(jvm.await("port", 120).split(" ")[1]);
    return new Node(jvm, port);
  }

  /** {@code count} client JVMs for a node of {@code kind} on {@code port}, each with its own socket indices. */
  static List<Jvm> clients(String kind, int port, int tenants, int count, Path work) throws Exception {
    return clients(kind, port, tenants, count, work, "feed", false);
  }

  /**
   * The same, subscribing to {@code query}; with {@code tracking}, each socket keeps its cursor and keys to resume
   * ({@link SocketClients}).
   */
  static List<Jvm> clients(String kind, int port, int tenants, int count, Path work, String query, boolean tracking)
      throws Exception {
    List<Jvm> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Jvm c = Jvm.start(kind + "-clients-" + i, SocketClients.class, List.of(kind, Integer.toString(port),
          Integer.toString(i * 1_000_000), Integer.toString(tenants), query, tracking ? "track" : "plain"),
          work.resolve(kind + "-clients-" + i), false);
      c.await("ready", 60);
      out.add(c);
    }
    return out;
  }

  /**
   * What {@link #open} got: the client's {@code opened} line, the sockets that never subscribed (each tried
   * {@link SocketClients#OPEN_ATTEMPTS} times with the client's backoff) and those that needed a retry.
   *
   * @param line the client's answer
   * @param asked the sockets asked for
   * @param failed the sockets that never subscribed
   * @param retried the sockets that subscribed, or gave up, only after a retry
   * @param firstFailure the first failure the client saw, or {@code -}
   */
  record Opened(String line, int asked, int failed, int retried, String firstFailure) {

    /** Reads an {@code opened <n> <nanos> <failures> <first failure> <retried>} line. */
    static Opened parse(String line, int asked) {
      String[] w = line.split(" ");
      return new Opened(line, asked, Integer.parseInt(w[3]), w.length > 5 ? Integer.parseInt(w[5]) : 0, w[4]);
    }

    /**
     * The note that marks a scenario's figures when some sockets never subscribed, or null when all did: how many,
     * the first failure, and that the figures are over the others.
     */
    @Nullable String note(String what) {
      if (failed == 0) {
        return null;
      }
      return String.format(Locale.ROOT, "**marked**: %,d of %,d %s never subscribed after %d tries each with the "
          + "client's backoff (%,d needed a retry; the first failure: %s); every figure of this scenario is over the "
          + "%,d that did", failed, asked, what, SocketClients.OPEN_ATTEMPTS, retried, firstFailure, asked - failed);
    }
  }

  /**
   * Opens {@code sockets} more sockets on {@code client} ({@link SocketClients}' {@code open}); a socket that fails
   * is retried with the client's backoff by the client, and one that still fails is reported, not fatal: the
   * scenario goes on with the others and marks its figures ({@link Opened#note}).
   *
   * @param what names the sockets in the report, for example {@code "fanout: sockets"}
   */
  static Opened open(Jvm client, int sockets, long timeoutSeconds, String what) throws InterruptedException {
    Opened opened = Opened.parse(client.ask("open " + sockets, "opened", timeoutSeconds), sockets);
    if (opened.failed() > 0) {
      System.out.println(what + ": " + opened.failed() + " of " + sockets + " never subscribed (first failure "
          + opened.firstFailure() + "); going on with the others, figures marked");
    }
    return opened;
  }

  /** Client JVMs needed for {@code sockets}. */
  static int clientJvms(int sockets) {
    return Math.max(1, (sockets + PER_CLIENT_JVM - 1) / PER_CLIENT_JVM);
  }

  /** Runs the tasks at once and returns their answers in order. */
  static List<String> together(List<Callable<String>> tasks) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, tasks.size()));
    try {
      List<Future<String>> fs = pool.invokeAll(tasks);
      List<String> out = new ArrayList<>();
      for (Future<String> f : fs) {
        out.add(f.get());
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Ticks as seconds, two decimals. */
  static String seconds(long ticks) {
    return String.format(Locale.ROOT, "%.2f", (double) ticks / ProcStat.TICKS_PER_SECOND);
  }

  /** A started node JVM and its port. */
  record Node(Jvm jvm, int port) implements AutoCloseable {
    @Override
    public void close() {
      jvm.close();
    }
  }
}
