package io.runnel.replicator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.runnel.bus.InProcessTransport;
import io.runnel.protocol.Lsn;
import io.runnel.testing.EmbeddedPostgresServer;
import io.runnel.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A replicator's meters read what it is doing: its state, what it published, and its lag, which grows in bytes and
 * seconds while the bus refuses its changes and falls back to 0 once they are accepted.
 */
class ReplicatorMetersTest {

  static double gauge(MeterRegistry r, String name, String... tags) {
    return r.get(name).tags(tags).gauge().value();
  }

  static double counter(MeterRegistry r, String name) {
    return r.get(name).functionCounter().count();
  }

  static Lsn currentWalLsn(TestDatabase db) throws SQLException {
    try (Connection c = db.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
      r.next();
      return Lsn.parse(r.getString(1));
    }
  }

  @Test
  void theLagGrowsWhileTheBusRefusesAndFallsBackOnceItAccepts() throws Exception {
    try (TestDatabase db = EmbeddedPostgresServer.shared().createDatabase("replicator_meters")) {
      db.execute(ReplicatorRecoveryTest.TABLE);
      InProcessTransport bus = InProcessTransport.create();
      RefusingTransport refusing = new RefusingTransport(bus);
      MeterRegistry registry = new SimpleMeterRegistry();
      Replicator r = Replicator.builder().database(Harness.url(db)).slot("replicator_meters")
          .publication("replicator_meters").entities(ReplicatorRecoveryTest.ENTITIES).transport(refusing)
          .backoff(Duration.ofMillis(50), Duration.ofMillis(500)).flushDeadline(Duration.ofSeconds(2))
          .meters(registry).build();
      try {
        r.start();
        new Harness.StateWait(r).until(ReplicatorStats.State.STREAMING);
        db.execute("INSERT INTO rows VALUES (1, 'accepted')");
        Lsn inserted = currentWalLsn(db);
        ReplicatorRecoveryTest.await(() -> "the change is published and confirmed; now " + r.stats(), () -> {
          Lsn c = r.stats().confirmedLsn();
          return counter(registry, "runnel_replicator_published") >= 1 && c != null && c.compareTo(inserted) >= 0
              && gauge(registry, "runnel_replicator_lag_bytes") == 0
              && gauge(registry, "runnel_replicator_lag_seconds") == 0;
        });
        double streaming = gauge(registry, "runnel_replicator_state", "state", "streaming");
        double standby = gauge(registry, "runnel_replicator_state", "state", "standby");
        refusing.refusing.set(true);
        db.execute("INSERT INTO rows VALUES (2, 'refused')");
        ReplicatorRecoveryTest.await(() -> "the lag shows in bytes and seconds; now " + r.stats(), () ->
            gauge(registry, "runnel_replicator_lag_bytes") > 0 && gauge(registry, "runnel_replicator_lag_seconds") > 0
                && counter(registry, "runnel_replicator_restarts") >= 1);
        refusing.refusing.set(false);
        ReplicatorRecoveryTest.await(() -> "the lag falls back to 0; now " + r.stats(), () ->
            gauge(registry, "runnel_replicator_lag_bytes") == 0
                && counter(registry, "runnel_replicator_published") >= 2);
        assertAll(
            () -> assertEquals(1.0, streaming, "1 for the state it is in"),
            () -> assertEquals(0.0, standby, "0 for the others"),
            () -> assertEquals(5, registry.find("runnel_replicator_state").gauges().size(), "one series per state"),
            () -> assertEquals(0.0, gauge(registry, "runnel_replicator_lag_seconds"), "caught up: 0 s"),
            () -> assertEquals(1.0, gauge(registry, "runnel_bus_connected")),
            () -> assertEquals(0.0, counter(registry, "runnel_bus_reconnects"), "the in-process bus never drops"));
      } finally {
        r.stop();
      }
      assertTrue(gauge(registry, "runnel_replicator_state", "state", "stopped") == 1.0, "stopped reads as stopped");
    }
  }
}
