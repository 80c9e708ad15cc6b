package io.runnel.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real identity provider's key endpoint for tests: a JWKS (RFC 7517) served over HTTP on 127.0.0.1, with keys the
 * test makes and signs tokens with, a count of fetches, and a switch that makes it answer {@code 503}.
 *
 * <pre>{@code
 * try (JwksServer idp = JwksServer.start()) {
 *   RSAKey key = idp.rsa("k1");
 *   JwtAuthenticator auth = JwtAuthenticator.jwks(idp.url(), "RS256").build();
 *   String token = idp.sign(key, JWSAlgorithm.RS256, claims);
 * }
 * }</pre>
 */
public final class JwksServer implements AutoCloseable {

  private final HttpServer server;
  private final List<JWK> published = new CopyOnWriteArrayList<>();
  private final AtomicInteger fetches = new AtomicInteger();
  private final AtomicBoolean down = new AtomicBoolean();

  private JwksServer(HttpServer server) {
    this.server = server;
  }

  /**
   * Starts an endpoint at {@code http://127.0.0.1:<free port>/.well-known/jwks.json} publishing no key yet.
   *
   * @throws UncheckedIOException when no port can be bound
   */
  public static JwksServer start() {
    HttpServer http;
    try {
      http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    JwksServer jwks = new JwksServer(http);
    http.createContext("/.well-known/jwks.json", exchange -> {
      jwks.fetches.incrementAndGet();
      boolean failing = jwks.down.get();
      byte[] body = (failing ? "{\"error\":\"unavailable\"}" : new JWKSet(List.copyOf(jwks.published)).toString())
          .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(failing ? 503 : 200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    http.start();
    return jwks;
  }

  /** The JWKS URL. */
  public URL url() {
    try {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/.well-known/jwks.json").toURL();
    } catch (MalformedURLException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A new RSA key (2048 bits) under {@code kid}, its public half published from now on.
   *
   * @throws IllegalStateException when the JDK cannot make one
   */
  public RSAKey rsa(String kid) {
    try {
      RSAKey key = new RSAKeyGenerator(2048).keyID(kid).generate();
      published.add(key.toPublicJWK());
      return key;
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A new EC key on P-256 under {@code kid}, its public half published from now on.
   *
   * @throws IllegalStateException when the JDK cannot make one
   */
  public ECKey ec(String kid) {
    try {
      ECKey key = new ECKeyGenerator(Curve.P_256).keyID(kid).generate();
      published.add(key.toPublicJWK());
      return key;
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A key made elsewhere, its public half published from now on (a rotation, a key of another type). */
  public void publish(JWK key) {
    published.add(key.toPublicJWK());
  }

  /** The keys published now, public halves. */
  public List<JWK> keys() {
    return new ArrayList<>(published);
  }

  /**
   * {@code claims} signed by {@code key} with {@code alg}, the header naming the key's id.
   *
   * @throws IllegalStateException when the key cannot sign with {@code alg}
   */
  public static String sign(JWK key, JWSAlgorithm alg, JWTClaimsSet claims) {
    try {
      return Tokens.sign(key instanceof ECKey ec ? new ECDSASigner(ec) : new RSASSASigner((RSAKey) key), alg,
          key.getKeyID(), claims);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** How many times the JWKS was fetched (each request, answered or failed). */
  public int fetches() {
    return fetches.get();
  }

  /** Makes the endpoint answer {@code 503} ({@code true}) or the keys again ({@code false}). */
  public void down(boolean failing) {
    down.set(failing);
  }

  /** Stops the server. */
  @Override
  public void close() {
    server.stop(0);
  }
}
