package io.runnel.sync.auth;

import io.runnel.sync.log.internal.LogContext;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import java.lang.System.Logger.Level;
import java.util.UUID;

/**
 * Credentials that prove nobody ({@code 401 X_SOCKET_UNAUTHENTICATED}) or an authenticator that could not decide
 * ({@code 503 X_SOCKET_AUTH_UNAVAILABLE}, retry after 5 s): the one decision the socket upgrade and the HTTP routes
 * share ({@link #grant}), each answering it in its own way.
 */
public final class AuthRefusedException extends RunnelException {

  private static final long serialVersionUID = 1L;
  private static final System.Logger LOG = System.getLogger(AuthRefusedException.class.getName());

  private final int status;
  private final int retryAfterSeconds;

  private AuthRefusedException(int status, int retryAfterSeconds, ErrorCode code, String cause, String fix) {
    super(code, cause, fix);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /**
   * The grant {@code authenticator} gives {@code credentials}, valid at {@code nowMillis}.
   *
   * @param fix what a refused caller should send (the socket also takes a ticket)
   * @throws AuthRefusedException 401 when the credentials prove nobody or the grant has expired, or the refusal the
   *     authenticator threw itself (whose cause names the check that failed); 503 when the authenticator throws
   *     anything else, whose exception is logged under a new error id that the cause names (its text, a key
   *     server's address or a credential, never reaches the client)
   */
  public static Grant grant(Authenticator authenticator, Credentials credentials, long nowMillis, String fix) {
    Grant grant;
    try {
      grant = authenticator.authenticate(credentials);
    } catch (AuthRefusedException e) {
      throw e;
    } catch (Exception e) {
      throw unavailable(e);
    }
    if (grant == null || grant.expiresAt() <= nowMillis) {
      throw unauthenticated(credentials.token() == null ? "The request carried no credentials."
          : "The request's credentials are not valid.", fix);
    }
    return grant;
  }

  /** The refusal for credentials that prove nobody or a grant that has expired ({@code 401}). */
  public static AuthRefusedException unauthenticated(String cause, String fix) {
    return new AuthRefusedException(401, 0, ErrorCode.X_SOCKET_UNAUTHENTICATED, cause, fix);
  }

  /**
   * The refusal for a decision that could not be made now ({@code 503 X_SOCKET_AUTH_UNAVAILABLE}, retry after 5 s):
   * {@code e} is logged under a new error id that the cause names.
   */
  public static AuthRefusedException unavailable(Exception e) {
    String errorId = UUID.randomUUID().toString();
    LogContext.logFailure(LOG, Level.WARNING, errorId, "the authenticator could not decide", e);
    return new AuthRefusedException(503, 5, ErrorCode.X_SOCKET_AUTH_UNAVAILABLE,
        "The authenticator could not decide now; the node's log has the details under errorId " + errorId + ".",
        "Retry after a few seconds.");
  }

  /** 401 or 503. */
  public int status() {
    return status;
  }

  /** {@code Retry-After} in seconds, or 0 for none. */
  public int retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
