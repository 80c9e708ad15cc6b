package io.runnel.client;

import io.runnel.client.live.SyncEndpoint;
import io.runnel.client.outbox.Credentials;
import io.runnel.client.port.HttpPort;
import io.runnel.client.port.JsonPort;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The socket's URL for each attempt, from the node's origin: in cookie mode {@code ws(s)://host/v1/sync} (the browser
 * sends the session cookie on the upgrade); with a bearer token a fresh single-use ticket first
 * ({@code POST /v1/tickets}, {@code docs/protocol.md}), then {@code …/v1/sync?ticket=…}. A ticket refused with 401 (the
 * token expired) asks the credentials for a refreshed token and tries once more before the attempt fails.
 */
final class TicketEndpoint implements SyncEndpoint {

  private final String origin;
  private final String socketUrl;
  private final Credentials credentials;
  private final HttpPort http;
  private final JsonPort json;

  TicketEndpoint(String origin, Credentials credentials, HttpPort http, JsonPort json) {
    this.origin = origin.endsWith("/") ? origin.substring(0, origin.length() - 1) : origin;
    this.socketUrl = socketOrigin(this.origin) + "/v1/sync";
    this.credentials = credentials;
    this.http = http;
    this.json = json;
  }

  /** {@code https://h} as {@code wss://h}, {@code http://h} as {@code ws://h}. */
  static String socketOrigin(String origin) {
    if (origin.startsWith("https://")) {
      return "wss://" + origin.substring("https://".length());
    }
    if (origin.startsWith("http://")) {
      return "ws://" + origin.substring("http://".length());
    }
    throw new IllegalArgumentException("The node's origin must start with http:// or https://: '" + origin + "'");
  }

  @Override
  public void url(Consumer<String> ready, Consumer<String> failed) {
    ask(false, ready, failed);
  }

  /** Asks the credentials for a token ({@code refresh}: a new one, after a 401) and the node for a ticket. */
  private void ask(boolean refresh, Consumer<String> ready, Consumer<String> failed) {
    credentials.token(refresh, token -> {
      if (token == null) {
        ready.accept(socketUrl);
        return;
      }
      // A LinkedHashMap, not Map.of: in a bundle Map.of(k, v) links four classes of its own for one header.
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("Authorization", "Bearer " + token);
      http.send(new HttpPort.Request("POST", origin + "/v1/tickets", headers, null),
          outcome -> ticket(outcome, refresh, ready, failed));
    });
  }

  /** A 401 to the first token asks once for a refreshed one; any other miss is a failure (the client backs off). */
  private void ticket(HttpPort.Outcome outcome, boolean refreshed, Consumer<String> ready, Consumer<String> failed) {
    // instanceof, not a type switch, which TeaVM writes out at length (docs/client.md, "Type switches").
    if (!(outcome instanceof HttpPort.Answered a)) {
      failed.accept("No ticket: " + ((HttpPort.NetworkFailed) outcome).reason());
      return;
    }
    String ticket = a.status() == 200 ? ticketOf(a.body()) : null;
    if (ticket != null) {
      ready.accept(socketUrl + "?ticket=" + ticket);
    } else if (a.status() == 401 && !refreshed) {
      ask(true, ready, failed);
    } else {
      failed.accept("No ticket: the node answered " + a.status());
    }
  }

  private @Nullable String ticketOf(String body) {
    try {
      JsonValue v = json.parse(body);
      if (v instanceof JsonObject o && o.get("ticket") instanceof JsonString t && isUrlSafe(t.value())) {
        return t.value();
      }
    } catch (RuntimeException notJson) {
      return null;
    }
    return null;
  }

  /** Whether {@code s} goes into a query string as it is (a signed ticket is base64url with dots). */
  private static boolean isUrlSafe(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '_' || c == '.' || c == '~';
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
