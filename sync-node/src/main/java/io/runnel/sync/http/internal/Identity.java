package io.runnel.sync.http.internal;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.runnel.sync.auth.AuthRefusedException;
import io.runnel.sync.auth.Authenticator;
import io.runnel.sync.auth.Credentials;
import io.runnel.sync.auth.Grant;
import io.runnel.sync.http.Origins;
import io.runnel.wire.ErrorCode;
import java.time.Clock;

/**
 * Who an HTTP call is, by the socket's rules ({@code docs/protocol.md}, "Identity"): a bearer token or the session
 * cookie, decided by the node's {@link Authenticator}; tickets are for the socket only. A cookie-authenticated POST
 * from a foreign {@code Origin} is refused before the authenticator runs, since the cookie is the browser's, not
 * the calling page's.
 */
final class Identity {

  private final Authenticator authenticator;
  private final Clock clock;
  private final Origins origins;

  Identity(Authenticator authenticator, Clock clock, Origins origins) {
    this.authenticator = authenticator;
    this.clock = clock;
    this.origins = origins;
  }

  /**
   * The grant of {@code request}.
   *
   * @param post whether the call changes state (a POST), which a foreign origin may not make with the cookie
   * @throws HttpRefusal 403 {@code X_ORIGIN_REFUSED}, 401 {@code X_SOCKET_UNAUTHENTICATED}, or 503
   *     {@code X_SOCKET_AUTH_UNAVAILABLE} with {@code Retry-After}
   */
  Grant of(ServerRequest request, boolean post) {
    Credentials credentials = Credentials.of(request.headers(), request.remotePeer().host());
    if (post && credentials.cookieBound()) {
      String origin = request.headers().first(HeaderNames.ORIGIN).orElse(null);
      if (!origins.admits(origin, request.headers().first(HeaderNames.HOST).orElse(null))) {
        throw new HttpRefusal(403, ErrorCode.X_ORIGIN_REFUSED,
            "A cookie-authenticated POST came from the foreign origin '" + origin + "'.",
            "Call from the app's own origin, add the origin to the node's allowed origins, or send a bearer token.");
      }
    }
    try {
      return AuthRefusedException.grant(authenticator, credentials, clock.millis(),
          "Send Authorization: Bearer <token> or the runnel_session cookie.");
    } catch (AuthRefusedException e) {
      throw new HttpRefusal(e.status(), e.retryAfterSeconds(), e.code(), e.cause(), e.fix());
    }
  }
}
