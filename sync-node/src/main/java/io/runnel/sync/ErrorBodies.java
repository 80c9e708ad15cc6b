package io.runnel.sync;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.RequestException;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonObject;
import io.runnel.wire.RunnelException;
import java.nio.charset.StandardCharsets;

/**
 * Error bodies ({@code { "code", "cause", "fix" }}) for refusals the HTTP stack answers before Runnel's routes run:
 * a refused upgrade (thrown as a {@link RequestException} whose message is the body) and Helidon's own refusals,
 * rendered through a direct handler so their status and body follow {@code PROTOCOL.md}'s table.
 */
final class ErrorBodies {

  private ErrorBodies() {}

  /** A refusal before the upgrade: {@code error}'s status and JSON body, costing no socket. */
  static RequestException refusal(RunnelException error, Status status, boolean retryAfter) {
    RequestException.Builder b = RequestException.builder()
        .type(DirectHandler.EventType.OTHER)
        .status(status)
        .message(error.toJson().toString())
        .safeMessage(true)
        .setKeepAlive(false);
    if (retryAfter) {
      b.header(io.helidon.http.HeaderValues.create(HeaderNames.RETRY_AFTER, "5"));
    }
    return b.build();
  }

  /** The direct handler: a JSON message is sent as the body; anything else is wrapped in a coded body. */
  static DirectHandler handler() {
    return (request, type, status, headers, message) -> {
      String body = message != null && message.startsWith("{") ? message : wrap(status, message);
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

  private static String wrap(Status status, String message) {
    ErrorCode code = switch (status.code()) {
      case 403 -> ErrorCode.X_SOCKET_ORIGIN_REFUSED;
      case 413 -> ErrorCode.X_PAYLOAD_TOO_LARGE;
      case 401 -> ErrorCode.X_SOCKET_UNAUTHENTICATED;
      case 400 -> ErrorCode.X_FRAME_INVALID;
      default -> ErrorCode.X_INTERNAL;
    };
    String cause = message == null || message.isBlank() ? status.reasonPhrase() : message;
    return JsonObject.builder().put("code", code.name()).put("cause", cause + ".")
        .put("fix", code == ErrorCode.X_SOCKET_ORIGIN_REFUSED
            ? "Connect from an origin the node admits, or add it to the node's allowed origins."
            : "Check the request against PROTOCOL.md.")
        .build().toString();
  }
}
