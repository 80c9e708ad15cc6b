package io.runnel.sync.http.internal;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;

/**
 * A refusal of an HTTP route: the code, cause and fix of the body, the status, and for refusals that clear with time
 * the {@code Retry-After} seconds (0: none).
 */
final class HttpRefusal extends RunnelException {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final int retryAfterSeconds;

  HttpRefusal(int status, ErrorCode code, String cause, String fix) {
    this(status, 0, code, cause, fix);
  }

  HttpRefusal(int status, int retryAfterSeconds, ErrorCode code, String cause, String fix) {
    super(code, cause, fix);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The HTTP status. */
  int status() {
    return status;
  }

  /** {@code Retry-After} in seconds, or 0 for none. */
  int retryAfterSeconds() {
    return retryAfterSeconds;
  }

  /** The HTTP status a refusal of the live-query engine maps to ({@code docs/protocol.md}, "Codes"). */
  static int statusOf(ErrorCode code) {
    return switch (code) {
      case X_LIVE_QUERY_UNKNOWN, X_MUTATOR_UNKNOWN, X_ROUTE_UNKNOWN -> 404;
      case X_INPUT_INVALID, X_IDEMPOTENCY_KEY_REUSED, X_VALUE_INVALID, X_RECORD_REJECTED -> 422;
      case X_FORBIDDEN, X_TENANCY_ACTOR_MISMATCH, X_TENANCY_ACTOR_ORG_REQUIRED, X_ORIGIN_REFUSED,
          X_SOCKET_ORIGIN_REFUSED, X_TOPIC_FORBIDDEN -> 403;
      case X_TIMEOUT -> 504;
      case X_SOCKET_UNAUTHENTICATED, X_TICKET_INVALID -> 401;
      case X_SOCKET_AUTH_UNAVAILABLE, X_TRANSPORT_UNAVAILABLE -> 503;
      case X_IDEMPOTENCY_KEY_REQUIRED, X_FRAME_INVALID, X_PROTOCOL_VERSION -> 400;
      case X_IDEMPOTENCY_IN_FLIGHT, X_SUBSCRIPTION_ID_TAKEN -> 409;
      case X_PAYLOAD_TOO_LARGE, X_FRAME_TOO_LARGE -> 413;
      case X_SOCKET_LIMIT, X_SUBSCRIPTION_LIMIT, X_FRAME_RATE_LIMIT -> 429;
      case X_OFFLINE_QUEUE_ABANDONED -> 410;
      case X_INTERNAL, X_CONFIG_INVALID, X_REPLICATION_FAILED, X_REPLICATION_SLOT_LOST, X_WAL_RETENTION_UNBOUNDED,
          X_WAL_RETENTION_LOW, X_LIVE_REPLICA_IDENTITY, X_DECLARATION_DUPLICATE,
          X_ENTITY_DECLARATION_INVALID, X_QUERY_DECLARATION_INVALID, X_MUTATOR_DECLARATION_INVALID,
          X_MUTATOR_NOT_IDEMPOTENT, X_CHANNEL_DECLARATION_INVALID -> 500;
    };
  }
}
