package io.runnel.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Signed JWTs for tests, the one token maker of the test sources (nimbus-jose-jwt; the module declares it).
 *
 * <pre>{@code
 * String token = Tokens.hs256(SECRET).subject("ada").org("acme").permissions(List.of("feed:read")).sign();
 * String expiring = Tokens.hs256(SECRET).subject("ada").org("acme").expiresAt(clock.instant().plusSeconds(60)).sign();
 * String rs256 = Tokens.sign(new RSASSASigner(key), JWSAlgorithm.RS256, "k1", claims);
 * }</pre>
 *
 * <p>The claims are those Runnel reads ({@code docs/auth.md}): {@code sub}, {@code org_id}, {@code roles},
 * {@code permissions}, {@code exp}.
 */
public final class Tokens {

  private Tokens() {}

  /**
   * A token signed with HMAC-SHA256 under {@code secret} (its UTF-8 bytes, at least 32 of them), expiring ten
   * minutes from now unless told otherwise.
   */
  public static Builder hs256(String secret) {
    return new Builder(Objects.requireNonNull(secret, "secret"));
  }

  /**
   * {@code claims} signed by {@code signer} with {@code alg}, its header naming key {@code kid} (none when null).
   *
   * @throws IllegalStateException when the signer refuses (a key too short for the algorithm)
   */
  public static String sign(JWSSigner signer, JWSAlgorithm alg, @Nullable String kid, JWTClaimsSet claims) {
    Objects.requireNonNull(signer, "signer");
    Objects.requireNonNull(alg, "alg");
    Objects.requireNonNull(claims, "claims");
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(kid).build(), claims);
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException("The test token could not be signed: " + e.getMessage(), e);
    }
    return jwt.serialize();
  }

  /** The claims of one HS256 token. */
  public static final class Builder {
    private final String secret;
    private final JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder();
    private Instant expiresAt = Instant.now().plus(Duration.ofMinutes(10));

    private Builder(String secret) {
      this.secret = secret;
    }

    /** {@code sub}: the actor's id. */
    public Builder subject(@Nullable String subject) {
      claims.subject(subject);
      return this;
    }

    /** {@code org_id}: the actor's org (no claim when null). */
    public Builder org(@Nullable String org) {
      claims.claim("org_id", org);
      return this;
    }

    /** {@code roles}, as a JSON array. */
    public Builder roles(List<String> roles) {
      claims.claim("roles", List.copyOf(roles));
      return this;
    }

    /** {@code permissions}, as a JSON array. */
    public Builder permissions(List<String> permissions) {
      claims.claim("permissions", List.copyOf(permissions));
      return this;
    }

    /** Any other claim ({@code value} a string, number, boolean, list or map, as nimbus writes them). */
    public Builder claim(String name, @Nullable Object value) {
      claims.claim(Objects.requireNonNull(name, "name"), value);
      return this;
    }

    /** {@code exp}: when the token expires (second precision on the wire); ten minutes from now by default. */
    public Builder expiresAt(Instant instant) {
      this.expiresAt = Objects.requireNonNull(instant, "instant");
      return this;
    }

    /** The signed token, compact-serialized. */
    // nimbus-jose-jwt's claims take times as java.util.Date.
    @SuppressWarnings("JavaUtilDate")
    public String sign() {
      try {
        JWSSigner signer = new MACSigner(secret.getBytes(StandardCharsets.UTF_8));
        return Tokens.sign(signer, JWSAlgorithm.HS256, null, claims.expirationTime(Date.from(expiresAt)).build());
      } catch (JOSEException e) {
        throw new IllegalStateException("The test secret is too short for HS256: " + e.getMessage(), e);
      }
    }
  }
}
