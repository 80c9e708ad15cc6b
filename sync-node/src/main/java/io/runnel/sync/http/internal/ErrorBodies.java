package io.runnel.sync.http.internal;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.RequestException;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1ConnectionListener;
import io.runnel.sync.http.Origins;
import io.runnel.sync.log.internal.LogContext;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonObject;
import io.runnel.wire.RunnelException;
import io.runnel.wire.Texts;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Error bodies ({@code { "code", "cause", "fix" }}) for refusals the HTTP stack answers before Runnel's routes run:
 * a refused upgrade (thrown as a {@link RequestException} whose message is the body) and Helidon's own refusals,
 * rendered through a direct handler so their status and body follow {@code docs/protocol.md}'s table.
 */
public final class ErrorBodies {

  private static final System.Logger LOG = System.getLogger(ErrorBodies.class.getName());

  private static final ThreadLocal<String[]> RECEIVED = new ThreadLocal<>();

  /**
   * Remembers, on the connection's thread, the {@code Origin} and {@code Host} of the request being read: Helidon
   * checks an upgrade's origin before any route or filter runs and renders its refusal with no request at hand, so
   * the refusal's body ({@link #handler}) reads them from here to name the origin.
   */
  public static final Http1ConnectionListener HEADERS = new Http1ConnectionListener() {
    @Override
    public void headers(ConnectionContext ctx, Headers headers) {
      // Upgrades only: Helidon's origin check runs on nothing else, and every other request skips the work.
      if (headers.contains(HeaderNames.UPGRADE)) {
        RECEIVED.set(new String[] {headers.first(HeaderNames.ORIGIN).orElse(null),
            headers.first(HeaderNames.HOST).orElse("?")});
      }
    }
  };

  private ErrorBodies() {}

  /** A refusal before the upgrade: {@code error}'s status and JSON body, costing no socket. */
  public static RequestException refusal(RunnelException error, Status status, boolean retryAfter) {
    return refusal(error, status, retryAfter ? 5 : 0);
  }

  /**
   * A refusal before the upgrade, with {@code Retry-After: retryAfterSeconds} when that is above 0.
   */
  public static RequestException refusal(RunnelException error, Status status, long retryAfterSeconds) {
    RequestException.Builder b = RequestException.builder()
        .type(DirectHandler.EventType.OTHER)
        .status(status)
        .message(error.toJson().toString())
        .safeMessage(true)
        .setKeepAlive(false);
    if (retryAfterSeconds > 0) {
      b.header(HeaderValues.create(HeaderNames.RETRY_AFTER, Long.toString(retryAfterSeconds)));
    }
    return b.build();
  }

  /**
   * The refusal of an upgrade from {@code origin} (or null when none was sent), reached on {@code host}: it names the
   * origin, the origins the node admits, and how to admit this one.
   */
  public static RunnelException originRefused(@Nullable String origin, String host, Origins origins) {
    return new HttpRefusal(403, ErrorCode.X_SOCKET_ORIGIN_REFUSED, "The upgrade came from the origin '" + origin
        + "', which this node does not admit" + (origins.browserForms().isEmpty()
            ? " (it admits only its own, the origin of host '" + host + "')."
            : " (it admits " + String.join(", ", origins.browserForms()) + ")."),
        "Open the page from an admitted origin, or admit this one: SyncNode.Builder.allowedOrigins(\"" + origin
            + "\"), in the example app RUNNEL_ALLOWED_ORIGINS=" + origin + ".");
  }

  /**
   * The direct handler: a JSON message is sent as the body; anything else is wrapped in a coded body. Helidon's own
   * origin check on an upgrade (the same rule as the socket's, {@code origins}) is answered as the socket would.
   */
  public static DirectHandler handler(Origins origins) {
    return (request, type, status, headers, message) -> {
      // Helidon's own 403 is its upgrade origin check, rendered with an empty request: the connection's listener kept
      // the request's Origin and Host (HEADERS); the routes send their own 403s.
      String[] received = RECEIVED.get();
      String body = message != null && message.startsWith("{") ? message
          : status.code() == 403 && received != null
              && (request.path() == null || request.path().isEmpty() || request.path().startsWith("/v1/sync"))
              ? originRefused(received[0], received[1], origins).toJson().toString()
          : wrap(request.path(), status, message);
      ServerResponseHeaders h = headers;
      h.set(HeaderNames.CONTENT_TYPE, "application/json");
      return DirectHandler.TransportResponse.builder()
          .status(status)
          .headers(h)
          .entity(body.getBytes(StandardCharsets.UTF_8))
          .keepAlive(false)
          .build();
    };
  }

  /** The coded body of a refusal Helidon made itself, for a request to {@code path} (empty when unknown). */
  static String wrap(String path, Status status, String message) {
    boolean socket = path != null && path.startsWith("/v1/sync");
    String cause = (message == null || message.isBlank() ? status.reasonPhrase() : message) + ".";
    JsonObject.Builder b = JsonObject.builder();
    switch (status.code()) {
      // Helidon's own 403 is its WebSocket origin check, which names no path: the routes send their own 403s.
      case 403 -> b.put("code", (socket || path == null || path.isEmpty()
              ? ErrorCode.X_SOCKET_ORIGIN_REFUSED : ErrorCode.X_ORIGIN_REFUSED).name())
          .put("cause", cause)
          .put("fix", "Connect from an origin the node admits, or add it to the node's allowed origins.");
      case 413 -> b.put("code", ErrorCode.X_PAYLOAD_TOO_LARGE.name()).put("cause", cause)
          .put("fix", "Send a body of at most 1 MiB.");
      case 401 -> b.put("code", ErrorCode.X_SOCKET_UNAUTHENTICATED.name()).put("cause", cause)
          .put("fix", "Send Authorization: Bearer <token>, the runnel_session cookie, or a ticket.");
      case 414, 431 -> b.put("code", ErrorCode.X_INPUT_INVALID.name()).put("cause", cause)
          .put("fix", "Shorten the request line or headers: a query's ?input= may be at most 64 KiB URL-encoded.");
      case 400 -> b.put("code", (socket ? ErrorCode.X_FRAME_INVALID : ErrorCode.X_INPUT_INVALID).name())
          .put("cause", cause).put("fix", "Check the request against docs/protocol.md.");
      // No route matched (or an app route said so itself, whose message is the cause).
      case 404, 405 -> b.put("code", ErrorCode.X_ROUTE_UNKNOWN.name())
          .put("cause", (message == null || message.isBlank() ? status.reasonPhrase() : message) + ": "
              + (path == null || path.isEmpty() ? "this path" : Texts.echo(path, 120)) + ".")
          .put("fix", "/v1/sync".equals(path) ? "Open /v1/sync as a WebSocket (GET with Upgrade: websocket)."
              : "Check the method and path: the node answers POST /v1/mutate/{mutator}, GET /v1/query/{query},"
                  + " POST /v1/tickets, POST /v1/channels/{topic}/events, GET /v1/sync, /healthz, /readyz and"
                  + " /metrics, besides the app's own routes.");
      default -> {
        if (status.code() < 500) {
          // Another refusal of the request itself (a timeout reading it, a media type): the caller's, not logged.
          b.put("code", ErrorCode.X_INPUT_INVALID.name()).put("cause", cause)
              .put("fix", "Check the request against docs/protocol.md.");
        } else {
          internal(b, path, status, message);
        }
      }
    }
    return b.build().toString();
  }

  /** A 5xx the HTTP stack made: {@code X_INTERNAL} with an {@code errorId}, logged with it. */
  private static void internal(JsonObject.Builder b, String path, Status status, String message) {
    String errorId = UUID.randomUUID().toString();
    LogContext.logFailure(LOG, System.Logger.Level.ERROR, errorId, "the HTTP stack answered "
        + status + " for " + path + ": " + message, null);
    b.put("code", ErrorCode.X_INTERNAL.name()).put("cause", status.reasonPhrase() + " (errorId " + errorId + ").")
        .put("fix", "Retry later; if it keeps failing, report the errorId.").put("errorId", errorId);
  }
}
