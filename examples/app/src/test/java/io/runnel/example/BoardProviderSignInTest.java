package io.runnel.example;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import io.runnel.server.AllRole;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.JwksServer;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The board signing users in with an identity provider ({@code RUNNEL_JWKS_URL}) while in development mode, as
 * {@code ./runnel run} would: tokens are checked against the provider's keys, issuer and audience, the org comes from
 * a nested claim, and the development sign-in does not exist.
 */
@FreshDatabase
class BoardProviderSignInTest {

  static final String ISSUER = "https://board.eu.auth0.example/";
  static final String AUDIENCE = "https://board.example.com";

  // nimbus-jose-jwt's claims take times as java.util.Date.
  @SuppressWarnings("JavaUtilDate")
  static JWTClaimsSet.Builder claims(String user, String org) {
    return new JWTClaimsSet.Builder().subject(user).claim("app_metadata", Map.of("org", org)).issuer(ISSUER)
        .audience(AUDIENCE).expirationTime(Date.from(Instant.now().plusSeconds(600)));
  }

  @Test
  void aProvidersTokenSignsInTheDevSignInIsAnUnknownRouteAndAWrongAudienceIsRefusedAsNamed(TestDatabase db)
      throws Exception {
    try (JwksServer idp = JwksServer.start()) {
      RSAKey key = idp.rsa("board-1");
      try (AllRole app = BoardHttp.start(BoardHttp.env(db, "RUNNEL_DEV", "true",
          "RUNNEL_JWKS_URL", idp.url().toString(), "RUNNEL_JWT_ISSUER", ISSUER, "RUNNEL_JWT_AUDIENCE", AUDIENCE,
          "RUNNEL_JWT_ORG_CLAIM", "app_metadata.org"))) {
        BoardHttp http = new BoardHttp(app.port());
        BoardHttp.Answer devSignIn = http.signIn("{\"user\":\"ada\"}");
        String token = JwksServer.sign(key, JWSAlgorithm.RS256, claims("ada", "acme").build());
        BoardHttp.Answer ticket = http.ticket(token);
        BoardHttp.Answer wrongAudience = http.ticket(JwksServer.sign(key, JWSAlgorithm.RS256,
            claims("ada", "acme").audience("https://other.example.com").build()));
        ProtocolClient<BoardFrame> socket = BoardFrame.socket(app.port(), token);
        socket.send("{\"t\":\"hello\",\"v\":1}");
        BoardFrame hello = socket.next();
        socket.close();
        assertAll(
            () -> assertEquals(404, devSignIn.status(), String.valueOf(devSignIn.body())),
            () -> assertEquals("X_ROUTE_UNKNOWN", devSignIn.code(), "the route does not exist with a provider"),
            () -> assertEquals(200, ticket.status(), String.valueOf(ticket.body())),
            () -> assertEquals(401, wrongAudience.status()),
            () -> assertEquals("X_SOCKET_UNAUTHENTICATED", wrongAudience.code()),
            () -> assertTrue(String.valueOf(wrongAudience.body()).contains("aud (audience) does not name " + AUDIENCE),
                String.valueOf(wrongAudience.body())),
            () -> assertEquals("hello", hello.t()),
            () -> assertEquals("ada", hello.text("actor"), "the provider's user, at the socket"));
      }
    }
  }
}
