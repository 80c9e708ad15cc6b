package io.runnel.server;

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
import io.runnel.wire.Texts;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The development sign-in, {@code POST /v1/dev/sign-in} with {@code {"user": "ada"}}: answers
 * {@code {"token": "<JWT>"}} (HS256, {@code sub} the user, {@code org_id} the user's org, valid {@link #LIFETIME}) and
 * sets the same token as the session cookie {@code runnel_session}. The users are the app's development users, as
 * its configuration names them ({@link DevUser}), never app code. It proves nothing about the caller, so it answers
 * only in development mode; otherwise every call is refused {@code 404 X_DEV_SIGN_IN_OFF}. A body that is not
 * {@code {"user": "<text>"}} is {@code 422 X_INPUT_INVALID}; a user the list lacks is {@code 422 X_USER_UNKNOWN},
 * naming the users there are.
 */
public final class DevSignIn {

  /** How long a development token lasts. */
  public static final Duration LIFETIME = Duration.ofHours(12);

  /** The route. */
  public static final String PATH = "/v1/dev/sign-in";

  private final boolean enabled;
  private final Map<String, DevUser> users = new LinkedHashMap<>();
  private final MACSigner signer;
  private final Clock clock;

  /**
   * One user the development sign-in signs in.
   *
   * @param id the user's id, the token's {@code sub}
   * @param org the user's org, the token's {@code org_id}, or null for a user of no org
   */
  public record DevUser(String id, @Nullable String org) {

    /** Requires a non-empty id. */
    public DevUser {
      if (Objects.requireNonNull(id, "id").isEmpty()) {
        throw new IllegalArgumentException("A development user's id is not empty");
      }
    }

    /** {@code id}, or {@code id (org)}: how the refusals name the user. */
    String describe() {
      return org == null ? id : id + " (" + org + ")";
    }
  }

  private DevSignIn(boolean enabled, List<DevUser> users, byte[] secret, Clock clock) {
    this.enabled = enabled;
    for (DevUser u : users) {
      if (this.users.putIfAbsent(u.id(), u) != null) {
        throw new IllegalArgumentException("The development user '" + u.id() + "' is listed twice");
      }
    }
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
   * @param users the users it signs in, in the order the refusals name them
   * @param secret the HS256 secret the node's authenticator checks tokens with, at least 32 bytes
   * @param clock the clock {@code iat} and {@code exp} are read from
   * @throws IllegalArgumentException when a user is listed twice, or the secret is shorter than 32 bytes
   */
  public static DevSignIn of(boolean enabled, List<DevUser> users, String secret, Clock clock) {
    return new DevSignIn(enabled, List.copyOf(users),
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
          users.isEmpty() ? "This app lists no development users: sign in with a token its identity provider signs."
              : "Send {\"user\": \"" + users.keySet().iterator().next() + "\"} (the development users are "
              + names() + ").");
      return;
    }
    DevUser found = users.get(user);
    if (found == null) {
      refuse(res, 422, "X_USER_UNKNOWN", "There is no development user '" + Texts.echo(user, 64) + "'.",
          users.isEmpty() ? "This app lists no development users: sign in with a token its identity provider signs."
              : "Sign in as a development user: " + names() + ".");
      return;
    }
    String org = found.org();
    String token = token(user, org);
    res.header(HeaderNames.SET_COOKIE, "runnel_session=" + token + "; Path=/; HttpOnly; SameSite=Strict; Max-Age="
        + LIFETIME.toSeconds());
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    send(res, 200, JsonObject.builder().put("token", token).build());
  }

  /** The users, each as {@code id (org)}, joined for a sentence: {@code ada (acme), alan (acme) or grace (globex)}. */
  private String names() {
    return names(List.copyOf(users.values()));
  }

  /**
   * {@code users}, each as {@code id (org)}, joined for a sentence: {@code ada (acme), alan (acme) or grace (globex)}
   * (the banner and the refusals name them alike); empty for none.
   */
  static String names(List<DevUser> users) {
    List<String> each = new ArrayList<>();
    for (DevUser u : users) {
      each.add(u.describe());
    }
    if (each.size() <= 1) {
      return String.join("", each);
    }
    return String.join(", ", each.subList(0, each.size() - 1)) + " or " + each.get(each.size() - 1);
  }

  /** The signed token of {@code user} in {@code org} (no {@code org_id} claim when null). */
  // nimbus-jose-jwt's claims take times as java.util.Date.
  @SuppressWarnings("JavaUtilDate")
  String token(String user, @Nullable String org) {
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

  private static void refuse(ServerResponse res, int status, String code, String cause, String fix) {
    send(res, status, JsonObject.builder().put("code", code).put("cause", cause).put("fix", fix).build());
  }

  private static void send(ServerResponse res, int status, JsonObject body) {
    res.status(Status.create(status));
    res.header(HeaderNames.CONTENT_TYPE, "application/json");
    res.send(body.toString().getBytes(StandardCharsets.UTF_8));
  }
}
