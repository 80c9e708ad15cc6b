package io.runnel.sync.socket.internal;

import io.runnel.dsl.Actor;
import io.runnel.sync.socket.AdmissionLimits;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A node's admission counters ({@link AdmissionLimits}): the accept budget, sockets per node and per actor, and
 * subscriptions per actor and per tenant.
 *
 * <p>Design: every cap is a reservation. A counter is raised, checked against its cap and lowered again at once when
 * over it, before anything that may wait (authentication, a database read), and each successful reservation hands
 * back something that gives it back exactly once. So many upgrades or {@code sub} frames racing each other can pass a
 * cap together only by as many as it has room for, never more. The accept budget is a token bucket on the node's
 * monotonic clock: a token is taken before authentication and given back when the upgrade opens no socket (a 401, a
 * refused origin, a cap), so failed attempts do not starve real ones.
 */
final class Admissions {

  /**
   * How long an upgrade the socket took over may wait for its {@code onOpen} before its reservations are given back.
   */
  static final long OPEN_DEADLINE_MS = 30_000;

  private final AdmissionLimits limits;
  private final LongSupplier millis;
  private final AtomicInteger sockets = new AtomicInteger();
  private final Counts socketsByActor = new Counts();
  private final Counts subscriptionsByActor = new Counts();
  private final Counts subscriptionsByTenant = new Counts();
  private final Set<Admission> awaitingOpen = ConcurrentHashMap.newKeySet();
  private final TokenBucket acceptBudget;

  /**
   * @param limits the caps
   * @param millis a monotonic clock in milliseconds (the node's, {@code SyncNode.Builder.monotonic}): the accept
   *     budget refills on it, so a wall clock stepped back by NTP cannot stall it
   */
  Admissions(AdmissionLimits limits, LongSupplier millis) {
    this.limits = Objects.requireNonNull(limits, "limits");
    this.millis = Objects.requireNonNull(millis, "millis");
    this.acceptBudget = new TokenBucket(limits.acceptsPerSecond(), limits.acceptBurst(), TimeUnit.MILLISECONDS,
        millis.getAsLong());
  }

  AdmissionLimits limits() {
    return limits;
  }

  /**
   * Reserves one upgrade from {@code peer}: an accept token and a socket slot of the node.
   *
   * @param peer the client's address (the TCP peer), or null when unknown
   * @throws AdmissionException {@code 503 X_SOCKET_LIMIT} with {@code Retry-After} when the accept budget is spent or
   *     the node holds {@link AdmissionLimits#socketsPerNode()} sockets; nothing is kept
   */
  Admission admit(@Nullable InetAddress peer) {
    long wait = acceptBudget.take(millis.getAsLong());
    if (wait > 0) {
      throw new AdmissionException(ErrorCode.X_SOCKET_LIMIT, 503, "The node takes " + (long) limits.acceptsPerSecond()
          + " new sockets a second, and that budget is spent for now.",
          "Reconnect after Retry-After seconds (with jitter).", (wait + 999) / 1000);
    }
    if (sockets.incrementAndGet() > limits.socketsPerNode()) {
      sockets.decrementAndGet();
      acceptBudget.refund();
      throw new AdmissionException(ErrorCode.X_SOCKET_LIMIT, 503, "The node holds " + limits.socketsPerNode()
          + " sockets, its limit.", "Reconnect after Retry-After seconds; the operator adds nodes.", 5);
    }
    return new Admission(this, peer);
  }

  /**
   * Reserves one live subscription of {@code actor}: a slot of the actor (anonymous actors: of the socket's client
   * network) and one of its tenant.
   *
   * @param network the client network of the socket, for an anonymous actor
   * @return gives both slots back; running it again does nothing
   * @throws AdmissionException {@code X_SUBSCRIPTION_LIMIT} when either is full; nothing is kept
   */
  Runnable subscription(Actor actor, String network) {
    String actorKey = actorKey(actor, network);
    String tenantKey = actor.orgId() == null ? "-" : actor.orgId();
    if (!subscriptionsByActor.take(actorKey, limits.subscriptionsPerActor())) {
      throw new AdmissionException(ErrorCode.X_SUBSCRIPTION_LIMIT, 429, "This actor holds "
          + limits.subscriptionsPerActor() + " live subscriptions over all its sockets, its limit.",
          "Unsubscribe from a query before subscribing to another.", 0);
    }
    if (!subscriptionsByTenant.take(tenantKey, limits.subscriptionsPerTenant())) {
      subscriptionsByActor.give(actorKey);
      throw new AdmissionException(ErrorCode.X_SUBSCRIPTION_LIMIT, 429, "This organisation holds "
          + limits.subscriptionsPerTenant() + " live subscriptions on this node, its limit.",
          "Unsubscribe elsewhere first, or ask the operator to raise the tenant's limit.", 0);
    }
    AtomicInteger once = new AtomicInteger();
    return () -> {
      if (once.getAndIncrement() == 0) {
        subscriptionsByActor.give(actorKey);
        subscriptionsByTenant.give(tenantKey);
      }
    };
  }

  /** Gives back the reservations of upgrades handed to a socket that never opened within {@link #OPEN_DEADLINE_MS}. */
  void sweep() {
    long now = millis.getAsLong();
    for (Admission a : awaitingOpen) {
      if (a.handedAt() != 0 && now - a.handedAt() > OPEN_DEADLINE_MS) {
        a.release();
      }
    }
  }

  /** Sockets held now (upgrades in flight included). */
  int sockets() {
    return sockets.get();
  }

  /**
   * The key an actor's sockets and subscriptions count under: its id, or for an anonymous actor its client network
   * (an IPv4 address exactly, an IPv6 address's /64).
   */
  static String actorKey(Actor actor, String network) {
    return actor.id() != null ? "actor:" + actor.id() : "network:" + network;
  }

  /** The client network of {@code address}: an IPv4 address exactly, an IPv6 address's first 64 bits; "?" unknown. */
  static String network(@Nullable InetAddress address) {
    if (address == null) {
      return "?";
    }
    if (address instanceof Inet4Address) {
      return address.getHostAddress();
    }
    byte[] b = address.getAddress();
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 8; i += 2) {
      s.append(Integer.toHexString(((b[i] & 0xff) << 8) | (b[i + 1] & 0xff))).append(':');
    }
    return s.append(":/64").toString();
  }

  /**
   * One upgrade's reservations: the accept token and the node's socket slot from {@link #admit}, then the actor's
   * socket slot from {@link #actor}. {@link #release} gives back all of them once; the token only when no socket
   * opened.
   */
  static final class Admission {
    private final Admissions owner;
    private final @Nullable InetAddress peer;
    private @Nullable String actorKey;
    private boolean opened;
    private boolean released;
    private volatile long handedAt;

    private Admission(Admissions owner, @Nullable InetAddress peer) {
      this.owner = owner;
      this.peer = peer;
    }

    /** The client network the upgrade came from ({@link Admissions#network}). */
    String network() {
      return Admissions.network(peer);
    }

    /**
     * Reserves a socket slot of {@code actor} (of its client network when anonymous).
     *
     * @throws AdmissionException {@code 429 X_SOCKET_LIMIT} with {@code Retry-After} when the actor holds
     *     {@link AdmissionLimits#socketsPerActor()} sockets
     */
    synchronized void actor(Actor actor) {
      String key = actorKey(actor, network());
      if (!owner.socketsByActor.take(key, owner.limits.socketsPerActor())) {
        throw new AdmissionException(ErrorCode.X_SOCKET_LIMIT, 429, (actor.id() != null ? "This actor"
            : "This client network (anonymous)") + " holds " + owner.limits.socketsPerActor()
            + " sockets, its limit.", "Close a socket (another tab or device) first; one socket carries every"
            + " subscription and topic of a page.", 5);
      }
      actorKey = key;
    }

    /** The socket took this upgrade over: it releases it when it closes (or the sweep, should it never open). */
    void handedOver() {
      handedAt = Math.max(1, owner.millis.getAsLong());
      owner.awaitingOpen.add(this);
    }

    boolean isHandedOver() {
      return handedAt != 0;
    }

    /** When the socket took it over (epoch ms), or 0. */
    long handedAt() {
      return handedAt;
    }

    /** The socket opened: the accept token is spent for good. */
    synchronized void opened() {
      opened = true;
      owner.awaitingOpen.remove(this);
    }

    /** Gives back every reservation, once; the accept token too when no socket opened. */
    synchronized void release() {
      if (released) {
        return;
      }
      released = true;
      owner.awaitingOpen.remove(this);
      owner.sockets.decrementAndGet();
      if (actorKey != null) {
        owner.socketsByActor.give(actorKey);
      }
      if (!opened) {
        owner.acceptBudget.refund();
      }
    }
  }

  /** Counts per key, taken against a cap atomically; a key whose count falls to zero is forgotten. */
  static final class Counts {
    private final ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();

    boolean take(String key, int cap) {
      boolean[] taken = {false};
      counts.compute(key, (k, n) -> {
        int c = n == null ? 0 : n;
        if (c >= cap) {
          return n;
        }
        taken[0] = true;
        return c + 1;
      });
      return taken[0];
    }

    void give(String key) {
      counts.computeIfPresent(key, (k, n) -> n <= 1 ? null : n - 1);
    }

    int count(String key) {
      return counts.getOrDefault(key, 0);
    }
  }

  /** A refusal to admit: its code, HTTP status and {@code Retry-After} seconds (0: none). */
  static final class AdmissionException extends RunnelException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final long retryAfterSeconds;

    AdmissionException(ErrorCode code, int status, String cause, String fix, long retryAfterSeconds) {
      super(code, cause, fix);
      this.status = status;
      this.retryAfterSeconds = retryAfterSeconds;
    }

    int status() {
      return status;
    }

    long retryAfterSeconds() {
      return retryAfterSeconds;
    }
  }
}
