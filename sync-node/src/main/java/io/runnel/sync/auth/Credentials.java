package io.runnel.sync.auth;

import io.runnel.wire.Nullable;

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
}
