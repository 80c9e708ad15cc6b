package io.runnel.sync.auth;

import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a request presented: a bearer token ({@code Authorization: Bearer}), the session cookie
 * ({@code runnel_session}), and where it came from.
 *
 * @param bearer the bearer token, or null
 * @param sessionCookie the session cookie's value, or null
 * @param remoteAddress the client's address, for authenticators that admit anonymous actors per network
 */
public record Credentials(@Nullable String bearer, @Nullable String sessionCookie, @Nullable String remoteAddress) {

  /** The token to verify: the bearer token, else the session cookie, else null. */
  public @Nullable String token() {
    return bearer != null ? bearer : sessionCookie;
  }
  /**
   * The credentials a request's headers carry: the bearer token ({@code Authorization: Bearer <token>}, the scheme
   * matched case-insensitively as RFC 9110 section 11.1 says) and the {@code runnel_session} cookie (RFC 6265).
   *
   * @param remoteAddress the client's address, or null
   */
  public static Credentials of(Headers headers, @Nullable String remoteAddress) {
    String bearer = headers.first(HeaderNames.AUTHORIZATION).filter(a -> a.regionMatches(true, 0, "Bearer ", 0, 7))
        .map(a -> a.substring(7).trim()).filter(t -> !t.isEmpty()).orElse(null);
    String cookie = null;
    for (String header : headers.all(HeaderNames.COOKIE, List::of)) {
      for (String part : header.split(";")) {
        String p = part.trim();
        if (p.startsWith("runnel_session=") && p.length() > "runnel_session=".length()) {
          cookie = p.substring("runnel_session=".length());
        }
      }
    }
    return new Credentials(bearer, cookie, remoteAddress);
  }

  /** Whether the request is cookie-authenticated: it carries the session cookie and no bearer token. */
  public boolean cookieBound() {
    return bearer == null && sessionCookie != null;
  }
}
