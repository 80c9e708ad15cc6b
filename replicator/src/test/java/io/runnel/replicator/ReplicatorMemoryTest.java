package io.runnel.replicator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.InProcessTransport;
import io.runnel.bus.Subjects;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.server.Entity;
import io.runnel.protocol.Lsn;
import io.runnel.testing.Await;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The replicator's memory stays bounded whatever the transaction's size: it publishes rows as it decodes them and
 * holds back one. Measured as heap after a full GC, sampled while a 300,000-row transaction streams through.
 */
@FreshDatabase
class ReplicatorMemoryTest {

  static final EntityRef BIG = EntityRef.of("big").key("id").columns(c -> c.int4("id").text("payload"));
  static final int ROWS = 300_000;
  static final long LIMIT = 64L * 1024 * 1024;

  private static Lsn walPosition(TestDatabase db) throws SQLException {
    try (var c = db.connect(); var s = c.createStatement();
        var r = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
      r.next();
      return Lsn.parse(r.getString(1));
    }
  }

  @Test
  void aThreeHundredThousandRowTransactionDecodesWithHeapGrowthUnder64MiB(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE big (id int PRIMARY KEY, payload text)");
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    // A small bus queue, so the bus itself cannot hold much of the transaction either.
    InProcessTransport bus = InProcessTransport.create(1024, Duration.ofSeconds(30));
    AtomicLong received = new AtomicLong();
    AtomicLong peakGrowth = new AtomicLong();
    long[] baseline = new long[1];
    CountDownLatch done = new CountDownLatch(1);
    bus.subscribe(Subjects.ALL_CHANGES, m -> {
      if (m.subject().equals(Subjects.POSITION)) {
        return;
      }
      long n = received.incrementAndGet();
      if (n % 50_000 == 0) {
        memory.gc();
        peakGrowth.accumulateAndGet(memory.getHeapMemoryUsage().getUsed() - baseline[0], Math::max);
      }
      if (n == ROWS) {
        done.countDown();
      }
    });
    Replicator r = Replicator.builder().database(Harness.url(db)).slot("memory").publication("memory")
        .entities(List.of(Entity.of(BIG))).transport(bus).build();
    try {
      r.start();
      new Harness.StateWait(r).until(ReplicatorStats.State.STREAMING);
      memory.gc();
      baseline[0] = memory.getHeapMemoryUsage().getUsed();
      // About 150-byte rows: 300,000 of them make about 50 MB of WAL in one transaction.
      Lsn before = walPosition(db);
      db.execute("INSERT INTO big SELECT g, repeat(md5(g::text), 4) FROM generate_series(1, " + ROWS + ") g");
      long walBytes = walPosition(db).value() - before.value();
      assertTrue(done.await(120, TimeUnit.SECONDS), "all rows arrived: " + received.get() + ", " + r.stats());
      // The subscriber may hear the last change before the publishing thread has counted it: wait for the count.
      Await.until(() -> "the replicator counts every row published, now " + r.stats().published(),
          Duration.ofSeconds(10), Duration.ofMillis(10), () -> r.stats().published() >= ROWS);
      long published = r.stats().published();
      assertAll(
          () -> assertEquals(ROWS, received.get()),
          () -> assertEquals(ROWS, published, "published once each"),
          () -> assertTrue(walBytes > 40L * 1024 * 1024, "about 50 MB of WAL: " + walBytes),
          () -> assertTrue(peakGrowth.get() < LIMIT,
              "heap growth after GC peaked at " + peakGrowth.get() / (1024 * 1024) + " MiB (limit 64 MiB)"));
      System.out.printf("300,000-row transaction, %.1f MiB of WAL: peak heap growth after GC %.1f MiB%n",
          walBytes / (1024.0 * 1024), peakGrowth.get() / (1024.0 * 1024));
    } finally {
      r.stop();
      bus.close();
    }
  }
}
