package io.runnel.sync.auth;

import io.runnel.wire.Nullable;

/**
 * Decides who a request is, before a socket exists. Answers a {@link Grant}; null when the credentials prove
 * nobody ({@code 401 X_SOCKET_UNAUTHENTICATED}); throws when it cannot decide now, for example when its key source
 * is unreachable ({@code 503 X_SOCKET_AUTH_UNAVAILABLE} with {@code Retry-After}).
 */
@FunctionalInterface
public interface Authenticator {

  /**
   * The grant for {@code credentials}, or null.
   *
   * @throws Exception when the authenticator cannot decide now
   */
  @Nullable Grant authenticate(Credentials credentials) throws Exception;
}
