package io.runnel.example;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonSyntaxException;
import io.runnel.wire.JsonValue;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.Objects;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The development sign-in, {@code POST /v1/dev/sign-in} with {@code {"user": "ada"}}: answers
 * {@code {"token": "<JWT>"}} (HS256, {@code sub} the user, {@code org_id} the user's org from the {@code users}
 * table, valid {@link #LIFETIME}) and sets the same token as the session cookie {@code runnel_session}. It proves
 * nothing about the caller, so it answers only in development mode; otherwise every call is refused
 * {@code 404 X_DEV_SIGN_IN_OFF}. A body that is not {@code {"user": "<text>"}} is {@code 422 X_INPUT_INVALID}; a user
 * the table lacks is {@code 422 X_USER_UNKNOWN}.
 */
public final class DevSignIn {

  /** How long a development token lasts. */
  public static final Duration LIFETIME = Duration.ofHours(12);

  /** The route. */
  public static final String PATH = "/v1/dev/sign-in";

  private final boolean enabled;
  private final DataSource db;
  private final MACSigner signer;
  private final Clock clock;

  private DevSignIn(boolean enabled, DataSource db, byte[] secret, Clock clock) {
    this.enabled = enabled;
    this.db = db;
    this.clock = clock;
    try {
      this.signer = new MACSigner(secret);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("An HS256 secret needs at least 32 bytes", e);
    }
  }

  /**
   * The sign-in.
   *
   * @param enabled development mode: false refuses every call
   * @param db where the {@code users} table is
   * @param secret the HS256 secret the node's authenticator checks tokens with, at least 32 bytes
   * @param clock the clock {@code iat} and {@code exp} are read from
   */
  public static DevSignIn of(boolean enabled, DataSource db, String secret, Clock clock) {
    return new DevSignIn(enabled, Objects.requireNonNull(db, "db"),
        Objects.requireNonNull(secret, "secret").getBytes(StandardCharsets.UTF_8),
        Objects.requireNonNull(clock, "clock"));
  }

  /** Registers {@code POST /v1/dev/sign-in} on {@code rules}. */
  public void routes(HttpRules rules) {
    Objects.requireNonNull(rules, "rules").post(PATH, this::handle);
  }

  private void handle(ServerRequest req, ServerResponse res) {
    if (!enabled) {
      refuse(res, 404, "X_DEV_SIGN_IN_OFF", "The development sign-in answers only in development mode.",
          "Start the app with RUNNEL_DEV=true (./runnel run does), or sign in with a token your "
              + "identity provider signs.");
      return;
    }
    String user = user(req.content().as(String.class));
    if (user == null) {
      refuse(res, 422, "X_INPUT_INVALID", "The body is not {\"user\": \"<user id>\"}.",
          "Send {\"user\": \"ada\"} (the seeded users are ada, alan and grace).");
      return;
    }
    String org;
    try {
      org = orgOf(user);
    } catch (SQLException e) {
      throw new IllegalStateException("Could not read the users table", e);
    }
    if (org == null) {
      refuse(res, 422, "X_USER_UNKNOWN", "There is no user '" + user + "'.",
          "Sign in as a seeded user: ada or alan (acme), grace (globex).");
      return;
    }
    String token = token(user, org);
    res.header(HeaderNames.SET_COOKIE, "runnel_session=" + token + "; Path=/; HttpOnly; SameSite=Strict; Max-Age="
        + LIFETIME.toSeconds());
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    send(res, 200, JsonObject.builder().put("token", token).build());
  }

  /** The signed token of {@code user} in {@code org}. */
  // nimbus-jose-jwt's claims take times as java.util.Date.
  @SuppressWarnings("JavaUtilDate")
  String token(String user, String org) {
    long now = clock.millis();
    JWTClaimsSet claims = new JWTClaimsSet.Builder().subject(user).claim("org_id", org).issueTime(new Date(now))
        .expirationTime(new Date(now + LIFETIME.toMillis())).build();
    SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException("Could not sign a development token", e);
    }
    return jwt.serialize();
  }

  private static @Nullable String user(String body) {
    JsonValue json;
    try {
      json = Json.parse(body);
    } catch (JsonSyntaxException e) {
      return null;
    }
    if (!(json instanceof JsonObject o) || o.size() != 1 || !(o.get("user") instanceof JsonString s)
        || s.value().isEmpty()) {
      return null;
    }
    return s.value();
  }

  private @Nullable String orgOf(String user) throws SQLException {
    try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement(
        "SELECT org_id FROM users WHERE id = ?")) {
      s.setString(1, user);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? r.getString(1) : null;
      }
    }
  }

  private static void refuse(ServerResponse res, int status, String code, String cause, String fix) {
    send(res, status, JsonObject.builder().put("code", code).put("cause", cause).put("fix", fix).build());
  }

  private static void send(ServerResponse res, int status, JsonObject body) {
    res.status(Status.create(status));
    res.header(HeaderNames.CONTENT_TYPE, "application/json");
    res.send(body.toString().getBytes(StandardCharsets.UTF_8));
  }
}
