package io.runnel.wire;

/**
 * Every error code Runnel uses, with the HTTP status it answers with: the one list behind the table in {@code
 * docs/protocol.md} ("Codes"). Codes travel in {@code { "code", "cause", "fix" }} bodies and {@code refuse} frames;
 * code never matches on message text, only on these constants.
 */
public enum ErrorCode {
  /** Upgrade or HTTP call without identity. */
  X_SOCKET_UNAUTHENTICATED(401),
  /** The authenticator failed; answered with {@code Retry-After}. */
  X_SOCKET_AUTH_UNAVAILABLE(503),
  /** Upgrade from a foreign {@code Origin}. */
  X_SOCKET_ORIGIN_REFUSED(403),
  /** Cookie-authenticated HTTP POST from a foreign {@code Origin}. */
  X_ORIGIN_REFUSED(403),
  /** Sockets per actor (429) or per node and the accept budget (503). */
  X_SOCKET_LIMIT(429),
  /** Unknown, expired or reused ticket. */
  X_TICKET_INVALID(401),
  /** {@code hello.v} is not 1. */
  X_PROTOCOL_VERSION(400),
  /** Malformed JSON, unknown {@code t}, binary frame or wrong field types. */
  X_FRAME_INVALID(400),
  /** Inbound frame over 256 KiB (close 1009). */
  X_FRAME_TOO_LARGE(413),
  /** Over 64 frames per second (burst 256). */
  X_FRAME_RATE_LIMIT(429),
  /** {@code sub} or a read names no declared query. */
  X_LIVE_QUERY_UNKNOWN(404),
  /** An input fails validation; the cause names the field path. */
  X_INPUT_INVALID(422),
  /** A {@code sid} this socket already holds. */
  X_SUBSCRIPTION_ID_TAKEN(400),
  /** Subscriptions or topics over a cap. */
  X_SUBSCRIPTION_LIMIT(429),
  /** A policy refused. */
  X_FORBIDDEN(403),
  /** A topic no channel declares. */
  X_TOPIC_FORBIDDEN(403),
  /** The input names another tenant than the actor's. */
  X_TENANCY_ACTOR_MISMATCH(403),
  /** A tenant-scoped entity and an actor with no org. */
  X_TENANCY_ACTOR_ORG_REQUIRED(403),
  /** A shared read past its deadline. */
  X_TIMEOUT(504),
  /** No such mutator. */
  X_MUTATOR_UNKNOWN(404),
  /** No or malformed {@code Idempotency-Key}. */
  X_IDEMPOTENCY_KEY_REQUIRED(400),
  /** The same idempotency key with another input. */
  X_IDEMPOTENCY_KEY_REUSED(422),
  /** The same idempotency key is running now; answered with {@code Retry-After}. */
  X_IDEMPOTENCY_IN_FLIGHT(409),
  /** HTTP body over 1 MiB or event payload over 64 KiB. */
  X_PAYLOAD_TOO_LARGE(413),
  /** Anything unexpected; the body adds an {@code errorId} that is also logged. */
  X_INTERNAL(500),
  /**
   * No route of the node answers the request's method and path (an unknown path, a {@code GET} of a mutator, a plain
   * {@code GET /v1/sync} without the WebSocket upgrade): the HTTP stack's own 404 (or 405), given a coded body.
   */
  X_ROUTE_UNKNOWN(404),

  /** Configuration (environment variables) refused at boot. */
  X_CONFIG_INVALID(500),
  /** An entity declaration is malformed (name, key, columns, table, tenant column). */
  X_ENTITY_DECLARATION_INVALID(500),
  /** A query declaration or the select its source built is malformed (unknown column, operator a type lacks). */
  X_QUERY_DECLARATION_INVALID(500),
  /** A channel declaration is malformed: a bad name, a repeated param, a missing policy. */
  X_CHANNEL_DECLARATION_INVALID(500),
  /** A mutator declaration is malformed (name, codec, server function, policy). */
  X_MUTATOR_DECLARATION_INVALID(500),
  /** A mutator not declared idempotent: every mutator must be, since writes are replayed by key. */
  X_MUTATOR_NOT_IDEMPOTENT(500),
  /** Two declarations of one kind share a name. */
  X_DECLARATION_DUPLICATE(500),
  /** A value does not fit its column type (PostgreSQL text, JSON or a Java value). */
  X_VALUE_INVALID(422),
  /** A structurally bad record reached the client's store; it is dropped and reported. */
  X_RECORD_REJECTED(422),
  /** An outbox entry older than the server's idempotency retention; it is failed, never replayed. */
  X_OFFLINE_QUEUE_ABANDONED(410),
  /** The bus is down or refused a publish; publishes fail at once. */
  X_TRANSPORT_UNAVAILABLE(503),
  /** Logical replication cannot run: {@code wal_level}, the publication, the slot or the stream itself. */
  X_REPLICATION_FAILED(503),
  /**
   * The replication slot was dropped, invalidated by PostgreSQL ({@code max_slot_wal_keep_size}) or moved by someone
   * else: changes in the range the log line names may never have been decoded, so every window re-reads. Logged.
   */
  X_REPLICATION_SLOT_LOST(500),
  /** {@code max_slot_wal_keep_size} is unlimited: a slot left behind holds WAL until the disk fills. A warning. */
  X_WAL_RETENTION_UNBOUNDED(500),
  /** Less WAL than {@code RUNNEL_WAL_SAFE_MIN_BYTES} can still be written before the slot may be invalidated. */
  X_WAL_RETENTION_LOW(500),
  /** A published table's replica identity hides old rows (NOTHING, or DEFAULT without a primary key): a warning. */
  X_LIVE_REPLICA_IDENTITY(500);

  private final int httpStatus;

  ErrorCode(int httpStatus) {
    this.httpStatus = httpStatus;
  }

  /** The HTTP status this code answers with where it is an HTTP answer (a socket refusal carries no status). */
  public int httpStatus() {
    return httpStatus;
  }
}
