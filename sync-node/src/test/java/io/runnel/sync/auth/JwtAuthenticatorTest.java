package io.runnel.sync.auth;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.sun.net.httpserver.HttpServer;
import io.runnel.testing.Tokens;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class JwtAuthenticatorTest {

  static final String SECRET = "0123456789abcdef0123456789abcdef-dev-only";
  static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  static String token(JWSSigner signer, JWSAlgorithm alg, String kid, JWTClaimsSet claims) throws Exception {
    return Tokens.sign(signer, alg, kid, claims);
  }

  static JWTClaimsSet.Builder claims() {
    return new JWTClaimsSet.Builder().subject("ada").claim("org_id", "acme").claim("roles", List.of("editor"))
        .claim("permissions", "feed:read feed:like").expirationTime(Date.from(NOW.plusSeconds(300)));
  }

  @Test
  void anHs256TokenMapsItsClaimsToAnActorUntilItExpires() throws Exception {
    JwtAuthenticator auth = JwtAuthenticator.hs256(SECRET).clock(CLOCK).build();
    Grant g = auth.authenticate(new Credentials(token(new MACSigner(SECRET.getBytes(StandardCharsets.UTF_8)),
        JWSAlgorithm.HS256, null, claims().build()), null, null));
    assertNotNull(g);
    assertAll(
        () -> assertEquals("ada", g.actor().id()),
        () -> assertEquals("acme", g.actor().orgId()),
        () -> assertEquals(Set.of("editor"), g.actor().roles()),
        () -> assertEquals(Set.of("feed:read", "feed:like"), g.actor().permissions()),
        () -> assertEquals(NOW.plusSeconds(300).toEpochMilli(), g.expiresAt()));
  }

  @Test
  void noTokenProvesNobodyAndAnExpiredOneAWrongSignatureAndAMissingExpAreRefusedAsNamed() throws Exception {
    JwtAuthenticator auth = JwtAuthenticator.hs256(SECRET).clock(CLOCK).build();
    MACSigner right = new MACSigner(SECRET.getBytes(StandardCharsets.UTF_8));
    MACSigner wrong = new MACSigner("another-secret-of-at-least-32-bytes!!".getBytes(StandardCharsets.UTF_8));
    assertAll(
        () -> assertNull(auth.authenticate(new Credentials(null, null, null))),
        () -> assertRefused(auth, "not.a.jwt", "not a JSON Web Token"),
        () -> assertRefused(auth, token(right, JWSAlgorithm.HS256, null,
            claims().expirationTime(Date.from(NOW.minusSeconds(60))).build()), "expired"),
        () -> assertRefused(auth, token(wrong, JWSAlgorithm.HS256, null, claims().build()),
            "signature does not verify"),
        () -> assertRefused(auth, token(right, JWSAlgorithm.HS256, null, claims().expirationTime(null).build()),
            "no exp"),
        () -> assertNotNull(auth.authenticate(new Credentials(null, token(right, JWSAlgorithm.HS256, null,
            claims().build()), null)), "the session cookie carries the same token"),
        () -> assertThrows(IllegalArgumentException.class, () -> JwtAuthenticator.hs256("short")));
  }

  /** {@link JwksSignInTest#refusal} (a 401 that never echoes the token), its cause naming {@code named}. */
  static void assertRefused(JwtAuthenticator auth, String token, String named) {
    String cause = JwksSignInTest.refusal(auth, token).cause();
    assertTrue(cause.contains(named), "expected '" + named + "' in: " + cause);
  }

  @Test
  void anUnknownKidRefetchesTheJwksOnceAndAnUnreachableJwksIsAFailureNotADenial() throws Exception {
    RSAKey first = new RSAKeyGenerator(2048).keyID("k1").generate();
    RSAKey second = new RSAKeyGenerator(2048).keyID("k2").generate();
    AtomicReference<JWKSet> published = new AtomicReference<>(new JWKSet(first.toPublicJWK()));
    AtomicInteger fetches = new AtomicInteger();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/jwks", ex -> {
      fetches.incrementAndGet();
      byte[] body = published.get().toString().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(200, body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    server.start();
    try {
      JwtAuthenticator auth = JwtAuthenticator.jwks(URI.create("http://127.0.0.1:" + server.getAddress().getPort()
          + "/jwks").toURL()).clock(CLOCK).build();
      assertNotNull(auth.authenticate(new Credentials(token(new RSASSASigner(first), JWSAlgorithm.RS256, "k1",
          claims().build()), null, null)));
      int before = fetches.get();
      published.set(new JWKSet(List.of(first.toPublicJWK(), second.toPublicJWK())));
      Grant rotated = auth.authenticate(new Credentials(token(new RSASSASigner(second), JWSAlgorithm.RS256, "k2",
          claims().build()), null, null));
      assertAll(
          () -> assertNotNull(rotated, "the new kid was found after one refetch"),
          () -> assertEquals(before + 1, fetches.get(), "exactly one refetch"));
    } finally {
      server.stop(0);
    }
    JwtAuthenticator unreachable = JwtAuthenticator.jwks(URI.create("http://127.0.0.1:1/jwks").toURL())
        .clock(CLOCK).build();
    String t = token(new RSASSASigner(first), JWSAlgorithm.RS256, "k1", claims().build());
    assertThrows(KeySourceException.class, () -> unreachable.authenticate(new Credentials(t, null, null)),
        "503, not 401: the authenticator cannot decide");
  }
}
