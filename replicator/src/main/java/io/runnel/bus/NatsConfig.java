package io.runnel.bus;

import io.runnel.wire.ConfigInvalidException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/**
 * How {@link NatsTransport} reaches NATS.
 *
 * @param servers one or more server URLs, {@code nats://} or {@code tls://}, each with a host and at most a port
 *     (default 4222) and user info; tried in the order given
 * @param connectTimeout how long one connection attempt may take, at boot and on every re-dial
 * @param reconnectWait the pause between the library's reconnect attempts, and between the transport's own
 *     re-dials once the library gave up
 * @param maxReconnects jnats's own reconnect attempts per server after a connection drops, before it closes the
 *     connection and the transport's background re-dial (a new connection) takes over; 0, the default, hands over
 *     at once; -1 never. jnats 2.24's in-place reconnect was seen to come back {@code CONNECTED} yet never send
 *     what is published afterwards (about one server restart in four, on this project's machines); the transport
 *     then replaces the connection when a flush marker does not return, which costs one flush deadline
 */
public record NatsConfig(List<URI> servers, Duration connectTimeout, Duration reconnectWait, int maxReconnects)
    implements TransportConfig {

  /** The defaults' connection timeout: 2 s. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);
  /** The defaults' pause between reconnect attempts: 500 ms. */
  public static final Duration DEFAULT_RECONNECT_WAIT = Duration.ofMillis(500);
  /** The defaults' jnats reconnect attempts: 0, so every recovery is a new connection (see the record's notes). */
  public static final int DEFAULT_MAX_RECONNECTS = 0;

  /**
   * Checks every part.
   *
   * @throws IllegalArgumentException for no server, a URL that is not {@code nats://} or {@code tls://} with a
   *     host and nothing past the port, a timeout or wait that is not positive, or {@code maxReconnects} below -1
   */
  public NatsConfig {
    servers = List.copyOf(servers);
    if (servers.isEmpty()) {
      throw new IllegalArgumentException("At least one NATS server URL is needed");
    }
    for (URI u : servers) {
      String problem = problem(u);
      if (problem != null) {
        throw new IllegalArgumentException("NATS URL " + redact(u.toString()) + " " + problem);
      }
    }
    positive(connectTimeout, "connectTimeout");
    positive(reconnectWait, "reconnectWait");
    if (maxReconnects < -1) {
      throw new IllegalArgumentException("maxReconnects is -1 (never give up), 0 or more; not " + maxReconnects);
    }
  }

  /**
   * The configuration {@code text} names (one URL, or several separated by commas), with the default timeouts.
   *
   * @param variable where the text came from, named in the refusal (for example {@code NATS_URL})
   * @throws ConfigInvalidException ({@code X_CONFIG_INVALID}) naming {@code variable} for empty or malformed text
   */
  public static NatsConfig parse(String variable, String text) {
    Objects.requireNonNull(variable, "variable");
    Objects.requireNonNull(text, "text");
    String fix = "Set " + variable + " to nats://host:4222 (or tls://…, several separated by commas), or unset it "
        + "to run on the in-process bus.";
    if (text.isBlank()) {
      throw new ConfigInvalidException(variable + " is empty.", fix);
    }
    List<URI> servers = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      String s = part.trim();
      URI u;
      try {
        u = new URI(s);
      } catch (URISyntaxException e) {
        throw new ConfigInvalidException(variable + " is '" + redact(text) + "': '" + redact(s)
            + "' is not a URL (" + e.getReason() + ").", fix);
      }
      String problem = problem(u);
      if (problem != null) {
        throw new ConfigInvalidException(variable + " is '" + redact(text) + "': '" + redact(s) + "' " + problem
            + ".", fix);
      }
      servers.add(u);
    }
    return new NatsConfig(servers, DEFAULT_CONNECT_TIMEOUT, DEFAULT_RECONNECT_WAIT, DEFAULT_MAX_RECONNECTS);
  }

  /** This configuration with {@code reconnectWait} and {@code maxReconnects} replaced. */
  public NatsConfig withReconnect(Duration reconnectWait, int maxReconnects) {
    return new NatsConfig(servers, connectTimeout, reconnectWait, maxReconnects);
  }

  /** This configuration with {@code connectTimeout} replaced. */
  public NatsConfig withConnectTimeout(Duration connectTimeout) {
    return new NatsConfig(servers, connectTimeout, reconnectWait, maxReconnects);
  }

  /** Connects: {@link NatsTransport#connect}. */
  @Override
  public Transport open() {
    return NatsTransport.connect(this);
  }

  /** {@code NATS at nats://host:4222}, passwords and tokens hidden. */
  @Override
  public String describe() {
    return "NATS at " + urls();
  }

  /** The server URLs separated by commas, passwords and tokens hidden, for messages and logs. */
  public String urls() {
    StringJoiner j = new StringJoiner(",");
    for (URI u : servers) {
      j.add(redact(u.toString()));
    }
    return j.toString();
  }

  /** What is wrong with {@code u} as a NATS server URL, or null when nothing is. */
  private static @Nullable String problem(URI u) {
    String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("nats") && !scheme.equals("tls")) {
      return "does not start with nats:// or tls://";
    }
    if (u.getHost() == null || u.getHost().isEmpty()) {
      return "names no host (or an unparseable host or port)";
    }
    if (u.getPort() == 0 || u.getPort() > 65535) {
      return "has port " + u.getPort() + ", outside 1–65535";
    }
    if ((u.getRawPath() != null && !u.getRawPath().isEmpty() && !u.getRawPath().equals("/"))
        || u.getRawQuery() != null || u.getRawFragment() != null) {
      return "has a path, query or fragment; a NATS URL ends at the port";
    }
    return null;
  }

  /** {@code text} with any user info ({@code user:password@}, {@code token@}) replaced by {@code ***@}. */
  static String redact(String text) {
    return text.replaceAll("//[^/@,]*@", "//***@");
  }

  private static void positive(Duration d, String what) {
    Objects.requireNonNull(d, what);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive, not " + d);
    }
  }
}
