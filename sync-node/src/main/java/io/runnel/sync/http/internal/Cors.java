package io.runnel.sync.http.internal;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.runnel.sync.http.Origins;
import io.runnel.wire.ErrorCode;
import org.jspecify.annotations.Nullable;

/**
 * CORS (the Fetch standard's CORS protocol) for the origins the node is configured with, and nobody else: their
 * answers echo the origin with credentials allowed, and their preflights name the methods and headers Runnel reads.
 */
final class Cors {

  private final Origins origins;

  Cors(Origins origins) {
    this.origins = origins;
  }

  /** Adds the CORS headers to an answer for a configured origin; nothing for any other. */
  void headers(ServerRequest req, ServerResponse res) {
    String origin = req.headers().first(HeaderNames.ORIGIN).orElse(null);
    if (origins.configured(origin)) {
      res.header(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
      res.header(HeaderNames.ACCESS_CONTROL_ALLOW_CREDENTIALS, "true");
      res.header(HeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, "Retry-After");
      res.header(HeaderNames.VARY, "Origin");
    }
  }

  /**
   * Answers a preflight: 204 with the allowed methods and headers for a configured origin.
   *
   * @return null when answered, else the refusal to send ({@code 403 X_ORIGIN_REFUSED})
   */
  @Nullable HttpRefusal preflight(ServerRequest req, ServerResponse res) {
    String origin = req.headers().first(HeaderNames.ORIGIN).orElse(null);
    if (!origins.configured(origin)) {
      return new HttpRefusal(403, ErrorCode.X_ORIGIN_REFUSED,
          "The origin '" + origin + "' is not among the node's allowed origins.",
          "Add it to the node's allowed origins, or serve the app from the node's own origin.");
    }
    res.header(HeaderNames.ACCESS_CONTROL_ALLOW_METHODS, "GET, POST");
    res.header(HeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, "Authorization, Content-Type, Idempotency-Key");
    res.header(HeaderNames.ACCESS_CONTROL_MAX_AGE, "600");
    res.status(Status.NO_CONTENT_204);
    res.send();
    return null;
  }
}
