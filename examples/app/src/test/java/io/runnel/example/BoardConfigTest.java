package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.NatsConfig;
import io.runnel.bus.TransportConfig;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The process's environment: defaults, and each bad value refused with {@code X_CONFIG_INVALID} naming it. */
class BoardConfigTest {

  static final Path HERE = Path.of("/srv/board");

  static RunnelException refused(String... env) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < env.length; i += 2) {
      m.put(env[i], env[i + 1]);
    }
    RunnelException e = assertThrows(RunnelException.class, () -> AppConfig.fromEnvironment(m, HERE));
    assertEquals(ErrorCode.X_CONFIG_INVALID, e.code());
    return e;
  }

  @Test
  void theDefaultsAreRoleAllPort8080TheEmbeddedDatabaseAndItsKeptFolder() {
    AppConfig c = AppConfig.fromEnvironment(Map.of("RUNNEL_DEV", "true"), HERE);
    assertAll(
        () -> assertEquals(AppConfig.Role.ALL, c.role()),
        () -> assertTrue(c.dev()),
        () -> assertEquals(8080, c.port()),
        () -> assertNull(c.databaseUrl(), "the embedded PostgreSQL"),
        () -> assertEquals(HERE.resolve(".runnel/pgdata"), c.dataDirectory()),
        () -> assertNull(c.jwtSecret(), "a random secret per process in development"),
        () -> assertEquals(new TransportConfig.InProcess(), c.bus(), "the in-process bus without NATS_URL"),
        () -> assertEquals(Duration.ofSeconds(10), c.drainSpread(), "a drain spreads reconnects over 10 s"));
  }

  @Test
  void theDrainSpreadIsReadInMillisecondsUpToAWindowsGracePeriod() {
    assertAll(
        () -> assertEquals(Duration.ofMillis(2500), AppConfig.fromEnvironment(Map.of("RUNNEL_DEV", "true",
            "RUNNEL_DRAIN_SPREAD_MS", "2500"), HERE).drainSpread()),
        () -> assertEquals(Duration.ZERO, AppConfig.fromEnvironment(Map.of("RUNNEL_DEV", "true",
            "RUNNEL_DRAIN_SPREAD_MS", "0"), HERE).drainSpread(), "0: every client reconnects at once"),
        () -> assertEquals(Duration.ofMinutes(1), AppConfig.fromEnvironment(Map.of("RUNNEL_DEV", "true",
            "RUNNEL_DRAIN_SPREAD_MS", "60000"), HERE).drainSpread(), "the longest"),
        () -> assertTrue(refused("RUNNEL_DRAIN_SPREAD_MS", "10s", "RUNNEL_DEV", "true").cause()
            .contains("RUNNEL_DRAIN_SPREAD_MS"), "a unit is not milliseconds"),
        () -> assertTrue(refused("RUNNEL_DRAIN_SPREAD_MS", "-1", "RUNNEL_DEV", "true").cause().contains("outside"),
            "negative"),
        () -> assertTrue(refused("RUNNEL_DRAIN_SPREAD_MS", "60001", "RUNNEL_DEV", "true").fix().contains("60000"),
            "past a window's grace period, the fix names the bound"),
        () -> assertTrue(refused("RUNNEL_DRAIN_SPREAD_MS", "", "RUNNEL_DEV", "true").cause()
            .contains("RUNNEL_DRAIN_SPREAD_MS"), "empty"));
  }

  @Test
  void natsUrlSelectsTheNatsBus() {
    AppConfig c = AppConfig.fromEnvironment(Map.of("RUNNEL_DEV", "true", "NATS_URL",
        "nats://nats-1.example:4222,nats://nats-2.example:4223"), HERE);
    assertAll(
        () -> assertTrue(c.bus() instanceof NatsConfig, String.valueOf(c.bus())),
        () -> assertEquals("NATS at nats://nats-1.example:4222,nats://nats-2.example:4223", c.bus().describe()));
  }

  @Test
  void databaseUrlAndPortAreHonoured() {
    AppConfig c = AppConfig.fromEnvironment(Map.of("RUNNEL_DEV", "true", "PORT", "9090",
        "DATABASE_URL", "postgres://app:pw@db.example:6543/board"), HERE);
    assertAll(
        () -> assertEquals(9090, c.port()),
        () -> assertEquals("jdbc:postgresql://db.example:6543/board", c.databaseUrl().jdbcUrl()),
        () -> assertEquals("app", c.databaseUrl().user()));
  }

  @Test
  void eachBadValueIsRefusedNamingItsVariable() {
    assertAll(
        () -> assertTrue(refused("RUNNEL_ROLE", "sync", "RUNNEL_DEV", "true").cause().contains("roles that exist are: all"),
            "names what exists"),
        () -> assertTrue(refused("NATS_URL", "localhost:4222", "RUNNEL_DEV", "true").cause().contains("NATS_URL"),
            "a NATS URL without nats://"),
        () -> assertTrue(refused("NATS_URL", "", "RUNNEL_DEV", "true").cause().contains("NATS_URL"), "an empty one"),
        () -> assertTrue(refused("RUNNEL_DEV", "yes").cause().contains("RUNNEL_DEV")),
        () -> assertTrue(refused("PORT", "http", "RUNNEL_DEV", "true").cause().contains("PORT")),
        () -> assertTrue(refused("PORT", "65536", "RUNNEL_DEV", "true").cause().contains("PORT")),
        () -> assertTrue(refused("DATABASE_URL", "mysql://x/y", "RUNNEL_DEV", "true").cause().contains("DATABASE_URL")),
        () -> assertTrue(refused("RUNNEL_JWT_SECRET", "short").cause().contains("RUNNEL_JWT_SECRET")),
        () -> assertTrue(refused().fix().contains("RUNNEL_DEV=true"), "outside development, someone must sign tokens"));
  }
}
