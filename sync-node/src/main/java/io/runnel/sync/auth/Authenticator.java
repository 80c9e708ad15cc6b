package io.runnel.sync.auth;

import org.jspecify.annotations.Nullable;

/**
 * Decides who a request is, before a socket exists, and again while it lives. {@link #authenticate} answers a
 * {@link Grant}; null when the credentials prove nobody ({@code 401 X_SOCKET_UNAUTHENTICATED}), or throws
 * {@link AuthRefusedException#unauthenticated} to refuse them with a cause that names why; throws anything else when
 * it cannot decide now, for example when its key source is unreachable ({@code 503 X_SOCKET_AUTH_UNAVAILABLE} with
 * {@code Retry-After}). {@link #refresh} re-decides an open socket's grant ({@code docs/auth.md}, "Identity over
 * time").
 */
@FunctionalInterface
public interface Authenticator {

  /**
   * The grant for {@code credentials}, or null.
   *
   * @throws AuthRefusedException from {@link AuthRefusedException#unauthenticated}: the credentials prove nobody, for
   *     the reason its cause names (a 401 like null, with that cause)
   * @throws Exception anything else when the authenticator cannot decide now (a 503)
   */
  @Nullable Grant authenticate(Credentials credentials) throws Exception;

  /**
   * The grant {@code current} holds when decided again now, or null when this authenticator cannot re-decide it. The
   * node calls it for each open socket on an interval ({@code SyncNode.Builder.grantCheck}, default 30 s) and at the
   * grant's {@code expiresAt}, from a thread of its own (never a socket's reader or a window's lane), so it may do
   * I/O, such as reading the actor's roles from the app's database or asking a session store.
   *
   * <p>The answer decides the socket:
   * <ul>
   *   <li>a grant for the same actor id, not yet expired: the socket keeps going under it. When its actor differs
   *       from the current one (org, roles or permissions changed), every subscription and topic is decided again
   *       for the new actor: the ones its policies now refuse end with {@code refuse}, the others are answered with a
   *       fresh {@code snapshot}. When it is the same actor, nothing is sent.</li>
   *   <li>a grant that names another actor id, or that has already expired (the way to revoke a socket at once):
   *       the socket is closed with 1008.</li>
   *   <li>null: the current grant holds until its {@code expiresAt}; past it the socket is closed with 1008, and the
   *       client reconnects with fresh credentials.</li>
   *   <li>an exception: the socket keeps its current grant and the node asks again at the next check; a grant that
   *       has expired meanwhile is kept for at most the node's grace ({@code SyncNode.Builder.grantGrace}, default
   *       60 s) past its {@code expiresAt}, then closed with 1008.</li>
   * </ul>
   *
   * <p>The default answers null: a grant lives until its {@code expiresAt}. A socket opened with a ticket holds the
   * grant of the credentials the ticket was issued for, with their expiry.
   *
   * @param current the grant the socket holds now (its actor, and when it expires, epoch ms)
   * @throws Exception when the authenticator cannot decide now
   */
  default @Nullable Grant refresh(Grant current) throws Exception {
    return null;
  }
}
