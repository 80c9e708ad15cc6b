package io.runnel.sync.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Which browser origins may talk to the node: with none configured, its own (the origin whose host and port are the
 * request's {@code Host}); with some configured, exactly those (list the node's own origin too when it serves pages,
 * the rule Helidon's WebSocket upgrade also applies). A foreign
 * {@code Origin} is refused on the socket upgrade ({@code 403 X_SOCKET_ORIGIN_REFUSED}) and on a
 * cookie-authenticated POST ({@code 403 X_ORIGIN_REFUSED}); configured origins also get CORS headers (credentials
 * allowed), nobody else does.
 *
 * <p>An origin is {@code scheme://host[:port]} (RFC 6454); configured ones are compared case-insensitively, with the
 * scheme's default port made explicit. A request with no {@code Origin} header is not a browser's cross-origin call
 * and is admitted; {@code Origin: null} (sandboxed frames, {@code file:}) is foreign.
 */
public final class Origins {

  private final Set<String> allowed;

  private Origins(Set<String> allowed) {
    this.allowed = allowed;
  }

  /** The node's own origin only (the default). */
  public static Origins sameOriginOnly() {
    return new Origins(Set.of());
  }

  /**
   * Exactly {@code allowed} (the node's own origin when {@code allowed} is empty).
   *
   * @param allowed origins such as {@code https://app.example.com}
   * @throws IllegalArgumentException for an entry that is not {@code http(s)://host[:port]}
   */
  public static Origins of(Collection<String> allowed) {
    Set<String> out = new LinkedHashSet<>();
    for (String origin : Objects.requireNonNull(allowed, "allowed")) {
      String normal = normalize(Objects.requireNonNull(origin, "origin"));
      if (normal == null) {
        throw new IllegalArgumentException("An allowed origin is scheme://host[:port] with scheme http or https, not '"
            + origin + "'");
      }
      out.add(normal);
    }
    return new Origins(Set.copyOf(out));
  }

  /**
   * Whether a request from {@code origin} to a node reached as {@code host} is admitted.
   *
   * @param origin the {@code Origin} header, or null when there is none (admitted)
   * @param host the {@code Host} header, or null
   */
  public boolean admits(@Nullable String origin, @Nullable String host) {
    if (origin == null) {
      return true;
    }
    String normal = normalize(origin);
    if (normal == null) {
      return false;
    }
    return allowed.isEmpty() ? sameOrigin(normal, host) : allowed.contains(normal);
  }

  /**
   * The configured origins as browsers send them ({@code scheme://host}, the port only when it is not the scheme's
   * default), for Helidon's upgrade check, which compares the header as it is.
   */
  public Set<String> browserForms() {
    Set<String> out = new LinkedHashSet<>();
    for (String o : allowed) {
      URI u = URI.create(o);
      boolean defaultPort = u.getPort() == ("https".equals(u.getScheme()) ? 443 : 80);
      out.add(u.getScheme() + "://" + u.getHost() + (defaultPort ? "" : ":" + u.getPort()));
    }
    return Set.copyOf(out);
  }

  /** Whether {@code origin} is one of the configured origins, which get CORS headers. */
  public boolean configured(@Nullable String origin) {
    String normal = origin == null ? null : normalize(origin);
    return normal != null && allowed.contains(normal);
  }

  private static boolean sameOrigin(String normalOrigin, @Nullable String host) {
    if (host == null || host.isBlank()) {
      return false;
    }
    URI o = URI.create(normalOrigin);
    String h = host.trim().toLowerCase(Locale.ROOT);
    String expected = o.getHost() + ":" + o.getPort();
    // A Host without a port names the default port of the scheme the page was loaded with (RFC 9110, 7.2), never
    // the origin's own port: a page on :9999 of the same host is another origin, though it shares the cookies.
    int defaultPort = "https".equals(o.getScheme()) ? 443 : 80;
    boolean hasPort = h.startsWith("[") ? h.contains("]:") : h.contains(":");
    return (hasPort ? h : h + ":" + defaultPort).equals(expected);
  }

  /** {@code scheme://host:port} lower-cased with the default port explicit, or null when it is no origin. */
  private static @Nullable String normalize(String origin) {
    try {
      URI u = new URI(origin.trim());
      String scheme = u.getScheme() == null ? null : u.getScheme().toLowerCase(Locale.ROOT);
      if ((!"http".equals(scheme) && !"https".equals(scheme)) || u.getHost() == null
          || u.getRawUserInfo() != null || u.getRawQuery() != null || u.getRawFragment() != null
          || (u.getRawPath() != null && !u.getRawPath().isEmpty() && !u.getRawPath().equals("/"))) {
        return null;
      }
      int port = u.getPort() >= 0 ? u.getPort() : "https".equals(scheme) ? 443 : 80;
      return scheme + "://" + u.getHost().toLowerCase(Locale.ROOT) + ":" + port;
    } catch (URISyntaxException e) {
      return null;
    }
  }

  @Override
  public String toString() {
    return "Origins[self" + (allowed.isEmpty() ? "" : ", " + String.join(", ", allowed)) + "]";
  }
}
