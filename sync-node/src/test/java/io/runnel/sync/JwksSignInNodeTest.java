package io.runnel.sync;

import static io.runnel.dsl.Dsl.asc;
import static io.runnel.dsl.Dsl.select;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.JwksServer;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.testing.Tokens;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A node signing users in with an identity provider's JWKS: a refused token is answered as named, with the same code
 * and cause, over HTTP ({@code POST /v1/tickets}) and at the socket upgrade, a provider that is down is a 503 at
 * both, and neither touches a socket already open.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JwksSignInNodeTest {

  static final String ISSUER = "https://idp.example.com/";
  static final String AUDIENCE = "runnel-board";
  static final EntityRef NOTES = EntityRef.of("notes").key("id").columns(c -> c.int4("id").text("org"));
  static final Entity NOTES_ENTITY = Entity.of(NOTES).table("public.notes").tenant("org");
  static final QueryRef<NoInput> ALL = QueryRef.live("notes", NoInput.CODEC, in -> select(NOTES).orderBy(asc("id")));

  final HttpClient http = HttpClient.newHttpClient();
  JwksServer idp;
  RSAKey key;
  LiveFixtureAccess fixture;
  SyncNode node;

  @BeforeAll
  void start(TestDatabase db) throws Exception {
    db.execute("CREATE TABLE notes (id int PRIMARY KEY, org text)");
    idp = JwksServer.start();
    key = idp.rsa("k1");
    fixture = LiveFixtureAccess.start(db, "jwks", List.of(NOTES_ENTITY));
    node = startNode();
  }

  /** A started node on the fixture, signing users in with the provider's keys, its issuer and audience. */
  SyncNode startNode() {
    SyncNode n = SyncNode.builder()
        .declarations(Declarations.builder().query(Query.of(ALL).on(NOTES_ENTITY).policy(Policy.authenticated()))
            .build())
        .transport(fixture.bus()).dataSource(fixture.pool())
        .authenticator(JwtAuthenticator.jwks(idp.url(), "RS256").issuer(ISSUER).audience(AUDIENCE).build())
        .listen("127.0.0.1", 0).build();
    n.start();
    return n;
  }

  @AfterAll
  void stop() {
    node.stop();
    fixture.close();
    idp.close();
  }

  // nimbus-jose-jwt's claims take times as java.util.Date.
  @SuppressWarnings("JavaUtilDate")
  static JWTClaimsSet.Builder claims() {
    return new JWTClaimsSet.Builder().subject("ada").claim("org_id", "acme").issuer(ISSUER).audience(AUDIENCE)
        .expirationTime(Date.from(Instant.now().plusSeconds(300)));
  }

  HttpResponse<String> ticket(String token) throws Exception {
    return ticket(node, token);
  }

  HttpResponse<String> ticket(SyncNode to, String token) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + to.port() + "/v1/tickets"))
        .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static String str(JsonObject o, String field) {
    return ((JsonString) o.get(field)).value();
  }

  @Test
  // nimbus-jose-jwt's claims take times as java.util.Date.
  @SuppressWarnings("JavaUtilDate")
  void aRefusedTokenIsAnsweredAsNamedOverHttpAndAtTheUpgradeAndAnOpenSocketIsUntouched() throws Exception {
    ProtocolClient<JsonObject> open = Sockets.open(node.port(),
        Map.of("Authorization", "Bearer " + JwksServer.sign(key, JWSAlgorithm.RS256, claims().build())));
    open.send("{\"t\":\"hello\",\"v\":1}");
    assertEquals("ada", str(open.next(), "actor"));

    Map<String, String> cases = Map.of(
        JwksServer.sign(key, JWSAlgorithm.RS256, claims().issuer("https://evil.example/").build()),
        "iss (issuer) is not " + ISSUER,
        JwksServer.sign(key, JWSAlgorithm.RS256, claims().audience("other").build()),
        "aud (audience) does not name " + AUDIENCE,
        JwksServer.sign(key, JWSAlgorithm.RS256, claims().expirationTime(Date.from(Instant.now().minusSeconds(60)))
            .build()), "expired at",
        Tokens.sign(new MACSigner(key.toRSAPublicKey().getEncoded()), JWSAlgorithm.HS256, "k1", claims().build()),
        "signed with HS256; this node accepts RS256 only",
        JwksServer.sign(new ECKeyGenerator(Curve.P_256).keyID("k1").generate(), JWSAlgorithm.ES256, claims().build()),
        "signed with ES256; this node accepts RS256 only",
        new PlainJWT(claims().build()).serialize(), "not signed");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      HttpResponse<String> overHttp = ticket(c.getKey());
      RawSocket.Upgrade upgrade = RawSocket.attempt(node.port(), Map.of("Authorization", "Bearer " + c.getKey()), 0);
      JsonObject httpBody = (JsonObject) Json.parse(overHttp.body());
      JsonObject upgradeBody = (JsonObject) Json.parse(upgrade.body());
      assertAll(
          () -> assertEquals(401, overHttp.statusCode(), overHttp.body()),
          () -> assertEquals("X_SOCKET_UNAUTHENTICATED", str(httpBody, "code")),
          () -> assertTrue(str(httpBody, "cause").contains(c.getValue()), overHttp.body()),
          () -> assertFalse(overHttp.body().contains(c.getKey()), "the token is never echoed"),
          () -> assertEquals(401, upgrade.status(), upgrade.body()),
          () -> assertEquals("X_SOCKET_UNAUTHENTICATED", str(upgradeBody, "code")),
          () -> assertEquals(str(httpBody, "cause"), str(upgradeBody, "cause"), "one decision, one cause"));
    }

    HttpResponse<String> good = ticket(JwksServer.sign(key, JWSAlgorithm.RS256, claims().subject("ben").build()));
    open.send("{\"t\":\"hello\",\"v\":1}");
    JsonObject stillUp = open.next();
    assertAll(
        () -> assertEquals(200, good.statusCode(), good.body()),
        () -> assertEquals("hello", str(stillUp, "t"), "the open socket kept going through every refusal"),
        () -> assertEquals("ada", str(stillUp, "actor")));
    open.close();
  }

  @Test
  void aProviderThatIsDownIsA503AtBothAndAKeyTheNodeHoldsStillSignsIn() throws Exception {
    // A node of its own, so that its key cache and refetch budget are this test's alone.
    SyncNode cold = startNode();
    try {
      HttpResponse<String> first = ticket(cold, JwksServer.sign(key, JWSAlgorithm.RS256, claims().build()));
      // A key the node has not seen makes it fetch the JWKS again, which is down now.
      String rotated = JwksServer.sign(idp.rsa("k2"), JWSAlgorithm.RS256, claims().build());
      idp.down(true);
      HttpResponse<String> overHttp;
      RawSocket.Upgrade upgrade;
      try {
        overHttp = ticket(cold, rotated);
        upgrade = RawSocket.attempt(cold.port(), Map.of("Authorization", "Bearer " + rotated), 0);
      } finally {
        idp.down(false);
      }
      HttpResponse<String> held = ticket(cold, JwksServer.sign(key, JWSAlgorithm.RS256, claims().build()));
      assertAll(
          () -> assertEquals(200, first.statusCode(), first.body()),
          () -> assertEquals(503, overHttp.statusCode(), overHttp.body()),
          () -> assertTrue(overHttp.body().contains("X_SOCKET_AUTH_UNAVAILABLE"), overHttp.body()),
          () -> assertTrue(overHttp.headers().firstValue("Retry-After").isPresent(), "with Retry-After"),
          () -> assertEquals(503, upgrade.status(), "the refetch the rate limit holds back cannot decide either: "
              + upgrade.body()),
          () -> assertTrue(upgrade.body().contains("X_SOCKET_AUTH_UNAVAILABLE"), upgrade.body()),
          () -> assertEquals(200, held.statusCode(), "a key the node holds still signs in: " + held.body()));
    } finally {
      cold.stop();
    }
  }
}
