package io.runnel.server;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedDatabaseTest {

  @Test
  void theMainJobStartsALogicalReplicationReadyPostgresAndKeepsItsDataAcrossRuns(@TempDir Path dir) throws Exception {
    AppConfig config = AppConfig.fromEnvironment(Map.of("RUNNEL_DATA_DIR", "pg", "RUNNEL_DEV", "true"), dir, "test");
    try (EmbeddedDatabase db = EmbeddedDatabase.start(config.dataDirectory(), 0)) {
      try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "postgres", "postgres");
          Statement s = c.createStatement()) {
        assertAll(
            () -> assertEquals("logical", one(s, "SHOW wal_level")),
            () -> assertTrue(one(s, "SHOW server_version").startsWith("18"), "PostgreSQL 18"));
        s.execute("CREATE TABLE kept (id int PRIMARY KEY); INSERT INTO kept VALUES (42)");
      }
    }
    try (EmbeddedDatabase again = EmbeddedDatabase.start(config.dataDirectory(), 0);
        Connection c = again.connect(); Statement s = c.createStatement()) {
      assertEquals("42", one(s, "SELECT id FROM kept"), "the second run finds the first run's data");
    }
  }

  @Test
  void aMalformedPortIsAConfigErrorNamingTheVariable(@TempDir Path dir) {
    RunnelException e = assertThrows(RunnelException.class,
        () -> AppConfig.fromEnvironment(Map.of("RUNNEL_PG_PORT", "eighty", "RUNNEL_DEV", "true"), dir, "test"));
    assertAll(
        () -> assertEquals(ErrorCode.X_CONFIG_INVALID, e.code()),
        () -> assertTrue(e.cause().contains("RUNNEL_PG_PORT"), e.cause()),
        () -> assertThrows(RunnelException.class,
            () -> AppConfig.fromEnvironment(Map.of("RUNNEL_PG_PORT", "70000", "RUNNEL_DEV", "true"), dir, "test")),
        () -> assertThrows(RunnelException.class,
            () -> AppConfig.fromEnvironment(Map.of("RUNNEL_DATA_DIR", " ", "RUNNEL_DEV", "true"), dir, "test")));
  }

  @Test
  void aFailedStartNamesTheServersOwnReasonAndADirectoryInUseIsRefusedUntouched(@TempDir Path dir) throws Exception {
    Path data = dir.resolve("pgdata");
    try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0)) {
      UncheckedIOException inUse = assertThrows(UncheckedIOException.class, () -> EmbeddedDatabase.start(data, 0));
      try (Connection c = db.connect(); Statement s = c.createStatement()) {
        assertAll(
            () -> assertTrue(inUse.getMessage().contains("already runs an embedded PostgreSQL on " + data),
                inUse.getMessage()),
            () -> assertEquals("1", one(s, "SELECT 1"), "the running server was not touched"));
      }
    }
    Files.writeString(data.resolve("postgresql.conf"), "this line is not a setting\n",
        StandardOpenOption.APPEND);
    UncheckedIOException failed = assertThrows(UncheckedIOException.class, () -> EmbeddedDatabase.start(data, 0));
    assertAll(
        () -> assertTrue(failed.getMessage().contains(EmbeddedDatabase.logFile(data).toString()),
            "the message names the log: " + failed.getMessage()),
        () -> assertTrue(failed.getMessage().contains("postgresql.conf"),
            "and its lines name the server's reason: " + failed.getMessage()));
  }

  private static String one(Statement s, String sql) throws Exception {
    try (ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getString(1);
    }
  }
}
