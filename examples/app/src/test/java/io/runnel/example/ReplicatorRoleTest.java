package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.server.AllRole;
import io.runnel.server.AppConfig;
import io.runnel.server.ReplicatorRole;
import io.runnel.testing.Await;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.NatsServer;
import io.runnel.testing.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code RUNNEL_ROLE=replicator} as the chart runs it, two replicas on one slot: both migrate (the second finds
 * nothing to do), one streams and the other stands by, both answer {@code /readyz} 200 (a standby is ready: it takes
 * over), {@code /metrics} says which streams and shows the replicator's, the bus's and the JVM's series, and when the
 * streaming one stops the standby takes over.
 */
@FreshDatabase
class ReplicatorRoleTest {

  static final HttpClient HTTP = HttpClient.newHttpClient();

  static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static void await(ReplicatorRole r, ReplicatorStats.State state) throws InterruptedException {
    Await.until(() -> "the role is " + state + ", now " + r.stats(), Duration.ofSeconds(30),
        () -> r.stats().state() == state);
  }

  /** The series of a replicator role's scrape, each at the start of a line: the replicator's, the bus's, the JVM's. */
  static final List<String> SERIES = List.of("runnel_replicator_lag_bytes ", "runnel_replicator_lag_seconds ",
      "runnel_replicator_state{state=\"streaming\"} ", "runnel_replicator_published_total ",
      "runnel_replicator_restarts_total ", "runnel_bus_connected 1.0", "runnel_bus_reconnects_total ",
      "jvm_memory_used_bytes{", "jvm_threads_live_threads ", "jvm_gc_memory_allocated_bytes_total ",
      "process_cpu_usage ");

  /** The series of {@link #SERIES} that {@code scrape} has no line for. */
  static List<String> missing(String scrape) {
    return SERIES.stream().filter(s -> !("\n" + scrape).contains("\n" + s)).toList();
  }

  @Test
  void ofTwoReplicasOneStreamsTheOtherStandsByReadyAndTakesOverWhenTheFirstStops(TestDatabase db, @TempDir Path dir)
      throws Exception {
    try (NatsServer nats = NatsServer.start(dir, Map.of())) {
      Map<String, String> env = BoardHttp.env(db, "RUNNEL_ROLE", "replicator", "NATS_URL", nats.url());
      AppConfig config = BoardApp.config(env, Path.of("target"));
      ReplicatorRole first = ReplicatorRole.start(BoardApp.SERVER, config);
      try (ReplicatorRole second = ReplicatorRole.start(BoardApp.SERVER, config)) {
        await(first, ReplicatorStats.State.STREAMING);
        await(second, ReplicatorStats.State.STANDBY);
        HttpResponse<String> streamingReady = get(first.port(), "/readyz");
        HttpResponse<String> standbyReady = get(second.port(), "/readyz");
        HttpResponse<String> streamingMetrics = get(first.port(), "/metrics");
        HttpResponse<String> standbyMetrics = get(second.port(), "/metrics");
        HttpResponse<String> health = get(second.port(), "/healthz");
        first.close();
        await(second, ReplicatorStats.State.STREAMING);
        HttpResponse<String> takenOver = get(second.port(), "/readyz");
        int pending;
        try (HikariDataSource pool = AllRole.pool(config.databaseUrl(), 2, "check")) {
          pending = BoardApp.SERVER.pendingMigrations(pool);
        }
        assertAll(
            () -> assertEquals(0, pending, "migrated: nothing pending"),
            () -> assertEquals(200, streamingReady.statusCode()),
            () -> assertTrue(streamingReady.body().contains("\"state\":\"streaming\""), streamingReady.body()),
            () -> assertEquals(200, standbyReady.statusCode(), "a standby is ready: " + standbyReady.body()),
            () -> assertTrue(standbyReady.body().contains("\"state\":\"standby\""), standbyReady.body()),
            () -> assertTrue(streamingMetrics.body().contains("\nrunnel_replicator_state{state=\"streaming\"} 1.0\n"),
                streamingMetrics.body()),
            () -> assertTrue(standbyMetrics.body().contains("\nrunnel_replicator_state{state=\"streaming\"} 0.0\n")
                && standbyMetrics.body().contains("\nrunnel_replicator_state{state=\"standby\"} 1.0\n"),
                standbyMetrics.body()),
            () -> assertEquals(List.of(), missing(streamingMetrics.body()), "the series docs/operating.md names "
                + "for a replicator, as the all role shows them: its own, its bus's and the JVM's"),
            () -> assertEquals(200, health.statusCode()),
            () -> assertTrue(takenOver.body().contains("\"streaming\":true"), "the standby took over: "
                + takenOver.body()));
      } finally {
        first.close();
      }
    }
  }
}
