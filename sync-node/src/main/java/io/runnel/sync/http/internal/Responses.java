package io.runnel.sync.http.internal;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import io.runnel.sync.log.internal.LogContext;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonObject;
import java.lang.System.Logger.Level;
import java.util.UUID;

/** Writes the routes' answers: JSON bodies, coded refusals, and 500s that carry an {@code errorId}, never a trace. */
final class Responses {

  private static final System.Logger LOG = System.getLogger(Responses.class.getName());

  private Responses() {}

  /** Sends {@code body} (JSON text) with {@code status}. */
  static void json(ServerResponse res, int status, String body) {
    res.status(Status.create(status));
    res.header(HeaderNames.CONTENT_TYPE, "application/json");
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    res.send(body);
  }

  /** Sends {@code refusal}'s body and status, with {@code Retry-After} when it has one. */
  static void refusal(ServerResponse res, HttpRefusal refusal) {
    if (refusal.retryAfterSeconds() > 0) {
      res.header(HeaderNames.RETRY_AFTER, Integer.toString(refusal.retryAfterSeconds()));
    }
    json(res, refusal.status(), refusal.toJson().toString());
  }

  /** The body of an unexpected failure: logged in full under a new error id, which the body names. */
  static String internal(Throwable failure, String what) {
    String errorId = UUID.randomUUID().toString();
    LogContext.logFailure(LOG, Level.ERROR, errorId, what + " failed", failure);
    return JsonObject.builder()
        .put("code", ErrorCode.X_INTERNAL.name())
        .put("cause", what + " failed unexpectedly; the node's log has the details under errorId " + errorId + ".")
        .put("fix", "Retry later with the same idempotency key; if it keeps failing, report the errorId.")
        .put("errorId", errorId)
        .build().toString();
  }
}
