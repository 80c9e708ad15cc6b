package io.runnel.example.testapp;

import io.runnel.dsl.Actor;
import io.runnel.sync.auth.Authenticator;
import io.runnel.sync.auth.Grant;

/**
 * The test app's sign-in: the bearer token {@code user@org} names the actor outright (user {@code user}, member of
 * org {@code org}), so a test or a demo page chooses who it is by its URL. It proves nothing about the caller: a real
 * app verifies a signed token ({@code io.runnel.sync.auth.JwtAuthenticator}).
 */
public final class TokenIdentities {

  private TokenIdentities() {}

  /**
   * The authenticator: a token {@code user@org} with both parts non-empty is that actor, for good; any other token,
   * or none (cookie mode), proves nobody, so the node answers {@code 401}.
   */
  public static Authenticator authenticator() {
    return credentials -> {
      String token = credentials.token();
      int at = token == null ? -1 : token.indexOf('@');
      if (token == null || at <= 0 || at == token.length() - 1 || token.indexOf('@', at + 1) >= 0) {
        return null;
      }
      return new Grant(Actor.user(token.substring(0, at)).inOrg(token.substring(at + 1)), Long.MAX_VALUE);
    };
  }
}
