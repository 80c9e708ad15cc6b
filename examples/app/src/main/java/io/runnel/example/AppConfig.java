package io.runnel.example;

import io.runnel.bus.TransportConfig;
import io.runnel.replicator.DatabaseUrl;
import io.runnel.wire.ConfigInvalidException;
import io.runnel.wire.Nullable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The process's configuration, read from environment variables and validated at boot; a bad value stops the
 * process with {@code X_CONFIG_INVALID} naming the variable and the fix.
 *
 * @param role what this process runs ({@code RUNNEL_ROLE}; only {@code all}, the default, exists yet)
 * @param dev development mode ({@code RUNNEL_DEV=true}; {@code ./runnel run} sets it): the development sign-in
 *     {@code POST /v1/dev/sign-in} answers only then
 * @param port the HTTP port of the page and the sync node ({@code PORT}, default 8080; 0 picks a free one)
 * @param databaseUrl an external PostgreSQL ({@code DATABASE_URL}), or null for the embedded one
 * @param dataDirectory where the embedded PostgreSQL keeps its data ({@code RUNNEL_DATA_DIR}, default
 *     {@code .runnel/pgdata} under the working directory)
 * @param databasePort the embedded PostgreSQL's port ({@code RUNNEL_PG_PORT}, default 0: a free port)
 * @param jwtSecret the HS256 secret tokens are signed and checked with ({@code RUNNEL_JWT_SECRET}, at least 32
 *     bytes), or null for a random one per process (development only: tokens then end with the process)
 * @param bus the bus ({@code NATS_URL}: NATS there when set, else the in-process bus; {@link TransportConfig})
 * @param drainSpread the window a drain on SIGTERM spreads the sockets' reconnects over ({@code
 *     RUNNEL_DRAIN_SPREAD_MS}, milliseconds, 0–60,000, default 10,000; {@code docs/operating.md}, "Drain")
 */
public record AppConfig(Role role, boolean dev, int port, @Nullable DatabaseUrl databaseUrl, Path dataDirectory,
    int databasePort, @Nullable String jwtSecret, TransportConfig bus, Duration drainSpread) {

  /** The longest drain spread: a window's grace period, so the reconnecting clients still find their rings. */
  public static final long MAX_DRAIN_SPREAD_MS = 60_000;

  /** What a process runs. */
  public enum Role {
    /** Everything in one process: database (embedded unless external), replicator, bus, sync node and page. */
    ALL
  }

  /** Requires the non-null parts. */
  public AppConfig {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(dataDirectory, "dataDirectory");
    Objects.requireNonNull(bus, "bus");
    Objects.requireNonNull(drainSpread, "drainSpread");
  }

  /**
   * Reads the configuration.
   *
   * @param env the environment
   * @param workingDirectory the directory relative paths resolve against
   * @throws ConfigInvalidException ({@code X_CONFIG_INVALID}) for a malformed, unknown or not-yet-supported value
   *     (a {@code NATS_URL} that is not one or more {@code nats://} or {@code tls://} URLs included)
   */
  public static AppConfig fromEnvironment(Map<String, String> env, Path workingDirectory) {
    String role = env.getOrDefault("RUNNEL_ROLE", "all").trim();
    if (!role.equals("all")) {
      throw invalid("RUNNEL_ROLE is '" + role + "'; the roles that exist are: all.",
          "Unset RUNNEL_ROLE, or set it to all (replicator and sync arrive with the deployment issue).");
    }
    String devText = env.getOrDefault("RUNNEL_DEV", "false").trim();
    if (!devText.equals("true") && !devText.equals("false")) {
      throw invalid("RUNNEL_DEV is '" + devText + "', neither true nor false.", "Set RUNNEL_DEV=true or false.");
    }
    boolean dev = devText.equals("true");
    TransportConfig bus = TransportConfig.fromEnvironment(env);
    String dir = env.getOrDefault("RUNNEL_DATA_DIR", ".runnel/pgdata");
    if (dir.isBlank()) {
      throw invalid("RUNNEL_DATA_DIR is empty.", "Unset it for .runnel/pgdata, or name a directory.");
    }
    String secret = env.get("RUNNEL_JWT_SECRET");
    if (secret != null && secret.getBytes(StandardCharsets.UTF_8).length < 32) {
      throw invalid("RUNNEL_JWT_SECRET is shorter than 32 bytes (HS256 needs 32, RFC 7518 3.2).",
          "Set it to at least 32 random bytes, e.g. $(openssl rand -base64 32), or unset it in development.");
    }
    if (secret == null && !dev) {
      throw invalid("RUNNEL_JWT_SECRET is unset and RUNNEL_DEV is not true: nobody could sign in.",
          "Set RUNNEL_DEV=true (./runnel run does) for the development sign-in, or set RUNNEL_JWT_SECRET.");
    }
    String url = env.get("DATABASE_URL");
    return new AppConfig(Role.ALL, dev, port(env, "PORT", 8080), url == null ? null : DatabaseUrl.parse("DATABASE_URL",
        url), workingDirectory.resolve(dir).normalize(), port(env, "RUNNEL_PG_PORT", 0), secret, bus,
        drainSpread(env));
  }

  private static Duration drainSpread(Map<String, String> env) {
    String text = env.get("RUNNEL_DRAIN_SPREAD_MS");
    if (text == null) {
      return Duration.ofSeconds(10);
    }
    String fix = "Set it to milliseconds from 0 to " + MAX_DRAIN_SPREAD_MS + " (a window's grace period), or unset it"
        + " for 10000; keep the pod's termination grace period above it.";
    long ms;
    try {
      ms = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw invalid("RUNNEL_DRAIN_SPREAD_MS is '" + text + "', not a whole number of milliseconds.", fix);
    }
    if (ms < 0 || ms > MAX_DRAIN_SPREAD_MS) {
      throw invalid("RUNNEL_DRAIN_SPREAD_MS is " + ms + ", outside 0–" + MAX_DRAIN_SPREAD_MS + ".", fix);
    }
    return Duration.ofMillis(ms);
  }

  private static int port(Map<String, String> env, String variable, int byDefault) {
    String text = env.get(variable);
    if (text == null) {
      return byDefault;
    }
    int port;
    try {
      port = Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw invalid(variable + " is '" + text + "', not a port number.", "Set it to 1–65535, or 0 for any free port.");
    }
    if (port < 0 || port > 65535) {
      throw invalid(variable + " is " + port + ", outside 0–65535.", "Set it to 1–65535, or 0 for any free port.");
    }
    return port;
  }

  private static ConfigInvalidException invalid(String cause, String fix) {
    return new ConfigInvalidException(cause, fix);
  }
}
