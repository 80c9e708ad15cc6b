package io.runnel.loadtest;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The writer of the fan-out scenario, in the clients' JVM: one autocommit {@code INSERT} into {@code feed} at a
 * time per connection, row {@code i} with {@code seq = base + i} and tenant {@code seq % tenants}, its send and
 * commit times read from {@link System#nanoTime()} just before the statement is sent and right after it returns.
 * Paced (one connection, change {@code i} due at {@code i / rate} s) or a flood (several connections, back to back,
 * for a duration).
 */
final class FeedWriter {

  /** The most changes one flood records. */
  static final int FLOOD_CAP = 2_000_000;

  private FeedWriter() {}

  /**
   * What was written: changes {@code 0 .. changes-1} with their send and commit times (nanos), the frames the
   * clients should receive, and the writing period.
   */
  record Written(long base, int changes, long[] sent, long[] committed, long expected, long t0, long nanos) {

    /** The latency of a frame for change {@code seq} received at {@code receipt} from its commit, or from its send. */
    Receipts.Latency from(long[] times) {
      return (seq, receipt) -> {
        long i = seq - base;
        return i < 0 || i >= changes ? Long.MIN_VALUE : receipt - times[(int) i];
      };
    }
  }

  /**
   * Writes: paced at {@code rate} changes/s for {@code seconds} on one connection when {@code rate > 0}, else a
   * flood on {@code writers} connections for {@code seconds} (at most {@link #FLOOD_CAP} changes).
   *
   * @param perTenant sockets per tenant, for the frames expected
   * @throws SQLException when a statement fails
   */
  static Written write(int pgPort, int tenants, int[] perTenant, double rate, double seconds, int writers)
      throws SQLException, InterruptedException {
    boolean paced = rate > 0;
    int max = paced ? (int) Math.round(rate * seconds) : FLOOD_CAP;
    long[] sent = new long[max];
    long[] committed = new long[max];
    String url = "jdbc:postgresql://127.0.0.1:" + pgPort + "/postgres?user=postgres";
    long base;
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT coalesce(max(seq), 0) + 1 FROM feed")) {
      r.next();
      base = r.getLong(1);
    }
    AtomicInteger next = new AtomicInteger();
    AtomicReference<Exception> failure = new AtomicReference<>();
    String body = "b".repeat(100);
    long t0 = System.nanoTime();
    long deadline = t0 + (long) (seconds * 1e9);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < (paced ? 1 : writers); w++) {
      threads.add(Thread.ofPlatform().name("writer-" + w).start(() -> {
        try (Connection c = DriverManager.getConnection(url);
            PreparedStatement insert = c.prepareStatement("INSERT INTO feed (seq, org, body) VALUES (?, ?, ?)")) {
          while (paced || System.nanoTime() < deadline) {
            int i = next.getAndIncrement();
            if (i >= max) {
              break;
            }
            if (paced) {
              long due = t0 + (long) (i * 1e9 / rate);
              long wait;
              while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
              }
            }
            long seq = base + i;
            insert.setLong(1, seq);
            insert.setString(2, "t" + (seq % tenants));
            insert.setString(3, body);
            sent[i] = System.nanoTime();
            insert.executeUpdate();
            committed[i] = System.nanoTime();
          }
        } catch (SQLException | RuntimeException e) {
          failure.compareAndSet(null, e);
        }
      }));
    }
    for (Thread t : threads) {
      t.join();
    }
    long nanos = System.nanoTime() - t0;
    if (failure.get() != null) {
      throw new SQLException("the writer failed: " + failure.get(), failure.get());
    }
    int changes = Math.min(next.get(), max);
    long expected = 0;
    for (int i = 0; i < changes; i++) {
      expected += perTenant[(int) ((base + i) % tenants)];
    }
    return new Written(base, changes, sent, committed, expected, t0, nanos);
  }
}
