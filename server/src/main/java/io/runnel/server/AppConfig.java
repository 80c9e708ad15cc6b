package io.runnel.server;

import io.runnel.bus.TransportConfig;
import io.runnel.replicator.DatabaseUrl;
import io.runnel.replicator.ReplicatorConfig;
import io.runnel.sync.SyncNode;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.sync.http.Origins;
import io.runnel.wire.ConfigInvalidException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * The process's configuration, read from environment variables and validated at boot; a bad value or combination
 * stops the process with {@code X_CONFIG_INVALID} naming the variable and the fix. Each role reads only the
 * variables it uses ({@code docs/deploy.md} lists them per role; the Helm chart sets exactly those).
 *
 * @param role what this process runs ({@code RUNNEL_ROLE}: all, the default, replicator or sync)
 * @param dev development mode ({@code RUNNEL_DEV=true}; {@code ./runnel run} sets it): the development sign-in
 *     {@code POST /v1/dev/sign-in} answers only then; always false for the replicator
 * @param port the HTTP port ({@code PORT}, default 8080; 0 picks a free one): the page and the sync node, or the
 *     replicator's health and metrics
 * @param databaseUrl an external PostgreSQL ({@code DATABASE_URL}), or null for the embedded one (role {@code all}
 *     only: the other roles require it)
 * @param dataDirectory where the embedded PostgreSQL keeps its data ({@code RUNNEL_DATA_DIR}, default
 *     {@code .runnel/pgdata} under the working directory; read by role {@code all} only)
 * @param databasePort the embedded PostgreSQL's port ({@code RUNNEL_PG_PORT}, default 0: a free port; role
 *     {@code all} only)
 * @param jwtSecret the HS256 secret tokens are signed and checked with ({@code RUNNEL_JWT_SECRET}, at least 32
 *     bytes), or null for a random one per process (role {@code all} in development only; required by
 *     {@code sync}, unread by the replicator role)
 * @param ticketSecret the key tickets are signed with ({@code RUNNEL_TICKET_SECRET}, at least 32 bytes), or null to
 *     derive it from {@code jwtSecret}; sync nodes that honour each other's tickets share it
 * @param bus the bus ({@code NATS_URL}: NATS there when set, else the in-process bus, which only role {@code all}
 *     may use; {@link TransportConfig})
 * @param replication the replicator's database, replication URL, slot, publication and minimum of safe WAL
 *     ({@code REPLICATION_URL}, {@code REPLICATION_SLOT} and {@code REPLICATION_PUBLICATION}, both default
 *     {@code runnel_<app>} ({@link #defaultSlot}), {@code RUNNEL_WAL_SAFE_MIN_BYTES}, default 1 GiB), or null for
 *     role {@code sync}, which runs no replicator
 * @param allowedOrigins the browser origins admitted ({@code RUNNEL_ALLOWED_ORIGINS}, comma-separated
 *     {@code scheme://host[:port]}; empty: the origin the node was reached on), for roles {@code all} and
 *     {@code sync}
 * @param drainSpread the window over which a draining sync node spreads its sockets' reconnects
 *     ({@code RUNNEL_DRAIN_SPREAD_MS}, milliseconds, 0 to 60,000 (a window's grace period), default 10,000; {@code
 *     docs/operating.md}, "Drain"), for roles {@code all} and {@code sync}
 * @param lagDegraded the lag past which {@code /readyz} says {@code "replication_lag"} under {@code degraded}
 *     ({@code RUNNEL_LAG_DEGRADED_MS}, milliseconds, 1 to 3,600,000, default 5,000), for every role
 * @param jwt how tokens are checked ({@code RUNNEL_JWKS_URL}, {@code RUNNEL_JWT_ALGORITHM}, {@code RUNNEL_JWT_ISSUER},
 *     {@code RUNNEL_JWT_AUDIENCE}, {@code RUNNEL_JWT_ORG_CLAIM}, {@code RUNNEL_JWT_CLOCK_SKEW_S}), for roles
 *     {@code all} and {@code sync}
 */
public record AppConfig(Role role, boolean dev, int port, @Nullable DatabaseUrl databaseUrl, Path dataDirectory,
    int databasePort, @Nullable String jwtSecret, @Nullable String ticketSecret, TransportConfig bus,
    @Nullable ReplicatorConfig replication, List<String> allowedOrigins, Duration drainSpread, Duration lagDegraded,
    Jwt jwt) {

  /** What an app's name may be: a lower-case letter, then lower-case letters, digits or underscores, 40 at most. */
  public static final String APP_NAME_RULE = "[a-z][a-z0-9_]{0,39}";

  /** The default drain spread. */
  public static final Duration DEFAULT_DRAIN_SPREAD = Duration.ofSeconds(10);

  /** The longest drain spread: a window's grace period, so the reconnecting clients still find their rings. */
  public static final long MAX_DRAIN_SPREAD_MS = 60_000;

  /** What a process runs. */
  public enum Role {
    /** Everything in one process: database (embedded unless external), replicator, bus, sync node and page. */
    ALL,
    /**
     * The app's migrations and the replicator (through the slot's advisory lock: one of several streams, the
     * others stand by) onto NATS; HTTP only for {@code /healthz}, {@code /readyz} and {@code /metrics}.
     */
    REPLICATOR,
    /** A sync node and the page over PostgreSQL and NATS; no replicator, no migrations. */
    SYNC;

    /** The name {@code RUNNEL_ROLE} takes: {@code all}, {@code replicator} or {@code sync}. */
    public String variableValue() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * How tokens are checked: against an identity provider's keys ({@code jwksUrl} set: {@code RS256} or
   * {@code ES256}), or with the shared HS256 secret ({@code RUNNEL_JWT_SECRET}).
   *
   * @param jwksUrl the provider's JWKS ({@code RUNNEL_JWKS_URL}, http or https), or null for the shared secret
   * @param algorithm the one algorithm tokens are signed with ({@code RUNNEL_JWT_ALGORITHM}: {@code RS256},
   *     {@code ES256} or {@code HS256}; default RS256 with a JWKS, HS256 without)
   * @param issuer the {@code iss} every token must carry ({@code RUNNEL_JWT_ISSUER}), or null for unchecked
   * @param audience a value every token's {@code aud} must hold ({@code RUNNEL_JWT_AUDIENCE}), or null for unchecked
   * @param orgClaim the claim, or dotted path, that holds the actor's org ({@code RUNNEL_JWT_ORG_CLAIM}, default
   *     {@code org_id}; {@code app_metadata.org} for Supabase)
   * @param clockSkew the skew tolerated on {@code exp} and {@code nbf} ({@code RUNNEL_JWT_CLOCK_SKEW_S}, seconds,
   *     0 to 300, default 10)
   */
  public record Jwt(@Nullable URL jwksUrl, String algorithm, @Nullable String issuer, @Nullable String audience,
      String orgClaim, Duration clockSkew) {

    /** Tokens signed with the shared HS256 secret, claims as by default. */
    public static final Jwt SHARED_SECRET = new Jwt(null, "HS256", null, null, "org_id", Duration.ofSeconds(10));

    /** Requires the non-null parts. */
    public Jwt {
      Objects.requireNonNull(algorithm, "algorithm");
      Objects.requireNonNull(orgClaim, "orgClaim");
      Objects.requireNonNull(clockSkew, "clockSkew");
    }

    /** Whether tokens come from an identity provider ({@code RUNNEL_JWKS_URL} is set). */
    public boolean provider() {
      return jwksUrl != null;
    }

    /** The authenticator for these settings: the provider's keys, or {@code secret} for HS256. */
    public JwtAuthenticator authenticator(String secret) {
      URL url = jwksUrl;
      JwtAuthenticator.Builder b = url != null ? JwtAuthenticator.jwks(url, algorithm)
          : JwtAuthenticator.hs256(secret);
      b.skew(clockSkew).orgClaim(orgClaim);
      if (issuer != null) {
        b.issuer(issuer);
      }
      if (audience != null) {
        b.audience(audience);
      }
      return b.build();
    }
  }

  /** Requires the non-null parts and copies the origins. */
  public AppConfig {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(dataDirectory, "dataDirectory");
    Objects.requireNonNull(bus, "bus");
    Objects.requireNonNull(drainSpread, "drainSpread");
    Objects.requireNonNull(jwt, "jwt");
    allowedOrigins = List.copyOf(allowedOrigins);
  }

  /**
   * Whether the development sign-in answers: in development mode without an identity provider (with
   * {@code RUNNEL_JWKS_URL} set, tokens come from the provider and the route does not exist).
   */
  public boolean devSignIn() {
    return dev && !jwt.provider();
  }

  /**
   * Reads the configuration.
   *
   * @param env the environment
   * @param workingDirectory the directory relative paths resolve against
   * @param app the app's name ({@link #APP_NAME_RULE}), which names its default slot and publication
   * @throws ConfigInvalidException ({@code X_CONFIG_INVALID}) for a malformed or unknown value (a {@code NATS_URL}
   *     that is not one or more {@code nats://} or {@code tls://} URLs included), or a role without a variable it
   *     needs ({@code DATABASE_URL} and {@code NATS_URL} for {@code replicator} and {@code sync},
   *     {@code RUNNEL_JWT_SECRET} for {@code sync})
   */
  public static AppConfig fromEnvironment(Map<String, String> env, Path workingDirectory, String app) {
    String slot = defaultSlot(app);
    Role role = role(env.getOrDefault("RUNNEL_ROLE", "all").trim());
    int port = port(env, "PORT", 8080);
    String url = env.get("DATABASE_URL");
    DatabaseUrl database = url == null ? null : DatabaseUrl.parse("DATABASE_URL", url);
    TransportConfig bus = TransportConfig.fromEnvironment(env);
    if (role != Role.ALL) {
      requireExternal(role, database, bus);
    }
    Path defaultDir = workingDirectory.resolve(".runnel/pgdata").normalize();
    if (role == Role.REPLICATOR) {
      return new AppConfig(role, false, port, database, defaultDir, 0, null, null, bus, replication(env, slot),
          List.of(), DEFAULT_DRAIN_SPREAD, lagDegraded(env), Jwt.SHARED_SECRET);
    }
    boolean dev = dev(env);
    Jwt jwt = jwt(env);
    String secret = jwtSecret(env, role, dev, jwt);
    String ticketSecret = env.get("RUNNEL_TICKET_SECRET");
    if (ticketSecret != null && ticketSecret.getBytes(StandardCharsets.UTF_8).length < 32) {
      throw invalid("RUNNEL_TICKET_SECRET is shorter than 32 bytes.",
          "Set it to at least 32 random bytes, e.g. $(openssl rand -base64 32), or unset it to derive the ticket key "
              + "from RUNNEL_JWT_SECRET.");
    }
    if (role == Role.SYNC && secret == null && ticketSecret == null) {
      throw invalid("RUNNEL_TICKET_SECRET and RUNNEL_JWT_SECRET are unset, and RUNNEL_ROLE=sync nodes must honour "
          + "each other's tickets.", "Set RUNNEL_TICKET_SECRET to the same 32 or more random bytes on every sync node, "
          + "e.g. $(openssl rand -base64 32).");
    }
    List<String> origins = origins(env.get("RUNNEL_ALLOWED_ORIGINS"));
    Duration spread = drainSpread(env);
    if (role == Role.SYNC) {
      return new AppConfig(role, dev, port, database, defaultDir, 0, secret, ticketSecret, bus, null, origins, spread,
          lagDegraded(env), jwt);
    }
    String dir = env.getOrDefault("RUNNEL_DATA_DIR", ".runnel/pgdata");
    if (dir.isBlank()) {
      throw invalid("RUNNEL_DATA_DIR is empty.", "Unset it for .runnel/pgdata, or name a directory.");
    }
    return new AppConfig(role, dev, port, database, workingDirectory.resolve(dir).normalize(),
        port(env, "RUNNEL_PG_PORT", 0), secret, ticketSecret, bus, replication(env, slot), origins, spread,
        lagDegraded(env), jwt);
  }

  /**
   * The key tickets are signed with: {@code RUNNEL_TICKET_SECRET}'s bytes when set, else HMAC-SHA256 of the text
   * {@code runnel:tickets} under {@code RUNNEL_JWT_SECRET} (32 bytes), so nodes sharing the JWT secret share it and
   * a ticket's signature never doubles as a token's.
   */
  public static byte[] ticketKey(@Nullable String ticketSecret, String jwtSecret) {
    if (ticketSecret != null) {
      return ticketSecret.getBytes(StandardCharsets.UTF_8);
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(jwtSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return mac.doFinal("runnel:tickets".getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }

  private static Duration lagDegraded(Map<String, String> env) {
    long ms = number(env, "RUNNEL_LAG_DEGRADED_MS", SyncNode.DEFAULT_LAG_DEGRADED.toMillis(), 3_600_000,
        "Set it to 1–3,600,000 milliseconds, or unset it for 5,000.");
    if (ms < 1) {
      throw invalid("RUNNEL_LAG_DEGRADED_MS is 0.", "Set it to 1–3,600,000 milliseconds, or unset it for 5,000.");
    }
    return Duration.ofMillis(ms);
  }

  private static Role role(String text) {
    for (Role r : Role.values()) {
      if (r.variableValue().equals(text)) {
        return r;
      }
    }
    throw invalid("RUNNEL_ROLE is '" + text + "'; the roles that exist are: all, replicator, sync.",
        "Unset RUNNEL_ROLE (or set it to all) to run everything in one process; set it to replicator or sync to run "
            + "that part alone over DATABASE_URL and NATS_URL (docs/deploy.md).");
  }

  private static void requireExternal(Role role, @Nullable DatabaseUrl database, TransportConfig bus) {
    String name = "RUNNEL_ROLE=" + role.variableValue();
    if (database == null) {
      throw invalid("DATABASE_URL is unset, and " + name + " runs on an external PostgreSQL (the embedded one is for "
          + "RUNNEL_ROLE=all only).", "Set DATABASE_URL=postgres://user:password@host:5432/database (wal_level=logical"
          + "; docs/deploy.md), or unset RUNNEL_ROLE to run everything in one process.");
    }
    if (bus instanceof TransportConfig.InProcess) {
      throw invalid("NATS_URL is unset, and " + name + " reaches the other processes over NATS (the in-process bus "
          + "is for RUNNEL_ROLE=all only).", "Set NATS_URL=nats://host:4222 (the same server for the replicator and "
          + "every sync node), or unset RUNNEL_ROLE to run everything in one process.");
    }
  }

  private static boolean dev(Map<String, String> env) {
    String devText = env.getOrDefault("RUNNEL_DEV", "false").trim();
    if (!devText.equals("true") && !devText.equals("false")) {
      throw invalid("RUNNEL_DEV is '" + devText + "', neither true nor false.", "Set RUNNEL_DEV=true or false.");
    }
    return devText.equals("true");
  }

  private static @Nullable String jwtSecret(Map<String, String> env, Role role, boolean dev, Jwt jwt) {
    String secret = env.get("RUNNEL_JWT_SECRET");
    if (secret != null && secret.getBytes(StandardCharsets.UTF_8).length < 32) {
      throw invalid("RUNNEL_JWT_SECRET is shorter than 32 bytes (HS256 needs 32, RFC 7518 3.2).",
          "Set it to at least 32 random bytes, e.g. $(openssl rand -base64 32), or unset it in development.");
    }
    if (jwt.provider()) {
      return secret;
    }
    if (secret == null && role == Role.SYNC) {
      throw invalid("RUNNEL_JWT_SECRET is unset, and RUNNEL_ROLE=sync nodes must accept each other's tokens and "
          + "tickets.", "Set RUNNEL_JWT_SECRET to the same 32 or more random bytes on every sync node, e.g. "
          + "$(openssl rand -base64 32), or set RUNNEL_JWKS_URL to check tokens against an identity provider.");
    }
    if (secret == null && !dev) {
      throw invalid("RUNNEL_JWT_SECRET is unset and RUNNEL_DEV is not true: nobody could sign in.",
          "Set RUNNEL_DEV=true (./runnel run does) for the development sign-in, set RUNNEL_JWT_SECRET, or set "
              + "RUNNEL_JWKS_URL to sign in with an identity provider (docs/deploy.md).");
    }
    return secret;
  }

  private static Jwt jwt(Map<String, String> env) {
    String urlText = env.get("RUNNEL_JWKS_URL");
    URL jwks = null;
    if (urlText != null) {
      jwks = jwksUrl(urlText.trim());
    }
    String algorithm = env.getOrDefault("RUNNEL_JWT_ALGORITHM", jwks != null ? "RS256" : "HS256").trim();
    if (!JwtAuthenticator.ALGORITHMS.contains(algorithm)) {
      throw invalid("RUNNEL_JWT_ALGORITHM is '" + algorithm + "'; the algorithms a node can be pinned to are "
          + String.join(", ", JwtAuthenticator.ALGORITHMS) + ".", "Set it to the one algorithm your identity "
          + "provider signs tokens with (RS256 for most; ES256; HS256 with RUNNEL_JWT_SECRET), or unset it.");
    }
    if (jwks != null && algorithm.equals("HS256")) {
      throw invalid("RUNNEL_JWT_ALGORITHM is HS256 and RUNNEL_JWKS_URL is set, but HS256 tokens are checked with the "
          + "shared RUNNEL_JWT_SECRET, not a JWKS.", "Set RUNNEL_JWT_ALGORITHM to RS256 or ES256 (what the provider "
          + "signs with), or unset RUNNEL_JWKS_URL to use RUNNEL_JWT_SECRET.");
    }
    if (jwks == null && !algorithm.equals("HS256")) {
      throw invalid("RUNNEL_JWT_ALGORITHM is " + algorithm + " but RUNNEL_JWKS_URL is unset: there is no key to "
          + "check " + algorithm + " tokens with.", "Set RUNNEL_JWKS_URL to the identity provider's JWKS, e.g. "
          + "https://<tenant>.auth0.com/.well-known/jwks.json, or unset RUNNEL_JWT_ALGORITHM for HS256.");
    }
    String orgClaim = env.getOrDefault("RUNNEL_JWT_ORG_CLAIM", "org_id").trim();
    if (orgClaim.isEmpty() || orgClaim.startsWith(".") || orgClaim.endsWith(".") || orgClaim.contains("..")) {
      throw invalid("RUNNEL_JWT_ORG_CLAIM is '" + orgClaim + "', not a claim name or a dotted path.",
          "Name the claim that holds the user's org (org_id), or a path into nested claims (app_metadata.org); unset "
              + "it for org_id.");
    }
    long skew = number(env, "RUNNEL_JWT_CLOCK_SKEW_S", 10, 300, "Set it to 0–300 seconds, or unset it for 10.");
    return new Jwt(jwks, algorithm, nonBlank(env, "RUNNEL_JWT_ISSUER"), nonBlank(env, "RUNNEL_JWT_AUDIENCE"), orgClaim,
        Duration.ofSeconds(skew));
  }

  private static URL jwksUrl(String text) {
    String fix = "Set RUNNEL_JWKS_URL to the identity provider's JWKS, an http or https URL such as "
        + "https://<tenant>.auth0.com/.well-known/jwks.json, or unset it.";
    try {
      URI uri = new URI(text);
      if ((!"https".equals(uri.getScheme()) && !"http".equals(uri.getScheme())) || uri.getHost() == null) {
        throw invalid("RUNNEL_JWKS_URL is '" + text + "', not an http or https URL with a host.", fix);
      }
      return uri.toURL();
    } catch (URISyntaxException | MalformedURLException | IllegalArgumentException e) {
      throw invalid("RUNNEL_JWKS_URL is '" + text + "', not a URL.", fix);
    }
  }

  private static @Nullable String nonBlank(Map<String, String> env, String variable) {
    String text = env.get(variable);
    if (text == null) {
      return null;
    }
    if (text.isBlank()) {
      throw invalid(variable + " is empty.", "Set it to the value every token must carry, or unset it to leave the "
          + "claim unchecked.");
    }
    return text.trim();
  }

  /**
   * The default slot and publication of {@code app}: {@code runnel_<app>}, so two apps on one database never share a
   * slot (a slot has one consumer; PostgreSQL's names are at most 63 bytes, {@code NAMEDATALEN}).
   *
   * @throws IllegalArgumentException when {@code app} breaks {@link #APP_NAME_RULE}
   */
  public static String defaultSlot(String app) {
    if (!Objects.requireNonNull(app, "app").matches(APP_NAME_RULE)) {
      throw new IllegalArgumentException("An app's name is a lower-case letter, then lower-case letters, digits or "
          + "underscores (40 at most), not '" + app + "'");
    }
    return "runnel_" + app;
  }

  private static ReplicatorConfig replication(Map<String, String> env, String slot) {
    Map<String, String> names = new HashMap<>();
    for (String variable : List.of("DATABASE_URL", "REPLICATION_URL")) {
      String value = env.get(variable);
      if (value != null) {
        names.put(variable, value);
      }
    }
    names.put("REPLICATION_SLOT", env.getOrDefault("REPLICATION_SLOT", slot));
    names.put("REPLICATION_PUBLICATION", env.getOrDefault("REPLICATION_PUBLICATION", slot));
    if (env.containsKey("RUNNEL_WAL_SAFE_MIN_BYTES")) {
      names.put("RUNNEL_WAL_SAFE_MIN_BYTES", env.get("RUNNEL_WAL_SAFE_MIN_BYTES"));
    }
    return ReplicatorConfig.fromEnvironment(names);
  }

  private static Duration drainSpread(Map<String, String> env) {
    String text = env.get("RUNNEL_DRAIN_SPREAD_MS");
    if (text == null) {
      return DEFAULT_DRAIN_SPREAD;
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

  private static List<String> origins(@Nullable String text) {
    List<String> out = new ArrayList<>();
    if (text == null) {
      return out;
    }
    for (String part : text.split(",")) {
      if (!part.isBlank()) {
        out.add(part.trim());
      }
    }
    try {
      Origins.of(out);
    } catch (IllegalArgumentException e) {
      throw invalid("RUNNEL_ALLOWED_ORIGINS is '" + text + "': " + e.getMessage(),
          "List the page's origins as scheme://host[:port], separated by commas, e.g. https://board.example.com; or "
              + "unset it to admit the origin the node was reached on.");
    }
    return out;
  }

  private static int port(Map<String, String> env, String variable, int byDefault) {
    return (int) number(env, variable, byDefault, 65535, "Set it to 1–65535, or 0 for any free port.");
  }

  private static long number(Map<String, String> env, String variable, long byDefault, long max, String fix) {
    String text = env.get(variable);
    if (text == null) {
      return byDefault;
    }
    long value;
    try {
      value = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw invalid(variable + " is '" + text + "', not a whole number.", fix);
    }
    if (value < 0 || value > max) {
      throw invalid(variable + " is " + value + ", outside 0–" + max + ".", fix);
    }
    return value;
  }

  private static ConfigInvalidException invalid(String cause, String fix) {
    return new ConfigInvalidException(cause, fix);
  }
}
