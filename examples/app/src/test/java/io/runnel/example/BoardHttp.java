package io.runnel.example;

import io.runnel.server.AllRole;
import io.runnel.server.DevSignIn;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** A client of a running {@link BoardApp} over real HTTP, as a script or the page would call it. */
final class BoardHttp {

  /** One answer: its status, its body as JSON (null when empty or not JSON) and its headers. */
  record Answer(int status, @Nullable JsonValue body, HttpResponse<String> raw) {
    /** The body's {@code code}, or null. */
    @Nullable String code() {
      return body instanceof JsonObject o && o.get("code") instanceof JsonString s ? s.value() : null;
    }

    /** The body's member {@code name}. */
    @Nullable JsonValue get(String name) {
      return body instanceof JsonObject o ? o.get(name) : null;
    }
  }

  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;

  BoardHttp(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  /** The environment of a process on {@code db} (as {@code DATABASE_URL}) with a free port, plus {@code more}. */
  static Map<String, String> env(TestDatabase db, String... more) {
    Map<String, String> env = new HashMap<>();
    String url = db.jdbcUrl();
    env.put("DATABASE_URL", url + (url.contains("?") ? "&" : "?") + "user=postgres&password=postgres");
    env.put("PORT", "0");
    for (int i = 0; i < more.length; i += 2) {
      env.put(more[i], more[i + 1]);
    }
    return env;
  }

  /** The app of {@code env}, started. */
  static AllRole start(Map<String, String> env) throws InterruptedException {
    return BoardApp.start(BoardApp.config(env, Path.of("target")));
  }

  Answer signIn(String body) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(base + DevSignIn.PATH))
        .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json"));
  }

  /** The token of {@code user}, by the development sign-in. */
  String token(String user) throws Exception {
    Answer a = signIn("{\"user\":\"" + user + "\"}");
    if (a.status() != 200) {
      throw new AssertionError("sign-in of " + user + " answered " + a.status() + " " + a.body());
    }
    return ((JsonString) a.get("token")).value();
  }

  /** {@code POST /v1/tickets} with {@code token}: {@code {"ticket", "expiresAt"}}. */
  Answer ticket(String token) throws Exception {
    return send(auth(HttpRequest.newBuilder(URI.create(base + "/v1/tickets")).POST(HttpRequest.BodyPublishers.noBody()),
        token));
  }

  /**
   * A WebSocket upgrade of {@code path} on {@code port} by hand (no credentials but what the path carries), read up
   * to the end of the answer's body: the status line, headers and body of a refusal, or the head of a 101.
   */
  static String upgrade(int port, String path) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(30_000);
      s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
          + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      InputStream in = s.getInputStream();
      StringBuilder head = new StringBuilder();
      int b;
      while (!head.toString().endsWith("\r\n\r\n") && (b = in.read()) >= 0) {
        head.append((char) b);
      }
      int length = 0;
      for (String line : head.toString().split("\r\n")) {
        if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
          length = Integer.parseInt(line.substring(15).trim());
        }
      }
      return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
  }

  Answer mutate(@Nullable String token, String mutator, String input) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/v1/mutate/" + mutator))
        .POST(HttpRequest.BodyPublishers.ofString("{\"input\":" + input + "}"))
        .header("Content-Type", "application/json").header("Idempotency-Key", UUID.randomUUID().toString());
    return send(auth(b, token));
  }

  /** {@code POST /v1/channels/{topic}/events} with {@code body} ({@code {"event", "payload"}}). */
  Answer event(@Nullable String token, String topic, String body) throws Exception {
    return send(auth(HttpRequest.newBuilder(URI.create(base + "/v1/channels/" + topic + "/events"))
        .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json"), token));
  }

  Answer query(@Nullable String token, String query, String input) throws Exception {
    return send(auth(HttpRequest.newBuilder(URI.create(base + "/v1/query/" + query + "?input="
        + URLEncoder.encode(input, StandardCharsets.UTF_8))).GET(), token));
  }

  private static HttpRequest.Builder auth(HttpRequest.Builder b, @Nullable String token) {
    return token == null ? b : b.header("Authorization", "Bearer " + token);
  }

  private Answer send(HttpRequest.Builder b) throws Exception {
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    JsonValue body = null;
    if (r.body().startsWith("{")) {
      body = Json.parse(r.body());
    }
    return new Answer(r.statusCode(), body, r);
  }
}
