package io.runnel.sync.auth;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import io.runnel.testing.JwksServer;
import io.runnel.testing.Tokens;
import io.runnel.wire.ErrorCode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Sign-in with a real identity provider's keys: a JWKS served over HTTP by the test, RS256 and ES256 each pinned, the
 * issuer and audience checked, and every refusal a 401 whose cause names the check that failed, never the token.
 */
class JwksSignInTest {

  static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");
  static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  static final String ISSUER = "https://idp.example.com/";
  static final String AUDIENCE = "runnel-board";

  JwksServer idp;
  RSAKey rsa;
  ECKey ec;

  @BeforeEach
  void start() {
    idp = JwksServer.start();
    rsa = idp.rsa("r1");
    ec = idp.ec("e1");
  }

  @AfterEach
  void stop() {
    idp.close();
  }

  JwtAuthenticator pinned(String algorithm) {
    return JwtAuthenticator.jwks(idp.url(), algorithm).clock(CLOCK).issuer(ISSUER).audience(AUDIENCE).build();
  }

  // nimbus-jose-jwt's claims take times as java.util.Date.
  @SuppressWarnings("JavaUtilDate")
  static JWTClaimsSet.Builder claims() {
    return new JWTClaimsSet.Builder().subject("ada").claim("org_id", "acme").issuer(ISSUER).audience(AUDIENCE)
        .expirationTime(Date.from(NOW.plusSeconds(300)));
  }

  static Credentials bearer(String token) {
    return new Credentials(token, null, null);
  }

  /** The refusal {@code auth} answers {@code token} with, checked to be a 401 that does not echo the token. */
  static AuthRefusedException refusal(JwtAuthenticator auth, String token) {
    AuthRefusedException e = assertThrows(AuthRefusedException.class, () -> auth.authenticate(bearer(token)));
    List<Executable> checks = new ArrayList<>(List.of(
        () -> assertEquals(401, e.status()),
        () -> assertEquals(ErrorCode.X_SOCKET_UNAUTHENTICATED, e.code()),
        () -> assertFalse(e.cause().contains(token), "the cause never holds the token")));
    for (String part : token.split("\\.")) {
      if (part.length() > 8) {
        checks.add(() -> assertFalse(e.cause().contains(part) || e.fix().contains(part), "nor any part of it"));
      }
    }
    assertAll(checks);
    return e;
  }

  @Test
  void rs256AndEs256TokensAreAcceptedUnderTheirPins() throws Exception {
    Grant rs = pinned("RS256").authenticate(bearer(JwksServer.sign(rsa, JWSAlgorithm.RS256, claims().build())));
    Grant es = pinned("ES256").authenticate(bearer(JwksServer.sign(ec, JWSAlgorithm.ES256, claims().build())));
    assertNotNull(rs);
    assertNotNull(es);
    assertAll(
        () -> assertEquals("ada", rs.actor().id()),
        () -> assertEquals("acme", rs.actor().orgId()),
        () -> assertEquals(NOW.plusSeconds(300).toEpochMilli(), rs.expiresAt()),
        () -> assertEquals("ada", es.actor().id()),
        () -> assertEquals("RS256", pinned("RS256").algorithm()),
        () -> assertEquals("ES256", pinned("ES256").algorithm()));
  }

  @Test
  // nimbus-jose-jwt's claims take times as java.util.Date.
  @SuppressWarnings("JavaUtilDate")
  void eachBadTokenIsRefusedWithTheCheckItFailedNamed() throws Exception {
    JwtAuthenticator auth = pinned("RS256");
    RSAKey stranger = new RSAKeyGenerator(2048).keyID("r1").generate();
    RSAKey posingAsEc = new RSAKeyGenerator(2048).keyID("e1").generate();
    byte[] publicKey = rsa.toRSAPublicKey().getEncoded();
    Map<String, String> cases = Map.ofEntries(
        Map.entry(JwksServer.sign(ec, JWSAlgorithm.ES256, claims().build()),
            "signed with ES256; this node accepts RS256 only"),
        Map.entry(new PlainJWT(claims().build()).serialize(), "not signed"),
        Map.entry(Tokens.sign(new MACSigner(publicKey), JWSAlgorithm.HS256, "r1", claims().build()),
            "signed with HS256; this node accepts RS256 only"),
        Map.entry(JwksServer.sign(rsa, JWSAlgorithm.RS256, claims().issuer("https://evil.example/").build()),
            "iss (issuer) is not " + ISSUER),
        Map.entry(JwksServer.sign(rsa, JWSAlgorithm.RS256, claims().audience("another-app").build()),
            "aud (audience) does not name " + AUDIENCE),
        Map.entry(JwksServer.sign(rsa, JWSAlgorithm.RS256, claims().expirationTime(Date.from(NOW.minusSeconds(60)))
            .build()), "expired at 2026-12-04T11:59:00Z"),
        Map.entry(JwksServer.sign(rsa, JWSAlgorithm.RS256, claims().expirationTime(null).build()), "no exp"),
        Map.entry(JwksServer.sign(rsa, JWSAlgorithm.RS256, claims().notBeforeTime(Date.from(NOW.plusSeconds(600)))
            .build()), "not valid before"),
        Map.entry(JwksServer.sign(rsa, JWSAlgorithm.RS256, claims().subject(null).build()), "no sub claim"),
        Map.entry(JwksServer.sign(stranger, JWSAlgorithm.RS256, claims().build()), "signature does not verify"),
        Map.entry(JwksServer.sign(posingAsEc, JWSAlgorithm.RS256, claims().build()),
            "No key of the identity provider matches"),
        Map.entry("not.a.jwt", "not a JSON Web Token"));
    List<Executable> checks = new ArrayList<>();
    cases.forEach((token, named) -> checks.add(() -> {
      String cause = refusal(auth, token).cause();
      assertTrue(cause.contains(named), "expected '" + named + "' in: " + cause);
    }));
    assertAll(checks);
    assertNull(auth.authenticate(new Credentials(null, null, null)), "no credentials prove nobody, as before");
  }

  @Test
  void anHs256PinRefusesAnRs256TokenAndTheBuildersRefuseWhatCannotBePinned() throws Exception {
    JwtAuthenticator hs = JwtAuthenticator.hs256("0123456789abcdef0123456789abcdef-test-only").clock(CLOCK).build();
    String cause = refusal(hs, JwksServer.sign(rsa, JWSAlgorithm.RS256, claims().build())).cause();
    assertAll(
        () -> assertTrue(cause.contains("signed with RS256; this node accepts HS256 only"), cause),
        () -> assertEquals("HS256", hs.algorithm()),
        () -> assertThrows(IllegalArgumentException.class, () -> JwtAuthenticator.jwks(idp.url(), "HS256")),
        () -> assertThrows(IllegalArgumentException.class, () -> JwtAuthenticator.jwks(idp.url(), "none")),
        () -> assertThrows(IllegalArgumentException.class,
            () -> JwtAuthenticator.jwks(idp.url(), "RS256").skew(Duration.ofSeconds(-1))));
  }

  @Test
  void anUnknownKidIsFetchedForOnceThenRefusedAndADownProviderIsUnavailableNotARefusal() throws Exception {
    JwtAuthenticator auth = pinned("RS256");
    assertNotNull(auth.authenticate(bearer(JwksServer.sign(rsa, JWSAlgorithm.RS256, claims().build()))));
    int afterFirst = idp.fetches();
    RSAKey unknown = new RSAKeyGenerator(2048).keyID("r9").generate();
    String cause = refusal(auth, JwksServer.sign(unknown, JWSAlgorithm.RS256, claims().build())).cause();
    int afterRefetch = idp.fetches();
    String again = refusal(auth, JwksServer.sign(unknown, JWSAlgorithm.RS256, claims().build())).cause();
    assertAll(
        () -> assertEquals(1, afterFirst, "the first token fetched the keys"),
        () -> assertEquals(2, afterRefetch, "the unknown kid fetched them once more"),
        () -> assertTrue(cause.contains("No key of the identity provider matches"), cause),
        () -> assertEquals(2, idp.fetches(), "a second unknown kid within 10 s fetches nothing"),
        () -> assertTrue(again.contains("fetched again less than 10 s ago"), again));

    JwtAuthenticator cold = pinned("RS256");
    idp.down(true);
    assertThrows(KeySourceException.class,
        () -> cold.authenticate(bearer(JwksServer.sign(rsa, JWSAlgorithm.RS256, claims().build()))),
        "a provider that is down cannot decide: 503, not 401");
  }

  @Test
  void theOrgIsReadFromANestedPathOrANamespacedClaimAndATokenWithoutOneIsAnActorWithNoOrg() throws Exception {
    JwtAuthenticator nested = JwtAuthenticator.jwks(idp.url(), "RS256").clock(CLOCK).orgClaim("app_metadata.org")
        .build();
    JwtAuthenticator namespaced = JwtAuthenticator.jwks(idp.url(), "RS256").clock(CLOCK)
        .orgClaim("https://board.example.com/org").build();
    Grant supabase = nested.authenticate(bearer(JwksServer.sign(rsa, JWSAlgorithm.RS256, claims()
        .claim("app_metadata", Map.of("org", "north", "plan", "pro")).build())));
    Grant none = nested.authenticate(bearer(JwksServer.sign(rsa, JWSAlgorithm.RS256, claims().build())));
    Grant auth0 = namespaced.authenticate(bearer(JwksServer.sign(rsa, JWSAlgorithm.RS256, claims()
        .claim("https://board.example.com/org", "south").build())));
    String wrongType = refusal(nested, JwksServer.sign(rsa, JWSAlgorithm.RS256, claims()
        .claim("app_metadata", Map.of("org", 7)).build())).cause();
    assertNotNull(supabase);
    assertNotNull(none);
    assertNotNull(auth0);
    assertAll(
        () -> assertEquals("north", supabase.actor().orgId()),
        () -> assertNull(none.actor().orgId(), "no org claim: an actor with no org"),
        () -> assertEquals("south", auth0.actor().orgId()),
        () -> assertTrue(wrongType.contains("app_metadata.org (the org) is not a string"), wrongType));
  }
}
