package io.runnel.replicator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.InProcessTransport;
import io.runnel.time.Sleeper;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The replicator's redial backoff, driven instead of waited for: a replicator whose database refuses every connection
 * is given a sleeper that records each pause and returns at once, so eight pauses of up to 1.6 s take no time.
 */
class ReplicatorBackoffTest {

  @Test
  void aReplicatorThatCannotConnectBacksOffExponentiallyWithJitterUpToItsCap() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // closed again at once: every connection to it is refused
    }
    RecordingSleeper sleeper = new RecordingSleeper(8);
    try (InProcessTransport bus = InProcessTransport.create();
        Replicator r = Replicator.builder().database(DatabaseUrl.parse("test", "jdbc:postgresql://127.0.0.1:" + port
            + "/nothing?user=nobody")).transport(bus).backoff(Duration.ofMillis(200), Duration.ofMillis(1600))
            .sleeper(sleeper).build()) {
      r.start();
      assertTrue(sleeper.full.await(30, TimeUnit.SECONDS), "eight pauses: " + sleeper.pauses());
      ReplicatorStats stats = r.stats();
      List<Duration> pauses = sleeper.pauses();
      long[] caps = {200, 400, 800, 1600, 1600, 1600, 1600, 1600};
      List<Executable> checks = new ArrayList<>();
      for (int i = 0; i < caps.length; i++) {
        long cap = caps[i];
        long ms = pauses.get(i).toMillis();
        checks.add(() -> assertTrue(ms >= cap / 2 && ms <= cap, "pause " + ms + " ms within [" + cap / 2 + ", "
            + cap + "]: " + pauses));
      }
      checks.add(() -> assertEquals(ReplicatorStats.State.BACKING_OFF, stats.state()));
      checks.add(() -> assertTrue(stats.restarts() >= 8, "restarts " + stats.restarts()));
      checks.add(() -> assertNotNull(stats.lastFailure()));
      checks.add(() -> assertTrue(stats.lastFailure().startsWith("X_REPLICATION_FAILED"), stats.lastFailure()));
      assertAll(checks);
    }
  }

  /** Records each pause and returns at once, until it holds {@code limit}; then waits to be interrupted (stop). */
  static final class RecordingSleeper implements Sleeper {
    private final int limit;
    private final List<Duration> pauses = new ArrayList<>();
    final CountDownLatch full = new CountDownLatch(1);

    RecordingSleeper(int limit) {
      this.limit = limit;
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
      synchronized (this) {
        if (pauses.size() < limit) {
          pauses.add(duration);
          if (pauses.size() < limit) {
            return;
          }
          full.countDown();
        }
      }
      new CountDownLatch(1).await();
    }

    synchronized List<Duration> pauses() {
      return List.copyOf(pauses);
    }
  }
}
