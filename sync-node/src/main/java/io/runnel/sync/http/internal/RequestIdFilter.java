package io.runnel.sync.http.internal;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.runnel.sync.log.internal.LogContext;

/**
 * The first filter of every HTTP request: takes the request's id (its {@code X-Request-Id} when that is 1–128
 * visible ASCII, else a new one; {@link LogContext#requestIdFor}), echoes it in the response's {@code X-Request-Id},
 * and handles the request with it as the thread's request id, so every line logged meanwhile carries it.
 */
public final class RequestIdFilter implements Filter {

  /** {@code X-Request-Id}. */
  static final HeaderName REQUEST_ID = HeaderNames.create("X-Request-Id");

  @Override
  public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
    String id = LogContext.requestIdFor(req.headers().first(REQUEST_ID).orElse(null));
    res.header(REQUEST_ID, id);
    LogContext.withRequestId(id, chain::proceed);
  }
}
