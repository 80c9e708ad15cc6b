package io.runnel.server;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.NatsConfig;
import io.runnel.bus.TransportConfig;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The runtime's environment: defaults, and each bad value refused with {@code X_CONFIG_INVALID} naming it. */
class AppConfigTest {

  static final Path HERE = Path.of("/srv/board");

  /** The configuration of an app named board, as the team board reads it. */
  static AppConfig config(Map<String, String> env, Path workingDirectory) {
    return AppConfig.fromEnvironment(env, workingDirectory, "board");
  }

  static RunnelException refused(String... env) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < env.length; i += 2) {
      m.put(env[i], env[i + 1]);
    }
    RunnelException e = assertThrows(RunnelException.class, () -> config(m, HERE));
    assertEquals(ErrorCode.X_CONFIG_INVALID, e.code());
    return e;
  }

  @Test
  void theDefaultsAreRoleAllPort8080TheEmbeddedDatabaseAndItsKeptFolder() {
    AppConfig c = config(Map.of("RUNNEL_DEV", "true"), HERE);
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
        () -> assertEquals(Duration.ofMillis(2500), config(Map.of("RUNNEL_DEV", "true",
            "RUNNEL_DRAIN_SPREAD_MS", "2500"), HERE).drainSpread()),
        () -> assertEquals(Duration.ZERO, config(Map.of("RUNNEL_DEV", "true",
            "RUNNEL_DRAIN_SPREAD_MS", "0"), HERE).drainSpread(), "0: every client reconnects at once"),
        () -> assertEquals(Duration.ofMinutes(1), config(Map.of("RUNNEL_DEV", "true",
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
    AppConfig c = config(Map.of("RUNNEL_DEV", "true", "NATS_URL",
        "nats://nats-1.example:4222,nats://nats-2.example:4223"), HERE);
    assertAll(
        () -> assertTrue(c.bus() instanceof NatsConfig, String.valueOf(c.bus())),
        () -> assertEquals("NATS at nats://nats-1.example:4222,nats://nats-2.example:4223", c.bus().describe()));
  }

  @Test
  void databaseUrlAndPortAreHonoured() {
    AppConfig c = config(Map.of("RUNNEL_DEV", "true", "PORT", "9090",
        "DATABASE_URL", "postgres://app:pw@db.example:6543/board"), HERE);
    assertAll(
        () -> assertEquals(9090, c.port()),
        () -> assertEquals("jdbc:postgresql://db.example:6543/board", c.databaseUrl().jdbcUrl()),
        () -> assertEquals("app", c.databaseUrl().user()));
  }

  @Test
  void eachBadValueIsRefusedNamingItsVariable() {
    assertAll(
        () -> assertTrue(refused("RUNNEL_ROLE", "edge", "RUNNEL_DEV", "true").cause()
            .contains("roles that exist are: all, replicator, sync"), "names what exists"),
        () -> assertTrue(refused("NATS_URL", "localhost:4222", "RUNNEL_DEV", "true").cause().contains("NATS_URL"),
            "a NATS URL without nats://"),
        () -> assertTrue(refused("NATS_URL", "", "RUNNEL_DEV", "true").cause().contains("NATS_URL"), "an empty one"),
        () -> assertTrue(refused("RUNNEL_DEV", "yes").cause().contains("RUNNEL_DEV")),
        () -> assertTrue(refused("PORT", "http", "RUNNEL_DEV", "true").cause().contains("PORT")),
        () -> assertTrue(refused("PORT", "65536", "RUNNEL_DEV", "true").cause().contains("PORT")),
        () -> assertTrue(refused("DATABASE_URL", "mysql://x/y", "RUNNEL_DEV", "true").cause().contains("DATABASE_URL")),
        () -> assertTrue(refused("RUNNEL_JWT_SECRET", "short").cause().contains("RUNNEL_JWT_SECRET")),
        () -> assertTrue(refused().fix().contains("RUNNEL_DEV=true"), "outside development, someone must sign tokens"),
        () -> assertTrue(refused("RUNNEL_TICKET_SECRET", "short", "RUNNEL_DEV", "true").cause()
            .contains("RUNNEL_TICKET_SECRET")),
        () -> assertTrue(refused("RUNNEL_ALLOWED_ORIGINS", "board.example.com", "RUNNEL_DEV", "true").cause()
            .contains("RUNNEL_ALLOWED_ORIGINS"), "an origin without its scheme"),
        () -> assertTrue(refused("RUNNEL_DRAIN_SPREAD_MS", "-1", "RUNNEL_DEV", "true").cause()
            .contains("RUNNEL_DRAIN_SPREAD_MS")),
        () -> assertTrue(refused("RUNNEL_DRAIN_SPREAD_MS", "10s", "RUNNEL_DEV", "true").cause()
            .contains("RUNNEL_DRAIN_SPREAD_MS")),
        () -> assertTrue(refused("REPLICATION_SLOT", "Board-Slot", "RUNNEL_DEV", "true").cause()
            .contains("REPLICATION_SLOT")),
        () -> assertTrue(refused("REPLICATION_URL", "postgres://r@db.example/board", "RUNNEL_DEV", "true").cause()
            .contains("DATABASE_URL"), "a replication URL beside the embedded database"));
  }

  static final String DB = "postgres://app:pw@db.example:5432/board";
  static final String NATS = "nats://nats.example:4222";
  static final String SECRET = "0123456789abcdef0123456789abcdef";

  @Test
  void theSyncAndReplicatorRolesNeedAnExternalDatabaseAndNatsAndSayHowToSetThem() {
    for (String role : new String[] {"sync", "replicator"}) {
      RunnelException noDatabase = refused("RUNNEL_ROLE", role, "NATS_URL", NATS, "RUNNEL_JWT_SECRET", SECRET);
      RunnelException noNats = refused("RUNNEL_ROLE", role, "DATABASE_URL", DB, "RUNNEL_JWT_SECRET", SECRET);
      assertAll(role,
          () -> assertTrue(noDatabase.cause().startsWith("DATABASE_URL is unset"), noDatabase.cause()),
          () -> assertTrue(noDatabase.cause().contains("RUNNEL_ROLE=" + role), noDatabase.cause()),
          () -> assertTrue(noDatabase.fix().contains("DATABASE_URL=postgres://"), noDatabase.fix()),
          () -> assertTrue(noNats.cause().startsWith("NATS_URL is unset"), noNats.cause()),
          () -> assertTrue(noNats.fix().contains("NATS_URL=nats://"), noNats.fix()));
    }
  }

  @Test
  void aSyncNodeNeedsTheSharedJwtSecretEvenInDevelopment() {
    RunnelException e = refused("RUNNEL_ROLE", "sync", "RUNNEL_DEV", "true", "DATABASE_URL", DB, "NATS_URL", NATS);
    assertAll(
        () -> assertTrue(e.cause().startsWith("RUNNEL_JWT_SECRET is unset"), e.cause()),
        () -> assertTrue(e.fix().contains("same"), "every sync node shares it: " + e.fix()));
  }

  @Test
  void aSyncNodeReadsItsDatabaseBusSecretsOriginsAndDrainSpread() {
    AppConfig c = config(Map.of("RUNNEL_ROLE", "sync", "DATABASE_URL", DB, "NATS_URL", NATS,
        "RUNNEL_JWT_SECRET", SECRET, "RUNNEL_TICKET_SECRET", SECRET + "-tickets", "PORT", "8081",
        "RUNNEL_ALLOWED_ORIGINS", "https://board.example.com, https://board.example.org:8443",
        "RUNNEL_DRAIN_SPREAD_MS", "20000"), HERE);
    assertAll(
        () -> assertEquals(AppConfig.Role.SYNC, c.role()),
        () -> assertEquals(8081, c.port()),
        () -> assertEquals("jdbc:postgresql://db.example:5432/board", c.databaseUrl().jdbcUrl()),
        () -> assertTrue(c.bus() instanceof NatsConfig),
        () -> assertEquals(SECRET, c.jwtSecret()),
        () -> assertEquals(SECRET + "-tickets", c.ticketSecret()),
        () -> assertEquals(List.of("https://board.example.com", "https://board.example.org:8443"),
            c.allowedOrigins()),
        () -> assertEquals(Duration.ofSeconds(20), c.drainSpread()),
        () -> assertNull(c.replication(), "a sync node runs no replicator"),
        () -> assertTrue(!c.dev(), "development mode is off unless asked for"));
  }

  @Test
  void theReplicatorReadsItsSlotPublicationAndReplicationUrlWithTheBoardsDefaults() {
    AppConfig plain = config(Map.of("RUNNEL_ROLE", "replicator", "DATABASE_URL", DB,
        "NATS_URL", NATS), HERE);
    AppConfig named = config(Map.of("RUNNEL_ROLE", "replicator", "DATABASE_URL", DB,
        "NATS_URL", NATS, "REPLICATION_URL", "postgres://replicator:pw@db.example:5432/board",
        "REPLICATION_SLOT", "board_two", "REPLICATION_PUBLICATION", "board_pub"), HERE);
    assertAll(
        () -> assertEquals(AppConfig.Role.REPLICATOR, plain.role()),
        () -> assertEquals("runnel_board", plain.replication().slot()),
        () -> assertEquals("runnel_board", plain.replication().publication()),
        () -> assertEquals("app", plain.replication().replication().user(), "DATABASE_URL's user by default"),
        () -> assertNull(plain.jwtSecret(), "a replicator signs nothing: no secret needed"),
        () -> assertEquals("board_two", named.replication().slot()),
        () -> assertEquals("board_pub", named.replication().publication()),
        () -> assertEquals("replicator", named.replication().replication().user()),
        () -> assertTrue(refused("RUNNEL_ROLE", "replicator", "DATABASE_URL", DB, "NATS_URL", NATS,
            "REPLICATION_URL", "postgres://replicator:pw@other.example:5432/board").cause().contains("REPLICATION_URL"),
            "a replication URL on another server"));
  }

  @Test
  void theTicketKeyIsTheTicketSecretOrOneDerivedAlikeFromTheJwtSecretNeverTheJwtSecretItself() {
    byte[] derived = AppConfig.ticketKey(null, SECRET);
    assertAll(
        () -> assertTrue(Arrays.equals(derived, AppConfig.ticketKey(null, SECRET)),
            "every node with the same JWT secret derives the same key"),
        () -> assertEquals(32, derived.length),
        () -> assertTrue(!Arrays.equals(derived, SECRET.getBytes(StandardCharsets.UTF_8)),
            "a ticket's signature never doubles as a token's"),
        () -> assertTrue(!Arrays.equals(derived, AppConfig.ticketKey(null, SECRET + "x")),
            "another JWT secret, another key"),
        () -> assertTrue(Arrays.equals((SECRET + "-tickets").getBytes(StandardCharsets.UTF_8),
            AppConfig.ticketKey(SECRET + "-tickets", SECRET)), "RUNNEL_TICKET_SECRET, when set, is the key"));
  }

  @Test
  void anIdentityProvidersJwksPinsItsAlgorithmChecksIssuerAndAudienceAndTurnsTheDevSignInOff() throws Exception {
    AppConfig c = config(Map.of("RUNNEL_DEV", "true",
        "RUNNEL_JWKS_URL", "https://acme.eu.auth0.com/.well-known/jwks.json", "RUNNEL_JWT_ISSUER",
        "https://acme.eu.auth0.com/", "RUNNEL_JWT_AUDIENCE", "https://board.example.com", "RUNNEL_JWT_ORG_CLAIM",
        "app_metadata.org", "RUNNEL_JWT_CLOCK_SKEW_S", "30"), HERE);
    AppConfig es = config(Map.of("RUNNEL_JWKS_URL", "http://127.0.0.1:9000/jwks",
        "RUNNEL_JWT_ALGORITHM", "ES256"), HERE);
    AppConfig plain = config(Map.of("RUNNEL_DEV", "true"), HERE);
    assertAll(
        () -> assertEquals(URI.create("https://acme.eu.auth0.com/.well-known/jwks.json").toURL(), c.jwt().jwksUrl()),
        () -> assertEquals("RS256", c.jwt().algorithm(), "RS256 unless told otherwise"),
        () -> assertEquals("https://acme.eu.auth0.com/", c.jwt().issuer()),
        () -> assertEquals("https://board.example.com", c.jwt().audience()),
        () -> assertEquals("app_metadata.org", c.jwt().orgClaim()),
        () -> assertEquals(Duration.ofSeconds(30), c.jwt().clockSkew()),
        () -> assertTrue(c.dev(), "development mode stays on"),
        () -> assertFalse(c.devSignIn(), "but the development sign-in is off with a provider"),
        () -> assertEquals("RS256", c.jwt().authenticator("0123456789abcdef0123456789abcdef").algorithm()),
        () -> assertEquals("ES256", es.jwt().algorithm(), "no secret and no dev mode are needed with a provider"),
        () -> assertEquals("HS256", plain.jwt().algorithm()),
        () -> assertEquals("org_id", plain.jwt().orgClaim()),
        () -> assertEquals(Duration.ofSeconds(10), plain.jwt().clockSkew()),
        () -> assertTrue(plain.devSignIn()));
  }

  @Test
  void eachBadSignInValueIsRefusedNamingItsVariable() {
    String jwks = "https://idp.example.com/jwks";
    assertAll(
        () -> assertTrue(refused("RUNNEL_JWKS_URL", "idp.example.com/jwks").cause().startsWith("RUNNEL_JWKS_URL"),
            "no scheme"),
        () -> assertTrue(refused("RUNNEL_JWKS_URL", "ftp://idp.example.com/jwks").cause()
            .contains("not an http or https URL"), "another scheme"),
        () -> assertTrue(refused("RUNNEL_JWKS_URL", jwks, "RUNNEL_JWT_ALGORITHM", "none").cause()
            .contains("RS256, ES256, HS256"), "an algorithm that cannot be pinned"),
        () -> assertTrue(refused("RUNNEL_JWKS_URL", jwks, "RUNNEL_JWT_ALGORITHM", "HS256").cause()
            .contains("shared RUNNEL_JWT_SECRET"), "HS256 takes the secret, not a JWKS"),
        () -> assertTrue(refused("RUNNEL_DEV", "true", "RUNNEL_JWT_ALGORITHM", "RS256").fix()
            .contains("RUNNEL_JWKS_URL"), "RS256 without a JWKS"),
        () -> assertTrue(refused("RUNNEL_JWKS_URL", jwks, "RUNNEL_JWT_ISSUER", " ").cause()
            .contains("RUNNEL_JWT_ISSUER is empty"), "an empty issuer"),
        () -> assertTrue(refused("RUNNEL_JWKS_URL", jwks, "RUNNEL_JWT_AUDIENCE", "").cause()
            .contains("RUNNEL_JWT_AUDIENCE is empty"), "an empty audience"),
        () -> assertTrue(refused("RUNNEL_JWKS_URL", jwks, "RUNNEL_JWT_ORG_CLAIM", "app_metadata.").cause()
            .contains("RUNNEL_JWT_ORG_CLAIM"), "a path ending in a dot"),
        () -> assertTrue(refused("RUNNEL_JWKS_URL", jwks, "RUNNEL_JWT_CLOCK_SKEW_S", "301").cause()
            .contains("RUNNEL_JWT_CLOCK_SKEW_S"), "a skew past five minutes"),
        () -> assertTrue(refused("RUNNEL_JWKS_URL", jwks, "RUNNEL_JWT_CLOCK_SKEW_S", "10s").cause()
            .contains("RUNNEL_JWT_CLOCK_SKEW_S"), "a unit"),
        () -> assertTrue(refused("RUNNEL_ROLE", "sync", "DATABASE_URL", DB, "NATS_URL", NATS, "RUNNEL_JWKS_URL", jwks)
            .cause().startsWith("RUNNEL_TICKET_SECRET and RUNNEL_JWT_SECRET are unset"),
            "sync nodes on a provider still share a ticket key"));
    AppConfig sync = config(Map.of("RUNNEL_ROLE", "sync", "DATABASE_URL", DB, "NATS_URL", NATS,
        "RUNNEL_JWKS_URL", jwks, "RUNNEL_TICKET_SECRET", SECRET + "-tickets"), HERE);
    assertAll(
        () -> assertNull(sync.jwtSecret(), "a sync node on a provider needs no JWT secret"),
        () -> assertTrue(sync.jwt().provider()));
  }

  @Test
  void theDefaultSlotIsNamedAfterTheAppSoTwoAppsOnOneDatabaseNeverShareOne() {
    AppConfig todo = AppConfig.fromEnvironment(Map.of("RUNNEL_ROLE", "replicator", "DATABASE_URL", DB, "NATS_URL",
        NATS), HERE, "todo");
    assertAll(
        () -> assertEquals("runnel_todo", todo.replication().slot()),
        () -> assertEquals("runnel_todo", todo.replication().publication()),
        () -> assertEquals("runnel_board", AppConfig.defaultSlot("board")),
        () -> assertThrows(IllegalArgumentException.class, () -> AppConfig.defaultSlot("Board")),
        () -> assertThrows(IllegalArgumentException.class, () -> AppConfig.defaultSlot("")),
        () -> assertThrows(IllegalArgumentException.class, () -> AppConfig.defaultSlot("a".repeat(41))));
  }
}
