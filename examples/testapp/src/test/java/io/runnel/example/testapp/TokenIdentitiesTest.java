package io.runnel.example.testapp;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.runnel.sync.auth.Authenticator;
import io.runnel.sync.auth.Credentials;
import io.runnel.sync.auth.Grant;
import org.junit.jupiter.api.Test;

/** The test app's sign-in: {@code user@org} is that actor; anything else proves nobody. */
class TokenIdentitiesTest {

  static final Authenticator AUTH = TokenIdentities.authenticator();

  static Grant grant(String token) throws Exception {
    return AUTH.authenticate(new Credentials(token, null, "127.0.0.1"));
  }

  @Test
  void userAtOrgIsThatUserInThatOrg() throws Exception {
    Grant g = grant("ada@acme");
    assertAll(
        () -> assertEquals("ada", g.actor().id()),
        () -> assertEquals("acme", g.actor().orgId()),
        () -> assertEquals(Long.MAX_VALUE, g.expiresAt()));
  }

  @Test
  void aTokenThatIsNotUserAtOrgProvesNobody() throws Exception {
    assertAll(
        () -> assertNull(grant("ada"), "no org"),
        () -> assertNull(grant("@acme"), "no user"),
        () -> assertNull(grant("ada@"), "an empty org"),
        () -> assertNull(grant("ada@acme@globex"), "two orgs"),
        () -> assertNull(AUTH.authenticate(new Credentials(null, null, "127.0.0.1")), "no token at all"));
  }
}
