package io.runnel.sync.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.runnel.dsl.Actor;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An {@link Authenticator} for JSON Web Tokens (RFC 7519) with nimbus-jose-jwt: RS256 and ES256 keys from a JWKS URL
 * (fetched again when a token names an unknown {@code kid}, at most once per 10 s), or HS256 with a shared secret
 * for development. {@code exp} is required and checked against the injected clock (with a small skew); claims map
 * to an {@link Actor} by configurable names: the id ({@code sub}), the org ({@code org_id}), roles ({@code roles})
 * and permissions ({@code permissions}).
 *
 * <p>A token that fails verification proves nobody (null, {@code 401}); a key source that cannot be reached throws
 * ({@code 503}). A token cannot be re-decided without a newer one, so {@link #refresh} answers null: a socket opened
 * with a token (or a ticket issued for one) is closed with 1008 at the token's {@code exp}, and the client reconnects
 * with a fresh token.
 */
public final class JwtAuthenticator implements Authenticator {

  private final DefaultJWTProcessor<SecurityContext> processor;
  private final Clock clock;
  private final Duration skew;
  private final String idClaim;
  private final String orgClaim;
  private final String rolesClaim;
  private final String permissionsClaim;

  private JwtAuthenticator(Builder b, JWKSource<SecurityContext> keys, Set<JWSAlgorithm> algorithms) {
    this.processor = new DefaultJWTProcessor<>();
    this.processor.setJWSKeySelector(new JWSVerificationKeySelector<>(algorithms, keys));
    // exp, nbf and iat are checked below against the injected clock.
    this.processor.setJWTClaimsSetVerifier((claims, context) -> { });
    this.clock = b.clock;
    this.skew = b.skew;
    this.idClaim = b.idClaim;
    this.orgClaim = b.orgClaim;
    this.rolesClaim = b.rolesClaim;
    this.permissionsClaim = b.permissionsClaim;
  }

  /**
   * A builder for HS256 tokens signed with {@code secret} (development).
   *
   * @throws IllegalArgumentException when the secret is shorter than 32 bytes (RFC 7518, section 3.2)
   */
  public static Builder hs256(String secret) {
    byte[] bytes = Objects.requireNonNull(secret, "secret").getBytes(StandardCharsets.UTF_8);
    if (bytes.length < 32) {
      throw new IllegalArgumentException("An HS256 secret needs at least 32 bytes (RFC 7518, 3.2)");
    }
    return new Builder(new ImmutableSecret<>(bytes), Set.of(JWSAlgorithm.HS256));
  }

  /** A builder for RS256 and ES256 tokens whose keys the JWKS at {@code url} publishes. */
  public static Builder jwks(URL url) {
    JWKSource<SecurityContext> keys = JWKSourceBuilder.<SecurityContext>create(Objects.requireNonNull(url, "url"))
        .rateLimited(10_000).build();
    return new Builder(keys, Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256));
  }

  @Override
  public @Nullable Grant authenticate(Credentials credentials) throws KeySourceException {
    String token = credentials.token();
    if (token == null || token.isBlank()) {
      return null;
    }
    JWTClaimsSet claims;
    try {
      claims = processor.process(token, null);
    } catch (KeySourceException e) {
      throw e;
    } catch (ParseException | BadJOSEException | JOSEException e) {
      return null;
    }
    return grant(claims);
  }

  /**
   * Always null: only the token's issuer can extend or change what a token says, and the node holds no newer token.
   * The socket keeps {@code current} until its {@code exp}, then is closed with 1008.
   */
  @Override
  public @Nullable Grant refresh(Grant current) {
    return null;
  }

  // nimbus-jose-jwt's claims give times as java.util.Date; each is turned into an Instant at once.
  @SuppressWarnings("JavaUtilDate")
  private @Nullable Grant grant(JWTClaimsSet claims) {
    Date exp = claims.getExpirationTime();
    long now = clock.millis();
    if (exp == null || exp.getTime() + skew.toMillis() <= now) {
      return null;
    }
    Date nbf = claims.getNotBeforeTime();
    if (nbf != null && nbf.getTime() - skew.toMillis() > now) {
      return null;
    }
    try {
      String id = claims.getStringClaim(idClaim);
      if (id == null || id.isEmpty()) {
        return null;
      }
      Actor actor = new Actor(id, claims.getStringClaim(orgClaim), strings(claims, rolesClaim),
          strings(claims, permissionsClaim));
      return new Grant(actor, exp.getTime());
    } catch (ParseException | BadJWTException e) {
      return null;
    }
  }

  private static Set<String> strings(JWTClaimsSet claims, String name) throws ParseException, BadJWTException {
    Object v = claims.getClaim(name);
    if (v == null) {
      return Set.of();
    }
    if (v instanceof String s) {
      return Set.of(s.split("[ ,]+"));
    }
    if (v instanceof List<?> list) {
      Set<String> out = new LinkedHashSet<>();
      for (Object o : list) {
        if (!(o instanceof String s)) {
          throw new BadJWTException("Claim " + name + " holds a non-string");
        }
        out.add(s);
      }
      return out;
    }
    throw new BadJWTException("Claim " + name + " is neither a string nor a list of strings");
  }

  /** Collects the clock and the claim names. */
  public static final class Builder {
    private final JWKSource<SecurityContext> keys;
    private final Set<JWSAlgorithm> algorithms;
    private Clock clock = Clock.systemUTC();
    private Duration skew = Duration.ofSeconds(10);
    private String idClaim = "sub";
    private String orgClaim = "org_id";
    private String rolesClaim = "roles";
    private String permissionsClaim = "permissions";

    private Builder(JWKSource<SecurityContext> keys, Set<JWSAlgorithm> algorithms) {
      this.keys = keys;
      this.algorithms = algorithms;
    }

    /** The clock {@code exp} is checked against (default UTC). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The clock skew tolerated on {@code exp} and {@code nbf} (default 10 s). */
    public Builder skew(Duration skew) {
      this.skew = Objects.requireNonNull(skew, "skew");
      return this;
    }

    /** Claim names for the actor's id, org, roles and permissions (defaults sub, org_id, roles, permissions). */
    public Builder claims(String id, String org, String roles, String permissions) {
      this.idClaim = Objects.requireNonNull(id, "id");
      this.orgClaim = Objects.requireNonNull(org, "org");
      this.rolesClaim = Objects.requireNonNull(roles, "roles");
      this.permissionsClaim = Objects.requireNonNull(permissions, "permissions");
      return this;
    }

    /** The authenticator. */
    public JwtAuthenticator build() {
      return new JwtAuthenticator(this, keys, algorithms);
    }
  }
}
