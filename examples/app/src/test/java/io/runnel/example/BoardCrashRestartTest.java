package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.server.EmbeddedDatabase;
import io.runnel.testing.Await;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash of the app never blocks the next start on the same data: {@code kill -9} of the JVM alone (its PostgreSQL's
 * watchdog stops the postmaster), of the JVM and the watchdog (the next start stops the orphaned postmaster itself),
 * and of the JVM and PostgreSQL together (crash recovery). Each next start is up within 15 s, keeps every
 * acknowledged write, and a client that held a list resumes it with every write once.
 */
class BoardCrashRestartTest {

  static final String SECRET = "0123456789abcdef0123456789abcdef-crash-test";
  static final String FEED = "{\"orgId\":\"acme\"}";

  static Map<String, String> env(Path dir) {
    // A fixed secret, so the client's token from before the crash still signs in after it.
    return Map.of("RUNNEL_DATA_DIR", dir.resolve("pgdata").toString(), "RUNNEL_DEV", "true", "PORT", "0",
        "RUNNEL_JWT_SECRET", SECRET, "RUNNEL_LOG_FORMAT", "text");
  }

  static String title(JsonObject row) {
    return ((JsonString) row.get("title")).value();
  }

  static Optional<ProcessHandle> postmaster(Path dir) {
    long pid = EmbeddedDatabase.postmasterPid(dir.resolve("pgdata"));
    return pid > 0 ? ProcessHandle.of(pid).filter(ProcessHandle::isAlive) : Optional.empty();
  }

  /** What a crash kills besides the JVM. */
  enum Crash { JVM_ONLY, JVM_AND_WATCHDOG, JVM_AND_POSTGRES }

  @Test
  void killingTheJvmAloneLeavesNoPostgresBehind(@TempDir Path dir) throws Exception {
    try (RoleProcess app = RoleProcess.start("crash-jvm-only", env(dir))) {
      app.awaitPort("open:");
      ProcessHandle pg = postmaster(dir).orElseThrow(() -> new AssertionError("no postmaster runs on the data"));
      app.kill(List.of());
      Await.until("the watchdog stops the postmaster the killed JVM left", Duration.ofSeconds(15),
          () -> !pg.isAlive());
    }
    roundTrip(dir, Crash.JVM_ONLY);
  }

  @Test
  void aPostgresOrphanedWithItsWatchdogIsStoppedByTheNextStart(@TempDir Path dir) throws Exception {
    String next = roundTrip(dir, Crash.JVM_AND_WATCHDOG);
    assertTrue(next.contains("that an earlier run left running on"), "the next start says it stopped the orphan: "
        + next);
  }

  @Test
  void killingTheJvmAndPostgresTogetherRecoversOnTheNextStart(@TempDir Path dir) throws Exception {
    roundTrip(dir, Crash.JVM_AND_POSTGRES);
  }

  /**
   * Starts the app, writes a post a client sees, crashes it as {@code crash} says, starts it again on the same data
   * within 15 s, and checks the post, the client's resumed list and a write after the restart; answers the lines the
   * second start printed up to its banner.
   */
  private String roundTrip(Path dir, Crash crash) throws Exception {
    String before = UUID.randomUUID().toString();
    String after = UUID.randomUUID().toString();
    LiveClient client;
    String token;
    try (RoleProcess first = RoleProcess.start("crash-" + crash + "-1", env(dir))) {
      int port = first.awaitPort("open:");
      BoardHttp http = new BoardHttp(port);
      token = http.token("ada");
      client = new LiveClient("ada", token);
      client.connect(port);
      client.subscribe("feed", "liveFeed", FEED);
      BoardHttp.Answer written = http.mutate(token, "createPost",
          "{\"id\":\"" + before + "\",\"title\":\"Before the crash\",\"body\":\"acknowledged\"}");
      assertEquals(200, written.status(), String.valueOf(written.body()));
      LiveClient watching = client;
      Await.until("the client sees the acknowledged post", () -> watching.list("feed", BoardCrashRestartTest::title)
          .contains("Before the crash"));
      List<ProcessHandle> watchdog = first.descendants();
      switch (crash) {
        case JVM_ONLY -> first.kill(List.of());
        case JVM_AND_WATCHDOG -> first.kill(watchdog);
        case JVM_AND_POSTGRES -> {
          ProcessHandle pg = postmaster(dir).orElseThrow(() -> new AssertionError("no postmaster"));
          first.kill(watchdog);
          pg.destroyForcibly();
          pg.onExit().get();
        }
      }
      client.leave();
    }
    if (crash == Crash.JVM_AND_WATCHDOG) {
      assertTrue(postmaster(dir).isPresent(), "the postmaster outlived its JVM and watchdog, as after kill -9 of all");
    }
    long started = System.nanoTime();
    try (RoleProcess second = RoleProcess.start("crash-" + crash + "-2", env(dir))) {
      int port = second.awaitPort("open:");
      Duration upAfter = Duration.ofNanos(System.nanoTime() - started);
      String printed = String.join("\n", second.printed());
      BoardHttp http = new BoardHttp(port);
      client.resumeOn(port);
      LiveClient resumed = client;
      Await.until("the client's list is resumed", () -> !resumed.kinds("feed").isEmpty());
      BoardHttp.Answer written = http.mutate(token, "createPost",
          "{\"id\":\"" + after + "\",\"title\":\"After the restart\",\"body\":\"acknowledged\"}");
      Await.until("the client sees the post written after the restart",
          () -> resumed.list("feed", BoardCrashRestartTest::title).contains("After the restart"));
      List<String> titles = client.list("feed", BoardCrashRestartTest::title);
      BoardHttp.Answer read = http.query(token, "post", "{\"id\":\"" + before + "\"}");
      assertAll(
          () -> assertTrue(upAfter.compareTo(Duration.ofSeconds(15)) < 0, "up after " + upAfter.toMillis() + " ms"),
          () -> assertEquals(200, written.status(), String.valueOf(written.body())),
          () -> assertEquals("Before the crash", BoardSecondRunTest.title(read), "the acknowledged write survived"),
          () -> assertEquals(1, titles.stream().filter("Before the crash"::equals).count(), "once: " + titles),
          () -> assertEquals(1, titles.stream().filter("After the restart"::equals).count(), "once: " + titles),
          () -> assertEquals(List.of(), client.problems(), "every frame applied"));
      client.close();
      return printed;
    }
  }
}
