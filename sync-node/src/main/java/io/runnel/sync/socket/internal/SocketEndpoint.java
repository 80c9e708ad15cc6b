package io.runnel.sync.socket.internal;

import io.helidon.webserver.http.Filter;
import io.helidon.websocket.WsListener;
import io.runnel.sync.auth.Authenticator;
import io.runnel.sync.auth.Tickets;
import io.runnel.sync.auth.internal.GrantKeeper;
import io.runnel.sync.channel.internal.ChannelHub;
import io.runnel.sync.http.Origins;
import io.runnel.sync.live.internal.LiveQueryRegistry;
import io.runnel.sync.metrics.internal.NodeMetrics;
import io.runnel.sync.socket.AdmissionLimits;
import io.runnel.sync.socket.Drained;
import io.runnel.sync.socket.SocketLimits;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * The read-only WebSocket {@code /v1/sync} of one node: it makes each connection's {@link SyncSocket}, admits the
 * upgrades ({@link #gate()}, {@link SocketUpgrade}), keeps the set of open sockets, sweeps them ({@link #sweep()}) and
 * drains them ({@link #drain}). Each part of a socket is handed only what it uses of this.
 *
 * <p>Not an API for apps: the node ({@code io.runnel.sync.SyncNode}) makes one and routes {@code /v1/sync} to it.
 */
public final class SocketEndpoint {

  private static final System.Logger LOG = System.getLogger(SocketEndpoint.class.getName());

  /**
   * What the sockets are configured with.
   *
   * @param limits per-socket limits (frame size, rate, outbound bound, idle, send deadline)
   * @param admissionLimits the admission caps (sockets, subscriptions, the accept budget)
   * @param nodeId the node's name in {@code hello} answers
   * @param heartbeat the heartbeat interval clients are told in {@code hello}
   * @param origins the browser origins admitted
   * @param drainRandom where a drain draws each socket's reconnect delay from (its own thread only)
   * @param drainGrace what a drain waits past its spread window before it closes the sockets still open
   * @param clock the wall clock (a grant's {@code expiresAt}, a ticket's expiry)
   * @param nanos the monotonic clock, nanoseconds (idle budgets, frame rates, accept budgets)
   */
  public record Settings(SocketLimits limits, AdmissionLimits admissionLimits, String nodeId, Duration heartbeat,
      Origins origins, RandomGenerator drainRandom, Duration drainGrace, Clock clock, LongSupplier nanos) {}

  final LiveQueryRegistry live;
  final ChannelHub channels;
  final GrantKeeper grants;
  final SocketLimits limits;
  final SocketMeters meters;
  final Admissions admissions;
  final SocketUpgrade upgrade;
  final LongSupplier nanos;
  final String nodeId;
  final long heartbeatMs;
  private final Clock clock;
  private final Set<SyncSocket> sockets = ConcurrentHashMap.newKeySet();
  private final Drain drain;
  private final UpgradeGate gate;

  /**
   * The endpoint of a node whose windows are {@code live} and whose channels are {@code channels}; its meters go on
   * {@code metrics}.
   */
  public SocketEndpoint(Settings settings, LiveQueryRegistry live, ChannelHub channels, Authenticator authenticator,
      Tickets tickets, GrantKeeper grants, NodeMetrics metrics) {
    this.live = Objects.requireNonNull(live, "live");
    this.channels = Objects.requireNonNull(channels, "channels");
    this.grants = Objects.requireNonNull(grants, "grants");
    this.limits = settings.limits();
    this.meters = new SocketMeters(metrics);
    this.nanos = settings.nanos();
    this.clock = settings.clock();
    this.nodeId = settings.nodeId();
    this.heartbeatMs = settings.heartbeat().toMillis();
    LongSupplier nanoTime = settings.nanos();
    this.admissions = new Admissions(settings.admissionLimits(), () -> nanoTime.getAsLong() / 1_000_000);
    this.drain = new Drain(sockets, channels, settings.drainRandom(), settings.drainGrace(), meters);
    this.upgrade = new SocketUpgrade(drain, admissions, settings.origins(), authenticator, tickets, clock, meters);
    this.gate = new UpgradeGate(admissions, meters);
  }

  /** A new connection's listener, not yet upgraded. */
  public WsListener newSocket() {
    return new SyncSocket(this);
  }

  /** The HTTP filter that reserves an upgrade's accept token and node slot first ({@link UpgradeGate}). */
  public Filter gate() {
    return gate;
  }

  void open(SyncSocket s) {
    sockets.add(s);
    meters.sockets.incrementAndGet();
  }

  void closed(SyncSocket s) {
    if (sockets.remove(s)) {
      meters.sockets.decrementAndGet();
      drain.closed();
    }
  }

  /** How many sockets are open. */
  public int size() {
    return sockets.size();
  }

  /** How many frames were dropped over a socket's outbound bound since start. */
  public long framesDropped() {
    return (long) meters.framesDropped.count();
  }

  /**
   * The node's sweep, every second: expired admissions, sockets gone, idle or stuck in a send, and grants due for a
   * check. Never throws: a socket whose sweep fails is logged and swept again next time.
   */
  public void sweep() {
    admissions.sweep();
    long now = nanos.getAsLong();
    // Grants expire on the wall clock (expiresAt is epoch ms); idleness is measured on the monotonic one.
    long wall = clock.millis();
    for (SyncSocket s : sockets) {
      try {
        s.sweep(now);
        s.checkGrant(wall);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "Sweep failed: " + e);
      }
    }
  }

  /** Stops accepting sockets for good ({@link Drain#stopAccepting}). */
  public void stopAccepting() {
    drain.stopAccepting();
  }

  /** Whether the endpoint has stopped accepting sockets. */
  public boolean draining() {
    return drain.draining();
  }

  /**
   * Drains the open sockets over {@code spread} ({@link Drain}; the same future to every call).
   *
   * @throws IllegalArgumentException for a negative spread
   */
  public CompletableFuture<Drained> drain(Duration spread) {
    return drain.start(spread);
  }

  /**
   * Closes every open socket with 1001 (going away), waiting up to {@link Drain#CLOSE} for the clients to answer
   * their close frames.
   */
  public void close() {
    Drain.goAway(List.copyOf(sockets), Drain.CLOSE);
  }
}
