package io.runnel.sync.http.internal;

import io.runnel.dsl.Actor;
import io.runnel.sync.auth.Authenticator;
import io.runnel.sync.auth.Grant;
import java.util.Set;

/**
 * The authenticator port as the write tests use it: the token {@code user@org} (or {@code user@org+perm}) names the
 * actor outright, so each test reads who calls. The JWT authenticator is tested on its own.
 */
final class TestIdentities {

  private TestIdentities() {}

  static Authenticator authenticator() {
    return credentials -> {
      String token = credentials.token();
      if (token == null || !token.contains("@")) {
        return null;
      }
      String user = token.substring(0, token.indexOf('@'));
      String rest = token.substring(token.indexOf('@') + 1);
      String org = rest.contains("+") ? rest.substring(0, rest.indexOf('+')) : rest;
      Set<String> permissions = rest.contains("+") ? Set.of(rest.substring(rest.indexOf('+') + 1)) : Set.of();
      return new Grant(new Actor(user, org.isEmpty() ? null : org, Set.of(), permissions), Long.MAX_VALUE);
    };
  }
}
