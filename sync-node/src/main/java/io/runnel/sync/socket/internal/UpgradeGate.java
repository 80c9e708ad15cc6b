package io.runnel.sync.socket.internal;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.jspecify.annotations.Nullable;

/**
 * The first step of every upgrade to {@code /v1/sync}: reserves an accept token and a socket slot of the node
 * ({@link Admissions#admit}) before anything else runs, answers {@code 503 X_SOCKET_LIMIT} with {@code Retry-After}
 * when either is spent, and otherwise hands the reservation to the socket's {@code onHttpUpgrade}, which authenticates
 * and takes the actor's slot. Whatever the upgrade does not hand over to an opening socket is given back here.
 *
 * <p>An HTTP filter, because Helidon 4.5 routes an upgrade request through the HTTP routing before the WebSocket
 * listener's {@code onHttpUpgrade}, on the same thread, with the client's address, which the listener is not given.
 */
final class UpgradeGate implements Filter {

  private static final ThreadLocal<Admissions.Admission> CURRENT = new ThreadLocal<>();

  private final Admissions admissions;
  private final SocketMeters metrics;

  UpgradeGate(Admissions admissions, SocketMeters metrics) {
    this.admissions = admissions;
    this.metrics = metrics;
  }

  /** The reservation of the upgrade this thread is running, or null when the gate did not run. */
  static Admissions.@Nullable Admission current() {
    return CURRENT.get();
  }

  @Override
  public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
    if (!isSocketUpgrade(req)) {
      chain.proceed();
      return;
    }
    Admissions.Admission admission;
    try {
      admission = admissions.admit(address(req.remotePeer().address()));
    } catch (Admissions.AdmissionException e) {
      metrics.refused(e.code().name());
      res.status(Status.create(e.status()));
      res.header(HeaderNames.RETRY_AFTER, Long.toString(Math.max(1, e.retryAfterSeconds())));
      res.header(HeaderNames.CONTENT_TYPE, "application/json");
      res.send(e.toJson().toString());
      return;
    }
    CURRENT.set(admission);
    try {
      chain.proceed();
    } finally {
      CURRENT.remove();
      if (!admission.isHandedOver()) {
        admission.release();
      }
    }
  }

  private static boolean isSocketUpgrade(RoutingRequest req) {
    return req.path().path().equals("/v1/sync") && req.headers().first(HeaderNames.UPGRADE)
        .map(v -> v.equalsIgnoreCase("websocket")).orElse(false);
  }

  private static @Nullable InetAddress address(SocketAddress address) {
    return address instanceof InetSocketAddress a ? a.getAddress() : null;
  }
}
