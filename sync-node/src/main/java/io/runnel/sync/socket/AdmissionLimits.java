package io.runnel.sync.socket;

/**
 * A node's admission caps ({@code docs/protocol.md}, "Limits"), each taken as a reservation before anything that may
 * wait and given back in a {@code finally}, so many upgrades or {@code sub} frames arriving together cannot pass a cap
 * many times. None can be raised from the wire.
 *
 * @param socketsPerNode open sockets (upgrades in flight included) the node holds (default 250,000; over it
 *     {@code 503 X_SOCKET_LIMIT} with {@code Retry-After})
 * @param socketsPerActor open sockets of one actor (default 16; over it {@code 429 X_SOCKET_LIMIT} with
 *     {@code Retry-After}); anonymous actors count per client network: an IPv4 address exactly, an IPv6 /64
 * @param subscriptionsPerSocket live subscriptions one socket holds (default 128; over it {@code refuse}
 *     {@code X_SUBSCRIPTION_LIMIT})
 * @param subscriptionsPerActor live subscriptions of one actor over all its sockets (default 1,000)
 * @param subscriptionsPerTenant live subscriptions of one tenant (org) over all its actors (default 100,000; not a
 *     {@code docs/protocol.md} limit, Runnel's own, so one tenant cannot take a whole node)
 * @param windowsPerNode distinct windows the node keeps (default 10,000); at the cap an idle window (no subscriber,
 *     kept for resumes) is let go first, and only when none is idle is the subscription refused
 * @param acceptsPerSecond the accept budget: upgrades a second the node takes, refilled continuously (default 2,000);
 *     a token is taken before authentication and refunded on every exit that opens no socket
 * @param acceptBurst the accept budget's depth: upgrades taken at once after a quiet spell (default 5,000)
 */
public record AdmissionLimits(int socketsPerNode, int socketsPerActor, int subscriptionsPerSocket,
    int subscriptionsPerActor, int subscriptionsPerTenant, int windowsPerNode, double acceptsPerSecond,
    int acceptBurst) {

  /** The protocol's defaults (and Runnel's for the caps it names no default for). */
  public static final AdmissionLimits DEFAULTS =
      new AdmissionLimits(250_000, 16, 128, 1_000, 100_000, 10_000, 2_000, 5_000);

  /** @throws IllegalArgumentException when a cap is not positive */
  public AdmissionLimits {
    if (socketsPerNode < 1 || socketsPerActor < 1 || subscriptionsPerSocket < 1 || subscriptionsPerActor < 1
        || subscriptionsPerTenant < 1 || windowsPerNode < 1 || !(acceptsPerSecond > 0) || acceptBurst < 1) {
      throw new IllegalArgumentException("Admission limits must be positive: " + this);
    }
  }

  /** These limits with {@code perNode} sockets per node and {@code perActor} per actor (or client network). */
  public AdmissionLimits withSockets(int perNode, int perActor) {
    return new AdmissionLimits(perNode, perActor, subscriptionsPerSocket, subscriptionsPerActor,
        subscriptionsPerTenant, windowsPerNode, acceptsPerSecond, acceptBurst);
  }

  /** These limits with subscription caps per socket, per actor and per tenant. */
  public AdmissionLimits withSubscriptions(int perSocket, int perActor, int perTenant) {
    return new AdmissionLimits(socketsPerNode, socketsPerActor, perSocket, perActor, perTenant, windowsPerNode,
        acceptsPerSecond, acceptBurst);
  }

  /** These limits with at most {@code windows} distinct windows per node. */
  public AdmissionLimits withWindows(int windows) {
    return new AdmissionLimits(socketsPerNode, socketsPerActor, subscriptionsPerSocket, subscriptionsPerActor,
        subscriptionsPerTenant, windows, acceptsPerSecond, acceptBurst);
  }

  /** These limits with an accept budget of {@code perSecond} upgrades a second, {@code burst} at once. */
  public AdmissionLimits withAcceptBudget(double perSecond, int burst) {
    return new AdmissionLimits(socketsPerNode, socketsPerActor, subscriptionsPerSocket, subscriptionsPerActor,
        subscriptionsPerTenant, windowsPerNode, perSecond, burst);
  }
}
