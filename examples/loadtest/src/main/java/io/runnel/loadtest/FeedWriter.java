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
 * The writer of the socket scenarios, in the clients' JVM: one autocommit {@code INSERT} at a time per connection,
 * row {@code i} with {@code seq = base + i} ({@link Target} says into which table, with which values, and how many
 * frames the clients should receive for it), its send and commit times read from {@link System#nanoTime()} just
 * before the statement is sent and right after it returns. Paced (one connection, change {@code i} due at
 * {@code i / rate} s) or a flood (several connections, back to back, for a duration).
 */
final class FeedWriter {

  /** What a writer inserts, and who should see it. */
  interface Target {
    /** The table, for the first free {@code seq}. */
    String table();

    /** The INSERT statement. */
    String insert();

    /** Binds row {@code seq}'s values. @throws SQLException when a value cannot be bound */
    void bind(PreparedStatement insert, long seq) throws SQLException;

    /** The frames the clients should receive for row {@code seq}. */
    long frames(long seq);
  }

  /**
   * Scenario 3's rows: {@code feed}, tenant {@code seq % tenants}, a 100-character body, seen by the tenant's sockets.
   */
  static Target feed(int tenants, int[] perTenant) {
    String body = "b".repeat(100);
    return new Target() {
      @Override
      public String table() {
        return "feed";
      }

      @Override
      public String insert() {
        return "INSERT INTO feed (seq, org, body) VALUES (?, ?, ?)";
      }

      @Override
      public void bind(PreparedStatement insert, long seq) throws SQLException {
        insert.setLong(1, seq);
        insert.setString(2, "t" + (seq % tenants));
        insert.setString(3, body);
      }

      @Override
      public long frames(long seq) {
        return perTenant[(int) (seq % tenants)];
      }
    };
  }

  /**
   * Scenario 4's rows: {@code notes} of tenant {@code t0}; an even {@code seq} is for everyone ({@code audience}
   * {@code all}), an odd one private to one of the subscribers ({@code users}, spread by a multiplicative hash), so
   * the row rule lets every subscriber see one row in two, and each private row reaches its owner alone.
   */
  static Target notes(String[] users) {
    String body = "n".repeat(100);
    return new Target() {
      @Override
      public String table() {
        return "notes";
      }

      @Override
      public String insert() {
        return "INSERT INTO notes (seq, org, owner, audience, body) VALUES (?, 't0', ?, ?, ?)";
      }

      @Override
      public void bind(PreparedStatement insert, long seq) throws SQLException {
        insert.setLong(1, seq);
        insert.setString(2, seq % 2 == 0 ? "writer" : owner(seq));
        insert.setString(3, seq % 2 == 0 ? "all" : "owner");
        insert.setString(4, body);
      }

      @Override
      public long frames(long seq) {
        return seq % 2 == 0 ? users.length : 1;
      }

      private String owner(long seq) {
        return users[(int) Math.floorMod(seq * 2_654_435_761L, (long) users.length)];
      }
    };
  }

  /** The most changes one flood records. */
  static final int FLOOD_CAP = 2_000_000;

  private FeedWriter() {}

  /**
   * What was written: changes {@code 0 .. changes-1} with their send and commit times (nanos), the frames the
   * clients should receive, and the writing period.
   */
  // The run's timestamps, handed to the report once; never compared or hashed.
  @SuppressWarnings("ArrayRecordComponent")
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
   * @param target the table, its values, and the frames expected for each row
   * @throws SQLException when a statement fails
   */
  static Written write(int pgPort, Target target, double rate, double seconds, int writers)
      throws SQLException, InterruptedException {
    boolean paced = rate > 0;
    int max = paced ? (int) Math.round(rate * seconds) : FLOOD_CAP;
    long[] sent = new long[max];
    long[] committed = new long[max];
    String url = "jdbc:postgresql://127.0.0.1:" + pgPort + "/postgres?user=postgres";
    long base;
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT coalesce(max(seq), 0) + 1 FROM " + target.table())) {
      r.next();
      base = r.getLong(1);
    }
    AtomicInteger next = new AtomicInteger();
    AtomicReference<Exception> failure = new AtomicReference<>();
    long t0 = System.nanoTime();
    long deadline = t0 + (long) (seconds * 1e9);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < (paced ? 1 : writers); w++) {
      threads.add(Thread.ofPlatform().name("writer-" + w).start(() -> {
        try (Connection c = DriverManager.getConnection(url);
            PreparedStatement insert = c.prepareStatement(target.insert())) {
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
            target.bind(insert, base + i);
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
      expected += target.frames(base + i);
    }
    return new Written(base, changes, sent, committed, expected, t0, nanos);
  }
}
