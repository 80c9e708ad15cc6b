package io.runnel.sync;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.runnel.bus.InProcessTransport;
import io.runnel.replicator.DatabaseUrl;
import io.runnel.replicator.Replicator;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code /metrics} and {@code /readyz} of a process that runs a replicator and a sync node on one registry, as the
 * example app does: every series the operating issue names is scraped, labels stay bounded, and readiness reports the
 * replicator, the bus and the lag of the last transaction.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricsAndReadinessTest {

  /** A series line: its name, then its labels when it has any. */
  private static final Pattern SERIES = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)})? (\\S+)$");
  private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  TestDatabase db;
  InProcessTransport bus;
  HikariDataSource pool;
  PrometheusMeterRegistry registry;
  Replicator replicator;
  SyncNode node;
  final HttpClient client = HttpClient.newHttpClient();

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    this.db = db;
    db.execute("CREATE TABLE notes (id int PRIMARY KEY, org text, body text)");
    bus = InProcessTransport.create();
    pool = TestPools.of(db.jdbcUrl(), 4);
    registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    replicator = Replicator.builder().database(DatabaseUrl.parse("test", db.jdbcUrl())).slot("observed")
        .publication("observed").entities(List.of(SyncNodeTest.NOTES_ENTITY)).transport(bus).meters(registry).build();
    replicator.start();
    LiveFixtureAccess.await("the replicator streams",
        () -> replicator.stats().state() == ReplicatorStats.State.STREAMING);
    node = SyncNode.builder().declarations(SyncNodeTest.DECLARATIONS).transport(bus).dataSource(pool)
        .authenticator(JwtAuthenticator.hs256(SyncNodeTest.SECRET).build()).listen("127.0.0.1", 0)
        .meters(registry).replicator(replicator::stats).build();
    node.start();
  }

  @AfterAll
  void stop() {
    node.stop();
    replicator.stop();
    bus.close();
    pool.close();
  }

  HttpResponse<String> get(String path) throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + node.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** Each series of a scrape, {@code name{labels}} → value, and the label names seen per metric name. */
  record Scrape(Map<String, Double> series, Map<String, Set<String>> labelNames, String text) {
    static Scrape parse(String text) {
      Map<String, Double> series = new TreeMap<>();
      Map<String, Set<String>> labels = new TreeMap<>();
      for (String line : text.split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        Matcher m = SERIES.matcher(line);
        assertTrue(m.matches(), "a Prometheus series line: " + line);
        Set<String> names = labels.computeIfAbsent(m.group(1), k -> new TreeSet<>());
        if (m.group(3) != null) {
          Matcher l = LABEL.matcher(m.group(3));
          while (l.find()) {
            names.add(l.group(1));
          }
        }
        series.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(4)));
      }
      return new Scrape(series, labels, text);
    }

    boolean has(String name) {
      return labelNames.containsKey(name);
    }
  }

  @Test
  void metricsListEverySeriesTheIssueNamesWithBoundedLabels() throws Exception {
    ProtocolClient<JsonObject> c = Sockets.open(node.port(), Map.of("Authorization", "Bearer "
        + SyncNodeTest.token("ada", "acme")));
    c.send("{\"t\":\"sub\",\"sid\":\"s1\",\"q\":\"notes\",\"in\":{}}");
    assertEquals("snapshot", SyncNodeTest.t(c.next()));
    c.send("not json");
    assertEquals("refuse", SyncNodeTest.t(c.next()));
    Scrape s = Scrape.parse(get("/metrics").body());
    c.close();
    List<String> named = List.of("runnel_sockets", "runnel_subscriptions", "runnel_windows",
        "runnel_frames_sent_total", "runnel_bytes_sent_total", "runnel_frames_dropped_total", "runnel_resumes_total",
        "runnel_window_reads_total", "runnel_gate_failures_total", "runnel_refusals_total",
        "runnel_replicator_lag_bytes", "runnel_replicator_lag_seconds", "runnel_replicator_state",
        "runnel_replicator_slot_lost_total", "runnel_replicator_slot_retained_bytes",
        "runnel_replicator_slot_safe_wal_bytes", "runnel_replicator_slot_wal_status",
        "runnel_bus_connected", "runnel_bus_reconnects_total", "runnel_delivery_lag_seconds", "runnel_draining",
        "jvm_memory_used_bytes", "jvm_threads_live_threads", "jvm_gc_memory_allocated_bytes_total",
        "system_cpu_count", "process_cpu_usage");
    Set<String> bounded = Set.of("path", "code", "state", "mutator", "outcome", "status");
    assertAll(named.stream().map(n -> () -> assertTrue(s.has(n), n + " is scraped:\n" + s.text())));
    assertAll(
        () -> assertEquals(1.0, s.series().get("runnel_sockets"), "the one open socket"),
        () -> assertEquals(1.0, s.series().get("runnel_subscriptions")),
        () -> assertEquals(1.0, s.series().get("runnel_windows")),
        () -> assertTrue(s.series().get("runnel_frames_sent_total") >= 2, "the snapshot and the refusal"),
        () -> assertTrue(s.series().get("runnel_bytes_sent_total") > 0),
        () -> assertEquals(1.0, s.series().get("runnel_refusals_total{code=\"X_FRAME_INVALID\"}"), s.text()),
        () -> assertTrue(s.series().containsKey("runnel_resumes_total{path=\"delta\"}")),
        () -> assertTrue(s.series().containsKey("runnel_resumes_total{path=\"snapshot\"}")),
        () -> assertEquals(1.0, s.series().get("runnel_replicator_state{state=\"streaming\"}")),
        () -> assertEquals(0.0, s.series().get("runnel_replicator_state{state=\"standby\"}")),
        () -> assertEquals(1.0, s.series().get("runnel_bus_connected")),
        () -> assertEquals(0.0, s.series().get("runnel_bus_reconnects_total"), "the in-process bus never drops"),
        () -> assertTrue(s.series().get("runnel_replicator_lag_bytes") >= 0),
        () -> assertEquals(List.of(), s.labelNames().entrySet().stream()
            .filter(e -> e.getKey().startsWith("runnel_") && !bounded.containsAll(e.getValue()))
            .map(Map.Entry::getKey).toList(), "a runnel_ series is labelled only by a bounded set"),
        () -> assertTrue(s.text().contains("# TYPE runnel_frames_sent_total counter"), "counters end in _total"));
  }

  @Test
  void readyzReportsTheBusTheReplicatorAndTheLagOfTheLastTransaction() throws Exception {
    try (var c = db.connect()) {
      c.createStatement().execute("INSERT INTO notes VALUES (100, 'acme', 'lagged')");
    }
    LiveFixtureAccess.await("the node applied the transaction", () -> node.stats().lagMillis().isPresent());
    HttpResponse<String> r = get("/readyz");
    JsonObject body = (JsonObject) Json.parse(r.body());
    assertAll(
        () -> assertEquals(200, r.statusCode(), r.body()),
        () -> assertEquals("application/json", r.headers().firstValue("Content-Type").orElse("")),
        () -> assertEquals("true", body.get("ready").toString()),
        () -> assertEquals("false", body.get("draining").toString()),
        () -> assertEquals("\"connected\"", body.get("bus").toString()),
        () -> assertEquals("\"streaming\"", body.get("replicator").toString(), "the replicator of this process"),
        () -> assertTrue(body.get("position").toString().matches("\"[0-9a-f]{24}\""), "the delivered position"),
        () -> assertTrue(body.get("lagMs") instanceof JsonNumber, "the lag behind PostgreSQL"),
        () -> assertTrue(body.get("asOf") instanceof JsonNumber, "the PostgreSQL time the node holds every change of"),
        () -> assertEquals("[]", body.get("degraded").toString(), "a node keeping up is not degraded"),
        () -> assertTrue(body.get("replicatorLagBytes") instanceof JsonNumber),
        () -> assertTrue(body.get("replicatorLagMs") instanceof JsonNumber),
        () -> assertTrue(body.get("sockets") instanceof JsonNumber),
        () -> assertTrue(body.get("windows") instanceof JsonNumber));
  }

  @Test
  void aNodeStartedAgainOnTheRegistryReportsItsOwnParts() throws Exception {
    SyncNode second = SyncNode.builder().declarations(SyncNodeTest.DECLARATIONS).transport(bus).dataSource(pool)
        .authenticator(JwtAuthenticator.hs256(SyncNodeTest.SECRET).build()).listen("127.0.0.1", 0)
        .meters(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).build();
    PrometheusMeterRegistry shared = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    SyncNode first = SyncNode.builder().declarations(SyncNodeTest.DECLARATIONS).transport(bus).dataSource(pool)
        .authenticator(JwtAuthenticator.hs256(SyncNodeTest.SECRET).build()).listen("127.0.0.1", 0)
        .meters(shared).build();
    first.start();
    ProtocolClient<JsonObject> c = Sockets.open(first.port(), Map.of("Authorization", "Bearer "
        + SyncNodeTest.token("ada", "acme")));
    c.send("{\"t\":\"hello\",\"v\":1}");
    c.next();
    double before = Scrape.parse(shared.scrape()).series().get("runnel_sockets");
    first.stop();
    boolean goneAfterStop = !Scrape.parse(shared.scrape()).has("runnel_sockets");
    SyncNode again = SyncNode.builder().declarations(SyncNodeTest.DECLARATIONS).transport(bus).dataSource(pool)
        .authenticator(JwtAuthenticator.hs256(SyncNodeTest.SECRET).build()).listen("127.0.0.1", 0)
        .meters(shared).build();
    again.start();
    Scrape after = Scrape.parse(shared.scrape());
    again.stop();
    second.stop();
    assertAll(
        () -> assertEquals(1.0, before, "the first node's socket"),
        () -> assertTrue(goneAfterStop, "a stopped node's gauges leave the shared registry"),
        () -> assertEquals(0.0, after.series().get("runnel_sockets"), "the new node reports its own sockets"),
        () -> assertTrue(after.has("jvm_memory_used_bytes"), "the JVM's meters stay bound once"));
  }
}
