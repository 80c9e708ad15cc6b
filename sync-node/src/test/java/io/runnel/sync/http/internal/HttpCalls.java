package io.runnel.sync.http.internal;

import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** A small HTTP client for the node's routes: each call names its headers; answers are parsed as JSON. */
final class HttpCalls {

  /** An answer: status, headers and body. */
  record Answer(int status, String body, HttpResponse<String> raw) {
    JsonObject json() {
      return (JsonObject) Json.parse(body);
    }

    String field(String name) {
      JsonValue v = json().get(name);
      return v instanceof JsonString s ? s.value() : String.valueOf(v);
    }

    String header(String name) {
      return raw.headers().firstValue(name).orElse(null);
    }
  }

  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final String base;

  HttpCalls(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  /** {@code POST /v1/mutate/{name}} with {@code headers} (name → value) and {@code body}. */
  Answer mutate(String name, Map<String, String> headers, String body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/v1/mutate/" + name))
        .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(b::header);
    return send(b.build());
  }

  /** {@code POST /v1/mutate/{name}} as bearer {@code token} with {@code key} and {@code { "input": input }}. */
  Answer mutate(String name, String token, String key, String input) {
    return mutate(name, Map.of("Authorization", "Bearer " + token, "Idempotency-Key", key,
        "Content-Type", "application/json"), "{\"input\":" + input + "}");
  }

  /** {@code GET path} with {@code headers}. */
  Answer get(String path, Map<String, String> headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60)).GET();
    headers.forEach(b::header);
    return send(b.build());
  }

  /** A request with any method. */
  Answer method(String method, String path, Map<String, String> headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
        .method(method, HttpRequest.BodyPublishers.noBody());
    headers.forEach(b::header);
    return send(b.build());
  }

  private Answer send(HttpRequest request) {
    try {
      HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
      return new Answer(r.statusCode(), r.body(), r);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
