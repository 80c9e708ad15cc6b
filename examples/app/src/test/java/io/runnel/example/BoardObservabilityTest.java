package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.server.AllRole;
import io.runnel.server.LogFormat;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.ConfigInvalidException;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What an operator sees of the one process: {@code /readyz} names the replicator beside the node, one
 * {@code /metrics} scrape shows the replicator's series and the node's, and {@code RUNNEL_LOG_FORMAT} picks the log
 * format (JSON by default, text in development), refusing anything else with {@code X_CONFIG_INVALID}.
 */
@FreshDatabase
class BoardObservabilityTest {

  @Test
  void readyzNamesTheStreamingReplicatorAndOneScrapeShowsItsSeriesAndTheNodes(TestDatabase db) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    try (AllRole app = BoardHttp.start(BoardHttp.env(db, "RUNNEL_DEV", "true"))) {
      HttpResponse<String> ready = client.send(HttpRequest.newBuilder(URI.create(app.url() + "readyz"))
          .header("X-Request-Id", "probe-1").build(), HttpResponse.BodyHandlers.ofString());
      String metrics = client.send(HttpRequest.newBuilder(URI.create(app.url() + "metrics")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      JsonObject body = (JsonObject) Json.parse(ready.body());
      assertAll(
          () -> assertEquals(200, ready.statusCode(), ready.body()),
          () -> assertEquals("probe-1", ready.headers().firstValue("X-Request-Id").orElse(null)),
          () -> assertEquals("\"streaming\"", body.get("replicator").toString()),
          () -> assertEquals("\"connected\"", body.get("bus").toString()),
          () -> assertTrue(metrics.contains("runnel_replicator_state{state=\"streaming\"} 1.0"), metrics),
          () -> assertTrue(metrics.contains("runnel_replicator_lag_bytes "), "the replicator's lag in bytes"),
          () -> assertTrue(metrics.contains("runnel_replicator_lag_seconds "), "and in seconds"),
          () -> assertTrue(metrics.contains("runnel_sockets "), "the node's series on the same scrape"),
          () -> assertTrue(metrics.contains("jvm_memory_used_bytes"), "the JVM's"));
    }
  }

  @Test
  void theLogFormatIsJsonByDefaultTextInDevelopmentAndAnythingElseIsRefused() {
    ConfigInvalidException bad = assertThrows(ConfigInvalidException.class,
        () -> LogFormat.fromEnvironment(Map.of("RUNNEL_LOG_FORMAT", "xml"), false));
    assertAll(
        () -> assertEquals(LogFormat.JSON, LogFormat.fromEnvironment(Map.of(), false), "json for a collector"),
        () -> assertEquals(LogFormat.TEXT, LogFormat.fromEnvironment(Map.of(), true), "text for ./runnel run"),
        () -> assertEquals(LogFormat.JSON, LogFormat.fromEnvironment(Map.of("RUNNEL_LOG_FORMAT", "json"), true)),
        () -> assertEquals(LogFormat.TEXT, LogFormat.fromEnvironment(Map.of("RUNNEL_LOG_FORMAT", " text "), false)),
        () -> assertEquals(ErrorCode.X_CONFIG_INVALID, bad.code()),
        () -> assertTrue(bad.cause().contains("RUNNEL_LOG_FORMAT") && bad.cause().contains("xml"), bad.cause()),
        () -> assertTrue(bad.fix().contains("json") && bad.fix().contains("text"), bad.fix()),
        () -> assertThrows(ConfigInvalidException.class,
            () -> LogFormat.fromEnvironment(Map.of("RUNNEL_LOG_FORMAT", "JSON"), false), "names are lower case"));
  }
}
