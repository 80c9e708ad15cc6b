package io.runnel.sync.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.runnel.dsl.Actor;
import io.runnel.wire.Texts;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * An {@link Authenticator} for JSON Web Tokens (RFC 7519) with nimbus-jose-jwt, pinned to one signature algorithm
 * (RFC 8725, section 3.1: a token of any other algorithm, {@code none} included, is refused, so a token signed with
 * HMAC over an RSA public key never passes as RS256): RS256 or ES256 keys from an identity provider's JWKS URL
 * (cached, fetched again when a token names an unknown {@code kid}, at most once per 10 s: a token naming an unknown
 * key meanwhile is refused, or answered as undecidable when the last fetch failed), or HS256 with a shared
 * secret. {@code exp} is required and checked against the injected clock with a configurable skew, as {@code nbf} is;
 * {@code iss} and {@code aud} are checked when configured. Claims map to an {@link Actor} by configurable names: the
 * id ({@code sub}), the org ({@code org_id}, or a dotted path such as {@code app_metadata.org}), roles
 * ({@code roles}) and permissions ({@code permissions}).
 *
 * <p>No credentials prove nobody (null). A token that fails a check is refused with
 * {@link AuthRefusedException#unauthenticated} ({@code 401 X_SOCKET_UNAUTHENTICATED}), whose cause names the check
 * that failed and never the token; a key source that cannot be reached throws ({@code 503}). A token cannot be
 * re-decided without a newer one, so {@link #refresh} answers null: a socket opened with a token (or a ticket issued
 * for one) is closed with 1008 at the token's {@code exp}, and the client reconnects with a fresh token.
 */
public final class JwtAuthenticator implements Authenticator {

  /** The signature algorithms a JwtAuthenticator can be pinned to (RFC 7518, section 3.1). */
  public static final List<String> ALGORITHMS = List.of("RS256", "ES256", "HS256");

  /** How often, at most, the JWKS is fetched again for a token that names an unknown key: 10 s. */
  public static final Duration JWKS_REFETCH_INTERVAL = Duration.ofSeconds(10);

  private static final String FRESH_TOKEN = "Sign in again for a fresh token from the identity provider.";

  private final DefaultJWTProcessor<SecurityContext> processor;
  /** Whether the last fetch of the keys failed: a refetch the rate limit holds back then cannot decide (503). */
  private final AtomicBoolean keysUnavailable = new AtomicBoolean();
  private final JWSAlgorithm algorithm;
  private final Clock clock;
  private final Duration skew;
  private final @Nullable String issuer;
  private final @Nullable String audience;
  private final String idClaim;
  private final String orgClaim;
  private final String rolesClaim;
  private final String permissionsClaim;

  private JwtAuthenticator(Builder b) {
    this.processor = new DefaultJWTProcessor<>();
    this.processor.setJWSKeySelector(new JWSVerificationKeySelector<>(b.algorithm, b.keys));
    // RFC 9068 access tokens say at+jwt; other providers say JWT or nothing.
    this.processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT,
        new JOSEObjectType("at+jwt"), null));
    // exp, nbf, iss and aud are checked below, against the injected clock, each with a cause of its own.
    this.processor.setJWTClaimsSetVerifier((claims, context) -> { });
    this.algorithm = b.algorithm;
    this.clock = b.clock;
    this.skew = b.skew;
    this.issuer = b.issuer;
    this.audience = b.audience;
    this.idClaim = b.idClaim;
    this.orgClaim = b.orgClaim;
    this.rolesClaim = b.rolesClaim;
    this.permissionsClaim = b.permissionsClaim;
  }

  /**
   * A builder for HS256 tokens signed with {@code secret}.
   *
   * @throws IllegalArgumentException when the secret is shorter than 32 bytes (RFC 7518, section 3.2)
   */
  public static Builder hs256(String secret) {
    byte[] bytes = Objects.requireNonNull(secret, "secret").getBytes(StandardCharsets.UTF_8);
    if (bytes.length < 32) {
      throw new IllegalArgumentException("An HS256 secret needs at least 32 bytes (RFC 7518, 3.2)");
    }
    return new Builder(new ImmutableSecret<>(bytes), JWSAlgorithm.HS256);
  }

  /** A builder for RS256 tokens whose keys the JWKS at {@code url} publishes: {@code jwks(url, "RS256")}. */
  public static Builder jwks(URL url) {
    return jwks(url, "RS256");
  }

  /**
   * A builder for tokens signed with {@code algorithm} whose keys the JWKS at {@code url} publishes (RFC 7517); only
   * keys of that algorithm's type are used (RSA for RS256, EC P-256 for ES256).
   *
   * @param algorithm {@code RS256} or {@code ES256}
   * @throws IllegalArgumentException for another algorithm (HS256 takes a secret: {@link #hs256})
   */
  public static Builder jwks(URL url, String algorithm) {
    JWSAlgorithm pin = switch (Objects.requireNonNull(algorithm, "algorithm")) {
      case "RS256" -> JWSAlgorithm.RS256;
      case "ES256" -> JWSAlgorithm.ES256;
      default -> throw new IllegalArgumentException("A JWKS is read for RS256 or ES256, not '" + algorithm
          + "' (HS256 takes a shared secret)");
    };
    JWKSource<SecurityContext> keys = JWKSourceBuilder.<SecurityContext>create(Objects.requireNonNull(url, "url"))
        .rateLimited(JWKS_REFETCH_INTERVAL.toMillis()).build();
    return new Builder(keys, pin);
  }

  /** The algorithm tokens must be signed with: {@code RS256}, {@code ES256} or {@code HS256}. */
  public String algorithm() {
    return algorithm.getName();
  }

  /**
   * The grant {@code credentials}' token proves, or null when they carry no token.
   *
   * @throws AuthRefusedException ({@code 401 X_SOCKET_UNAUTHENTICATED}) when the token fails a check, named in the
   *     cause: not a JWT, unsigned, another algorithm than the pin, no key of the provider matching, a signature
   *     that does not verify, no or a passed {@code exp}, an {@code nbf} ahead, another {@code iss} or {@code aud}
   *     than configured, no id claim, a claim of the wrong type
   * @throws KeySourceException when the JWKS cannot be fetched (the node answers 503)
   */
  @Override
  public @Nullable Grant authenticate(Credentials credentials) throws KeySourceException {
    String token = credentials.token();
    if (token == null || token.isBlank()) {
      return null;
    }
    JWT jwt;
    try {
      jwt = JWTParser.parse(token);
    } catch (ParseException e) {
      throw refused("The credentials are not a JSON Web Token (three base64url parts, RFC 7519).", FRESH_TOKEN);
    }
    if (!(jwt instanceof SignedJWT signed)) {
      throw refused("The token is not signed (alg none, or encrypted); this node accepts " + algorithm.getName()
          + " only.", "Send a token signed with " + algorithm.getName() + ".");
    }
    JWSAlgorithm alg = signed.getHeader().getAlgorithm();
    if (!algorithm.equals(alg)) {
      throw refused("The token is signed with " + nameOf(alg) + "; this node accepts " + algorithm.getName()
          + " only.", "Send a token signed with " + algorithm.getName() + ".");
    }
    JWTClaimsSet claims;
    try {
      claims = processor.process(signed, null);
      keysUnavailable.set(false);
    } catch (RateLimitReachedException e) {
      if (keysUnavailable.get()) {
        throw e;
      }
      throw refused("No key of the identity provider matches the token's key id (its keys were fetched again less "
          + "than " + JWKS_REFETCH_INTERVAL.toSeconds() + " s ago).", FRESH_TOKEN);
    } catch (KeySourceException e) {
      keysUnavailable.set(true);
      throw e;
    } catch (BadJWSException e) {
      throw refused("The token's signature does not verify.", FRESH_TOKEN);
    } catch (BadJOSEException e) {
      String message = String.valueOf(e.getMessage());
      throw refused(message.contains("no matching key")
          ? "No key of the identity provider matches the token's key id and algorithm."
          : "The token was refused: " + Texts.echo(message, 120), FRESH_TOKEN);
    } catch (JOSEException e) {
      throw refused("The token's signature could not be checked: " + Texts.echo(String.valueOf(e.getMessage()), 120),
          FRESH_TOKEN);
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
  private Grant grant(JWTClaimsSet claims) {
    Date exp = claims.getExpirationTime();
    long now = clock.millis();
    if (exp == null) {
      throw refused("The token has no exp (expiry) claim; this node requires one.", FRESH_TOKEN);
    }
    if (exp.getTime() + skew.toMillis() <= now) {
      throw refused("The token expired at " + exp.toInstant() + " (clock skew allowed: " + skew.toSeconds()
          + " s).", FRESH_TOKEN);
    }
    Date nbf = claims.getNotBeforeTime();
    if (nbf != null && nbf.getTime() - skew.toMillis() > now) {
      throw refused("The token is not valid before " + nbf.toInstant() + " (clock skew allowed: " + skew.toSeconds()
          + " s).", "Check the clocks of the identity provider and of this node.");
    }
    String iss = issuer;
    if (iss != null && !iss.equals(claims.getIssuer())) {
      throw refused("The token's iss (issuer) is not " + iss + ", the issuer this node trusts.",
          "Send a token issued by " + iss + ".");
    }
    String aud = audience;
    if (aud != null && !claims.getAudience().contains(aud)) {
      throw refused("The token's aud (audience) does not name " + aud + ", this node's audience.",
          "Ask the identity provider for a token for the audience " + aud + ".");
    }
    try {
      String id = claims.getStringClaim(idClaim);
      if (id == null || id.isEmpty()) {
        throw refused("The token has no " + idClaim + " claim, which names the user.", FRESH_TOKEN);
      }
      Actor actor = new Actor(id, org(claims), strings(claims, rolesClaim), strings(claims, permissionsClaim));
      return new Grant(actor, exp.getTime());
    } catch (ParseException | BadJWTException e) {
      throw refused("The token's claims are not of the types this node reads: "
          + Texts.echo(String.valueOf(e.getMessage()), 120), FRESH_TOKEN);
    }
  }

  /**
   * The org: the top-level claim named {@link #orgClaim} when there is one (a namespaced claim such as
   * {@code https://example.com/org} holds dots), else the claim at that dotted path ({@code app_metadata.org}), or
   * null when there is none (an actor with no org).
   */
  private @Nullable String org(JWTClaimsSet claims) throws BadJWTException {
    Object v = claims.getClaim(orgClaim);
    if (v == null && orgClaim.indexOf('.') > 0) {
      Object at = claims.getClaims();
      for (String part : orgClaim.split("\\.", -1)) {
        at = at instanceof Map<?, ?> m ? m.get(part) : null;
      }
      v = at;
    }
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s)) {
      throw new BadJWTException("the claim " + orgClaim + " (the org) is not a string");
    }
    return s;
  }

  private static AuthRefusedException refused(String cause, String fix) {
    return AuthRefusedException.unauthenticated(cause, fix);
  }

  /** An algorithm's name when it is one of the registered ones (RFC 7518), never a header's arbitrary text. */
  private static String nameOf(@Nullable JWSAlgorithm alg) {
    if (alg == null) {
      return "no algorithm";
    }
    for (JWSAlgorithm known : JWSAlgorithm.Family.SIGNATURE) {
      if (known.equals(alg)) {
        return known.getName();
      }
    }
    return JWSAlgorithm.Family.HMAC_SHA.contains(alg) ? alg.getName() : "an algorithm this node does not know";
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

  /** Collects the clock, the skew, the issuer and audience to check, and the claim names. */
  public static final class Builder {
    private final JWKSource<SecurityContext> keys;
    private final JWSAlgorithm algorithm;
    private Clock clock = Clock.systemUTC();
    private Duration skew = Duration.ofSeconds(10);
    private @Nullable String issuer;
    private @Nullable String audience;
    private String idClaim = "sub";
    private String orgClaim = "org_id";
    private String rolesClaim = "roles";
    private String permissionsClaim = "permissions";

    private Builder(JWKSource<SecurityContext> keys, JWSAlgorithm algorithm) {
      this.keys = keys;
      this.algorithm = algorithm;
    }

    /** The clock {@code exp} is checked against (default UTC). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The clock skew tolerated on {@code exp} and {@code nbf} (default 10 s).
     *
     * @throws IllegalArgumentException when negative
     */
    public Builder skew(Duration skew) {
      if (Objects.requireNonNull(skew, "skew").isNegative()) {
        throw new IllegalArgumentException("A clock skew is zero or more, not " + skew);
      }
      this.skew = skew;
      return this;
    }

    /** The {@code iss} every token must carry, exactly ({@code https://tenant.auth0.com/}); default unchecked. */
    public Builder issuer(String issuer) {
      this.issuer = Objects.requireNonNull(issuer, "issuer");
      return this;
    }

    /** A value every token's {@code aud} must hold (a string or one of a list); default unchecked. */
    public Builder audience(String audience) {
      this.audience = Objects.requireNonNull(audience, "audience");
      return this;
    }

    /**
     * Claim names for the actor's id, org, roles and permissions (defaults sub, org_id, roles, permissions). The org
     * may be a dotted path into nested claims ({@code app_metadata.org}); a top-level claim of that exact name wins.
     */
    public Builder claims(String id, String org, String roles, String permissions) {
      this.idClaim = Objects.requireNonNull(id, "id");
      this.orgClaim = Objects.requireNonNull(org, "org");
      this.rolesClaim = Objects.requireNonNull(roles, "roles");
      this.permissionsClaim = Objects.requireNonNull(permissions, "permissions");
      return this;
    }

    /** The org claim alone, as {@link #claims} takes it. */
    public Builder orgClaim(String org) {
      this.orgClaim = Objects.requireNonNull(org, "org");
      return this;
    }

    /** The authenticator. */
    public JwtAuthenticator build() {
      return new JwtAuthenticator(this);
    }
  }
}
