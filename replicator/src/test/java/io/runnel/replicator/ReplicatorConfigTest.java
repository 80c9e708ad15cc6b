package io.runnel.replicator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.InProcessTransport;
import io.runnel.testing.Await;
import io.runnel.testing.DedicatedPostgres;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad configuration is refused with its code and fix, never with a stack trace as the message. */
class ReplicatorConfigTest {

  private static RunnelException refused(Map<String, String> env) {
    RunnelException e = assertThrows(RunnelException.class, () -> ReplicatorConfig.fromEnvironment(env));
    assertAll(
        () -> assertEquals(ErrorCode.X_CONFIG_INVALID, e.code()),
        () -> assertFalse(e.fix().isBlank(), "a fix is given"),
        () -> assertFalse(e.getMessage().contains("\tat "), "no stack trace in the message"));
    return e;
  }

  @Test
  void unsetMeansTheEmbeddedDatabaseWithDefaultNames() {
    ReplicatorConfig c = ReplicatorConfig.fromEnvironment(Map.of());
    assertAll(
        () -> assertNull(c.database()),
        () -> assertEquals("runnel", c.slot()),
        () -> assertEquals("runnel", c.publication()));
  }

  @Test
  void urlsInEitherSpellingAreRead() {
    ReplicatorConfig c = ReplicatorConfig.fromEnvironment(Map.of(
        "DATABASE_URL", "postgres://app:s%40cret@db.example:6432/board?sslmode=require",
        "REPLICATION_URL", "jdbc:postgresql://db.example:6432/board?user=repl&password=x",
        "REPLICATION_SLOT", "board_slot", "REPLICATION_PUBLICATION", "board_pub"));
    assertAll(
        () -> assertEquals("jdbc:postgresql://db.example:6432/board", c.database().jdbcUrl()),
        () -> assertEquals("s@cret", c.database().properties().getProperty("password")),
        () -> assertEquals("require", c.database().properties().getProperty("sslmode")),
        () -> assertEquals("repl", c.replication().user()),
        () -> assertEquals("board_slot", c.slot()),
        () -> assertEquals("board_pub", c.publication()));
  }

  @Test
  void anInvalidSlotOrPublicationNameIsRefusedNamingTheVariable() {
    assertAll(
        () -> assertTrue(refused(Map.of("REPLICATION_SLOT", "Bad-Slot")).cause().contains("REPLICATION_SLOT")),
        () -> assertTrue(refused(Map.of("REPLICATION_SLOT", "")).cause().contains("REPLICATION_SLOT")),
        () -> assertTrue(refused(Map.of("REPLICATION_PUBLICATION", "pub lic")).cause()
            .contains("REPLICATION_PUBLICATION")),
        () -> assertTrue(refused(Map.of("REPLICATION_SLOT", "s".repeat(64))).cause().contains("REPLICATION_SLOT")));
  }

  @Test
  void aReplicationUrlOnAnotherDatabaseIsRefused() {
    assertAll(
        () -> assertTrue(refused(Map.of("DATABASE_URL", "postgres://h:5432/app", "REPLICATION_URL",
            "postgres://h:5432/other")).cause().contains("REPLICATION_URL")),
        () -> refused(Map.of("DATABASE_URL", "postgres://h:5432/app", "REPLICATION_URL", "postgres://h:5433/app")),
        () -> refused(Map.of("DATABASE_URL", "postgres://h:5432/app", "REPLICATION_URL", "postgres://g:5432/app")),
        () -> refused(Map.of("REPLICATION_URL", "postgres://h:5432/app")));
  }

  @Test
  void aMalformedDatabaseUrlIsRefusedNamingTheVariable() {
    assertAll(
        () -> assertTrue(refused(Map.of("DATABASE_URL", "mysql://h/app")).cause().contains("DATABASE_URL")),
        () -> assertTrue(refused(Map.of("DATABASE_URL", "postgres://h:5432/")).cause().contains("database")),
        () -> assertTrue(refused(Map.of("DATABASE_URL", "postgres:///app")).cause().contains("host")),
        () -> refused(Map.of("DATABASE_URL", "postgres://h:notaport/app")));
  }

  @Test
  void walLevelReplicaStopsTheReplicatorWithTheFix(@TempDir Path dir) throws Exception {
    try (DedicatedPostgres pg = DedicatedPostgres.start(dir.resolve("pg"), Map.of("wal_level", "replica"));
        InProcessTransport bus = InProcessTransport.create();
        Replicator r = Replicator.builder().database(DatabaseUrl.parse("test", pg.jdbcUrl("postgres")))
            .entities(List.of()).transport(bus).build()) {
      r.start();
      Await.until("the replicator reports a failure", Duration.ofSeconds(30), () -> r.stats().lastFailure() != null);
      String failure = r.stats().lastFailure();
      assertAll(
          () -> assertTrue(failure.startsWith("X_REPLICATION_FAILED: wal_level is 'replica'"), failure),
          () -> assertTrue(failure.contains("Fix: Run ALTER SYSTEM SET wal_level = logical"), failure),
          () -> assertFalse(failure.contains("\tat "), "no stack trace"),
          () -> assertTrue(r.stats().state() != ReplicatorStats.State.STREAMING));
    }
  }
}
