package io.runnel.sync.auth;

import java.lang.System.Logger.Level;
import java.util.UUID;

/** The answer to an authenticator that could not decide ({@code 503 X_SOCKET_AUTH_UNAVAILABLE}). */
public final class AuthUnavailable {

  private static final System.Logger LOG = System.getLogger(AuthUnavailable.class.getName());

  private AuthUnavailable() {}

  /**
   * The refusal's cause: the authenticator's exception is logged under a new error id, which the cause names; its
   * text (a key server's address, a credential) never reaches the client.
   */
  public static String cause(Exception e) {
    String errorId = UUID.randomUUID().toString();
    LOG.log(Level.WARNING, "errorId=" + errorId + ": the authenticator could not decide", e);
    return "The authenticator could not decide now; the node's log has the details under errorId " + errorId + ".";
  }
}
