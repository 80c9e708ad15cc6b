package io.runnel.server;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.helidon.webserver.WebServer;
import io.runnel.server.DevSignIn.DevUser;
import io.runnel.sync.auth.Credentials;
import io.runnel.sync.auth.Grant;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The development sign-in over real HTTP: the users an app's configuration lists sign in with a token the node's
 * HS256 authenticator accepts, anyone else is refused naming the users there are, and outside development mode
 * nobody signs in.
 */
class DevSignInTest {

  static final String SECRET = "0123456789abcdef0123456789abcdef-dev-sign-in";
  static final List<DevUser> USERS = List.of(new DevUser("ann", "north"), new DevUser("ben", "north"),
      new DevUser("cy", "south"), new DevUser("solo", null));

  final HttpClient http = HttpClient.newHttpClient();

  HttpResponse<String> post(WebServer server, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + DevSignIn.PATH))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  static String field(HttpResponse<String> r, String name) {
    return ((JsonString) ((JsonObject) Json.parse(r.body())).get(name)).value();
  }

  static WebServer serve(DevSignIn signIn) {
    return WebServer.builder().host("127.0.0.1").port(0).routing(signIn::routes).build().start();
  }

  @Test
  void aListedUserSignsInWithATokenTheNodeAcceptsAndAnyoneElseIsRefusedNamingTheUsers() throws Exception {
    WebServer server = serve(DevSignIn.of(true, USERS, SECRET, Clock.systemUTC()));
    try {
      HttpResponse<String> ann = post(server, "{\"user\":\"ann\"}");
      HttpResponse<String> solo = post(server, "{\"user\":\"solo\"}");
      HttpResponse<String> unknown = post(server, "{\"user\":\"mallory\"}");
      HttpResponse<String> malformed = post(server, "{\"name\":\"ann\"}");
      JwtAuthenticator node = JwtAuthenticator.hs256(SECRET).build();
      Grant annGrant = node.authenticate(new Credentials(field(ann, "token"), null, null));
      Grant soloGrant = node.authenticate(new Credentials(field(solo, "token"), null, null));
      assertNotNull(annGrant);
      assertNotNull(soloGrant);
      assertAll(
          () -> assertEquals(200, ann.statusCode(), ann.body()),
          () -> assertEquals("ann", annGrant.actor().id()),
          () -> assertEquals("north", annGrant.actor().orgId()),
          () -> assertTrue(ann.headers().firstValue("set-cookie").orElse("").startsWith("runnel_session="),
              "the same token as the session cookie"),
          () -> assertNull(soloGrant.actor().orgId(), "a user of no org"),
          () -> assertEquals(422, unknown.statusCode()),
          () -> assertEquals("X_USER_UNKNOWN", field(unknown, "code")),
          () -> assertEquals("Sign in as a development user: ann (north), ben (north), cy (south) or solo.",
              field(unknown, "fix")),
          () -> assertEquals(422, malformed.statusCode()),
          () -> assertEquals("X_INPUT_INVALID", field(malformed, "code")),
          () -> assertTrue(field(malformed, "fix").contains("{\"user\": \"ann\"}"), field(malformed, "fix")));
    } finally {
      server.stop();
    }
  }

  @Test
  void outsideDevelopmentModeNobodySignsInAndAUserListedTwiceIsRefused() throws Exception {
    WebServer server = serve(DevSignIn.of(false, USERS, SECRET, Clock.systemUTC()));
    try {
      HttpResponse<String> ann = post(server, "{\"user\":\"ann\"}");
      assertAll(
          () -> assertEquals(404, ann.statusCode()),
          () -> assertEquals("X_DEV_SIGN_IN_OFF", field(ann, "code")),
          () -> assertTrue(ann.headers().firstValue("set-cookie").isEmpty(), "no cookie"),
          () -> assertThrows(IllegalArgumentException.class, () -> DevSignIn.of(true,
              List.of(new DevUser("ann", "north"), new DevUser("ann", "south")), SECRET, Clock.systemUTC())),
          () -> assertThrows(IllegalArgumentException.class, () -> new DevUser("", "north")));
    } finally {
      server.stop();
    }
  }
}
