package io.runnel.sync;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.websocket.WsConfig;
import io.helidon.webserver.websocket.WsRouting;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.runnel.bus.BusHealth;
import io.runnel.bus.Transport;
import io.runnel.dsl.server.Declarations;
import io.runnel.protocol.Position;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.sync.auth.Authenticator;
import io.runnel.sync.auth.Tickets;
import io.runnel.sync.auth.internal.GrantKeeper;
import io.runnel.sync.channel.ChannelBus;
import io.runnel.sync.channel.ChannelLimits;
import io.runnel.sync.channel.ChannelStats;
import io.runnel.sync.channel.Ticker;
import io.runnel.sync.channel.internal.ChannelHub;
import io.runnel.sync.http.Origins;
import io.runnel.sync.http.internal.ErrorBodies;
import io.runnel.sync.http.internal.HttpApi;
import io.runnel.sync.http.internal.RequestIdFilter;
import io.runnel.sync.live.LiveStats;
import io.runnel.sync.live.internal.LiveQueryRegistry;
import io.runnel.sync.metrics.internal.NodeMetrics;
import io.runnel.sync.socket.AdmissionLimits;
import io.runnel.sync.socket.Drained;
import io.runnel.sync.socket.SocketLimits;
import io.runnel.sync.socket.internal.HelidonHeaderConstants;
import io.runnel.sync.socket.internal.SocketEndpoint;
import io.runnel.time.Sleeper;
import io.runnel.time.Threads;
import io.runnel.wire.ConfigInvalidException;
import io.runnel.wire.JsonLimits;
import io.runnel.wire.JsonObject;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A sync node: the Helidon SE server in front of the live-window engine. Routes: the read-only WebSocket
 * {@code /v1/sync}, {@code POST /v1/mutate/{mutator}}, {@code GET /v1/query/{query}}, {@code POST /v1/tickets},
 * {@code POST /v1/channels/{topic}/events}, {@code /healthz}, {@code /readyz} and {@code /metrics} (Prometheus text);
 * then the app's own routes, if any ({@link Builder#routing}), such as the pages that import its bundle.
 *
 * <pre>{@code
 * SyncNode node = SyncNode.builder().declarations(d).transport(bus).dataSource(pool)
 *     .authenticator(JwtAuthenticator.hs256(secret).build()).build();
 * node.start();   // node.port() is the port it listens on
 * node.drain().join();   // on SIGTERM: clients move to other nodes over the spread window
 * node.stop();
 * }</pre>
 */
public final class SyncNode implements AutoCloseable {

  /** The default lag past which {@code /readyz} says {@code "replication_lag"}: 5 s. */
  public static final Duration DEFAULT_LAG_DEGRADED = Duration.ofSeconds(5);

  /** What a drain waits past its spread window before it closes the sockets still open: 1 s. */
  public static final Duration DRAIN_GRACE = Duration.ofSeconds(1);

  private final Duration drainSpread;
  private final LiveQueryRegistry live;
  private final ChannelHub channels;
  private final SocketEndpoint sockets;
  private final NodeMetrics metrics;
  private final SocketLimits limits;
  private final Origins origins;
  private final HttpApi http;
  /** Held here because the meters hold it weakly. */
  private final BusHealth bus;
  private final Readiness readiness;
  private final String host;
  private final int requestedPort;
  private final int socketSendBuffer;
  private final List<Consumer<HttpRules>> appRoutes;
  private final ScheduledExecutorService sweeper = Threads.scheduler("sync-node-sweeper");
  private volatile @Nullable WebServer server;
  private volatile boolean ready;

  private SyncNode(Builder b) {
    Declarations declarations = Objects.requireNonNull(b.declarations, "declarations");
    DataSource dataSource = Objects.requireNonNull(b.dataSource, "dataSource");
    Transport transport = Objects.requireNonNull(b.transport, "transport");
    Authenticator authenticator = Objects.requireNonNull(b.authenticator, "authenticator");
    Clock clock = b.clock;
    this.channels = b.channels.declarations(declarations).nodeId(b.nodeId).clock(clock).build();
    // Records channels read the windows' stream: the same order, the same gaps.
    this.live = b.live.declarations(declarations).dataSource(dataSource).transport(transport).clock(clock)
        .changeListener(channels.records()).maxWindows(b.admissionLimits.windowsPerNode()).build();
    Tickets tickets = b.tickets != null ? b.tickets : Tickets.local(clock);
    this.bus = BusHealth.watch(transport);
    this.readiness = new Readiness(live, bus, b.replicator, b.lagDegraded.toMillis());
    this.metrics = new NodeMetrics(b.meters, live, channels, bus);
    GrantKeeper grants = GrantKeeper.create(authenticator, clock, b.grantCheck, b.grantGrace);
    metrics.grants(grants);
    this.limits = b.limits;
    this.origins = b.origins;
    SocketEndpoint.Settings settings = new SocketEndpoint.Settings(b.limits, b.admissionLimits, b.nodeId, b.heartbeat,
        b.origins, b.drainRandom, DRAIN_GRACE, clock, b.nanos);
    this.sockets = new SocketEndpoint(settings, live, channels, authenticator, tickets, grants, metrics);
    this.http = b.http.declarations(declarations).dataSource(dataSource).live(live).channels(channels)
        .authenticator(authenticator).tickets(tickets).clock(clock).origins(b.origins).meters(metrics.registry())
        .build();
    this.host = b.host;
    this.requestedPort = b.port;
    this.socketSendBuffer = b.socketSendBuffer;
    this.appRoutes = List.copyOf(b.appRoutes);
    this.drainSpread = b.drainSpread;
  }

  /** A builder; declarations, a transport, a data source and an authenticator are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Creates the idempotency table when missing, starts reading the bus, and listens.
   *
   * @throws io.runnel.bus.TransportUnavailableException when the bus is down
   * @throws io.runnel.wire.ConfigInvalidException ({@code X_CONFIG_INVALID}) when the idempotency table cannot be
   *     created
   */
  // The sweeps run until stop() shuts their scheduler down; Threads.scheduler logs a sweep that fails.
  @SuppressWarnings("FutureReturnValueIgnored")
  public synchronized void start() {
    if (server != null) {
      return;
    }
    try {
      http.start();
    } catch (SQLException e) {
      throw new ConfigInvalidException(
          "The node could not create runnel.idempotency: " + e.getMessage(),
          "Grant the node's database role CREATE on the database, or create the table with the DDL in docs/writes.md.");
    }
    live.start();
    channels.start();
    HelidonHeaderConstants.fill();
    WebServer s = WebServer.builder()
        // Helidon's own JVM shutdown hook would stop the server at once, cutting every socket (1006) while the
        // owner's hook drains it; the node's owner stops it (SyncNode.stop, after SyncNode.drain on SIGTERM).
        .shutdownHook(false)
        .host(host)
        .port(requestedPort)
        .maxPayloadSize(HttpApi.MAX_DRAINED_BYTES)
        .addProtocol(Http1Config.builder().maxPrologueLength(HttpApi.MAX_REQUEST_LINE)
            .addReceiveListener(ErrorBodies.HEADERS).build())
        .connectionOptions(o -> {
          if (socketSendBuffer > 0) {
            o.socketSendBufferSize(socketSendBuffer);
          }
        })
        .addProtocol(WsConfig.builder().maxFrameLength(limits.maxFrameBytes()).origins(origins.browserForms()).build())
        .directHandlers(DirectHandlers.builder()
            .addHandler(DirectHandler.EventType.BAD_REQUEST, ErrorBodies.handler(origins))
            .addHandler(DirectHandler.EventType.FORBIDDEN, ErrorBodies.handler(origins))
            .addHandler(DirectHandler.EventType.PAYLOAD_TOO_LARGE, ErrorBodies.handler(origins))
            .addHandler(DirectHandler.EventType.OTHER, ErrorBodies.handler(origins))
            .addHandler(DirectHandler.EventType.INTERNAL_ERROR, ErrorBodies.handler(origins))
            .build())
        .routing(r -> {
          r.addFilter(new RequestIdFilter());
          r.addFilter(sockets.gate());
          r.get("/healthz", (req, res) -> json(res, Status.OK_200, JsonObject.builder().put("status", "up").build()))
              .get("/readyz", (req, res) -> {
                Readiness.Answer a = readiness.read(ready, sockets.draining(), sockets.size());
                json(res, a.ready() ? Status.OK_200 : Status.SERVICE_UNAVAILABLE_503, a.body());
              })
              .get("/metrics", (req, res) -> {
                res.header(HeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
                res.send(metrics.scrape());
              });
          http.routes(r);
          for (Consumer<HttpRules> routes : appRoutes) {
            routes.accept(r);
          }
        })
        .addRouting(WsRouting.builder().endpoint("/v1/sync", sockets::newSocket))
        .build()
        .start();
    server = s;
    sweeper.scheduleAtFixedRate(sockets::sweep, 1, 1, TimeUnit.SECONDS);
    long every = Math.max(60, http.retention().toSeconds() / 24);
    sweeper.scheduleAtFixedRate(this::sweepIdempotency, every, every, TimeUnit.SECONDS);
    ready = true;
  }

  private static void json(ServerResponse res, Status status, JsonObject body) {
    res.status(status);
    res.header(HeaderNames.CONTENT_TYPE, "application/json");
    res.send(body.toString());
  }

  private void sweepIdempotency() {
    try {
      sweepIdempotencyRows();
    } catch (SQLException e) {
      System.getLogger(SyncNode.class.getName()).log(System.Logger.Level.WARNING,
          "Sweeping idempotency rows failed (retried at the next sweep): SQLState " + e.getSQLState());
    } catch (RuntimeException e) {
      System.getLogger(SyncNode.class.getName()).log(System.Logger.Level.WARNING,
          "Sweeping idempotency rows failed (retried at the next sweep)", e);
    }
  }

  /**
   * Deletes the idempotency rows older than the retention now; the node also does this every retention / 24 (at
   * least every minute).
   *
   * @return how many rows were deleted
   * @throws java.sql.SQLException when the database fails
   */
  public long sweepIdempotencyRows() throws SQLException {
    return http.sweep();
  }

  /** The port the node listens on (the requested one, or the one picked for port 0). */
  public int port() {
    WebServer s = server;
    if (s == null) {
      throw new IllegalStateException("The node is not started");
    }
    return s.port();
  }

  /** How many sockets are open. */
  public int sockets() {
    return sockets.size();
  }

  /** How many frames were dropped over a socket's outbound bound since start. */
  public long framesDropped() {
    return sockets.framesDropped();
  }

  /**
   * The node's counters now: its windows' ({@link LiveStats}), its channels' ({@link ChannelStats}), and the position,
   * time and lag of what its windows hold, as {@code hello} and {@code /readyz} report them.
   */
  public NodeStats stats() {
    // asOf first: once present it stays, so the lag read after it is present too.
    OptionalLong asOf = live.asOf();
    return new NodeStats(live.stats(), channels.stats(), live.deliveredPosition(), asOf, live.lagMillis());
  }

  /**
   * Whether every change through {@code position} has reached this node's windows and been handed to their
   * subscribers: a write whose answer carried {@code position} is in every list this node serves from now on.
   */
  public boolean settledThrough(Position position) {
    return live.settledThrough(position);
  }

  /**
   * Stops listening, closes every socket with 1001 (going away: clients reconnect after their backoff) and every
   * window, and stops reading the bus. Blocks up to 2 s, until each client has answered its close frame, so clients
   * see 1001 rather than a reset connection (1006).
   */
  public synchronized void stop() {
    ready = false;
    sweeper.shutdownNow();
    // Close frames first: Helidon's stop closes the listener and only later cuts upgraded connections, without a
    // close frame (1006), and the node no longer reads the bus meanwhile.
    sockets.close();
    WebServer s = server;
    server = null;
    if (s != null) {
      s.stop();
    }
    channels.close();
    live.close();
    metrics.close();
  }

  /**
   * Stops accepting sockets for good: {@code /readyz} answers 503 with {@code "draining": true}, so the load balancer
   * sends new clients elsewhere, and each upgrade from now on is shed with 503, {@code Retry-After} and
   * {@code X_SOCKET_LIMIT}, costing no socket. The open sockets stay; {@link #drain} moves them.
   */
  public void stopAccepting() {
    sockets.stopAccepting();
  }

  /** Whether the node has stopped accepting sockets ({@link #stopAccepting}, {@link #drain}). */
  public boolean draining() {
    return sockets.draining();
  }

  /** {@link #drain(Duration)} over the spread window the builder was given ({@link Builder#drainSpread}). */
  public CompletableFuture<Drained> drain() {
    return drain(drainSpread);
  }

  /**
   * Drains the node (SIGTERM, a deploy): stops accepting ({@link #stopAccepting}); sends every open socket a
   * {@code reconnect} frame whose {@code delayMs} is drawn uniformly over {@code [0, spread)} (its own per socket,
   * from {@link Builder#drainRandom}), so the clients reconnect spread over the window, to other nodes; a client
   * that obeys closes its socket at once, which leaves its channel topics. At the end of the window plus
   * {@link #DRAIN_GRACE} (or as soon as no socket is left) every socket still open leaves its topics, the channel bus
   * is flushed so the presence leaves reach the other nodes, and the socket is closed with 1001. Runs on a thread of
   * its own; the first call starts it and every call answers the same future, completed with the counts when the
   * drain is done. The node keeps its windows and routes until {@link #stop()}.
   *
   * @param spread the window the reconnect delays are spread over (0: every client reconnects at once)
   * @throws IllegalArgumentException for a negative spread
   */
  public CompletableFuture<Drained> drain(Duration spread) {
    return sockets.drain(spread);
  }

  /** Same as {@link #stop()}. */
  @Override
  public void close() {
    stop();
  }

  /** Collects a node's parts and limits. */
  public static final class Builder {
    private @Nullable Declarations declarations;
    private @Nullable Transport transport;
    private @Nullable DataSource dataSource;
    private @Nullable Authenticator authenticator;
    private @Nullable Tickets tickets;
    private Clock clock = Clock.systemUTC();
    private SocketLimits limits = SocketLimits.DEFAULTS;
    private AdmissionLimits admissionLimits = AdmissionLimits.DEFAULTS;
    private LongSupplier nanos = System::nanoTime;
    private String nodeId = UUID.randomUUID().toString().substring(0, 8);
    private Duration heartbeat = Duration.ofSeconds(10);
    private Duration grantCheck = GrantKeeper.DEFAULT_EVERY;
    private Duration grantGrace = GrantKeeper.DEFAULT_GRACE;
    private String host = "0.0.0.0";
    private int port = 8080;
    private int socketSendBuffer;
    private Origins origins = Origins.sameOriginOnly();
    /** The parts' own builders: an option of one part is kept, defaulted and checked there only. */
    private final LiveQueryRegistry.Builder live = LiveQueryRegistry.builder();
    private final ChannelHub.Builder channels = ChannelHub.builder();
    private final HttpApi.Builder http = HttpApi.builder();
    private final List<Consumer<HttpRules>> appRoutes = new ArrayList<>();
    private Duration drainSpread = Duration.ofSeconds(10);
    private Duration lagDegraded = DEFAULT_LAG_DEGRADED;
    private RandomGenerator drainRandom = new SplittableRandom();
    private @Nullable PrometheusMeterRegistry meters;
    private @Nullable Supplier<ReplicatorStats> replicator;

    private Builder() {}

    /**
     * The registry {@code /metrics} scrapes (default one of the node's own), for a process that runs a replicator
     * too and gives it the same registry ({@code Replicator.Builder.meters}), so one scrape shows both. The node adds
     * its meters at build, binds the JVM's (memory, GC, threads, processors) when the registry has none yet, and
     * removes the meters that read its parts when it stops, so a node started again on the registry reports its
     * own. One running node per registry.
     */
    public Builder meters(PrometheusMeterRegistry registry) {
      this.meters = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /**
     * The replicator this process runs beside the node (default none), read at each {@code /readyz}: its state
     * ({@code streaming}, {@code standby} or {@code down}) and lag are reported there, and do not decide readiness.
     *
     * <pre>{@code
     * SyncNode.builder()...replicator(replicator::stats);
     * }</pre>
     */
    public Builder replicator(Supplier<ReplicatorStats> stats) {
      this.replicator = Objects.requireNonNull(stats, "stats");
      return this;
    }

    /**
     * The lag past which {@code /readyz} lists {@code "replication_lag"} under {@code degraded} (default 5 s,
     * {@code RUNNEL_LAG_DEGRADED_MS}); it is cleared once the lag is below half of it. The status stays 200.
     *
     * @throws IllegalArgumentException for a threshold below 1 ms
     */
    public Builder lagDegraded(Duration threshold) {
      if (threshold.toMillis() < 1) {
        throw new IllegalArgumentException("The lag threshold is 1 ms or more, not " + threshold);
      }
      this.lagDegraded = threshold;
      return this;
    }

    /**
     * The window a drain spreads its sockets' reconnect delays over ({@link SyncNode#drain()}; default 10 s, shorter
     * than a window's grace period of 60 s, so the reconnecting clients find their rings on the other nodes).
     *
     * @throws IllegalArgumentException for a negative spread
     */
    public Builder drainSpread(Duration spread) {
      Objects.requireNonNull(spread, "spread");
      if (spread.isNegative()) {
        throw new IllegalArgumentException("drainSpread must be at least 0, not " + spread);
      }
      this.drainSpread = spread;
      return this;
    }

    /**
     * Where a drain draws each socket's reconnect delay from (default a {@link SplittableRandom}); a test passes a
     * seeded one. Only the drain's own thread draws from it.
     */
    public Builder drainRandom(RandomGenerator random) {
      this.drainRandom = Objects.requireNonNull(random, "random");
      return this;
    }

    /**
     * Adds the app's own HTTP routes, such as its pages and their scripts, so they are served from the node's origin
     * (which the socket's origin rule admits by default). They are registered after Runnel's routes, in the order
     * given: a request Runnel answers ({@code /v1/...}, {@code /healthz}, {@code /readyz}, {@code /metrics}) never
     * reaches them, and whatever they do not answer is a 404.
     *
     * <pre>{@code
     * SyncNode.builder()...routing(r -> r.get("/", (req, res) -> res.send(indexHtml)));
     * }</pre>
     */
    public Builder routing(Consumer<HttpRules> routes) {
      appRoutes.add(Objects.requireNonNull(routes, "routes"));
      return this;
    }

    /**
     * The browser origins admitted, as {@code scheme://host[:port]}: they may open the socket, make
     * cookie-authenticated POSTs, and get CORS headers. Default none, which admits the node's own origin only; once
     * some are given, exactly those are admitted, so list the node's own origin too when it serves the app's pages.
     *
     * @throws IllegalArgumentException for an entry that is not an http(s) origin
     */
    public Builder allowedOrigins(Collection<String> origins) {
      this.origins = Origins.of(origins);
      return this;
    }

    /**
     * The longest one statement of a mutator may run (PostgreSQL's {@code statement_timeout}; default 30 s). A call
     * whose statement runs longer is rolled back and answered {@code 504 X_TIMEOUT}, storing nothing.
     */
    public Builder mutationTimeout(Duration timeout) {
      http.statementTimeout(timeout);
      return this;
    }

    /**
     * How long answers are kept under their idempotency keys (default 24 h).
     *
     * @throws IllegalArgumentException when under 1 minute
     */
    public Builder idempotencyRetention(Duration retention) {
      http.retention(retention);
      return this;
    }

    /**
     * The size limits of every input, a {@code sub}'s {@code in} and an HTTP call's alike (default
     * {@link JsonLimits#INPUT_DEFAULTS}: depth 32, 10,000 values); past them {@code X_INPUT_INVALID}.
     */
    public Builder inputLimits(JsonLimits limits) {
      live.inputLimits(limits);
      http.inputLimits(limits);
      return this;
    }

    /**
     * The node-wide byte budget of every window's patch ring (default {@link LiveQueryRegistry#DEFAULT_RING_BYTES},
     * 64 MiB); the oldest entries go first, and a resume older than the ring keeps gets a snapshot.
     *
     * @throws IllegalArgumentException when negative
     */
    public Builder ringBytes(long bytes) {
      live.ringBytes(bytes);
      return this;
    }

    /** The channel caps and event rates (default {@link ChannelLimits#DEFAULTS}: 64 topics a socket, 10,000 a node). */
    public Builder channelLimits(ChannelLimits limits) {
      channels.limits(limits);
      return this;
    }

    /**
     * The bus that carries channel events and presence to the other nodes (default {@link ChannelBus#local()}: the
     * node runs alone). The node does not close it.
     */
    public Builder channelBus(ChannelBus bus) {
      channels.bus(bus);
      return this;
    }

    /** What drives the channels' timed work, presence diffs and heartbeat timeouts (default a daemon thread). */
    public Builder channelTicker(Ticker ticker) {
      channels.ticker(ticker);
      return this;
    }

    /** The app's declarations (required). */
    public Builder declarations(Declarations declarations) {
      this.declarations = Objects.requireNonNull(declarations, "declarations");
      return this;
    }

    /** The bus (required). */
    public Builder transport(Transport transport) {
      this.transport = Objects.requireNonNull(transport, "transport");
      return this;
    }

    /** Where window reads run (required). */
    public Builder dataSource(DataSource dataSource) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      return this;
    }

    /** Who a socket is (required). */
    public Builder authenticator(Authenticator authenticator) {
      this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
      return this;
    }

    /**
     * How often each socket's grant is decided again through {@link Authenticator#refresh} (default 30 s; also always
     * at the grant's {@code expiresAt}), on this node's clock ({@code docs/auth.md}, "Identity over time").
     *
     * @throws IllegalArgumentException when under 1 ms
     */
    public Builder grantCheck(Duration every) {
      if (Objects.requireNonNull(every, "every").toMillis() < 1) {
        throw new IllegalArgumentException("grantCheck must be at least 1 ms, not " + every);
      }
      this.grantCheck = every;
      return this;
    }

    /**
     * How long past its {@code expiresAt} a socket keeps a grant whose refresh throws (the authenticator cannot decide
     * now), asked again at each check meanwhile, before it is closed with 1008 (default 60 s; zero closes it at the
     * first failure past the expiry).
     *
     * @throws IllegalArgumentException when negative
     */
    public Builder grantGrace(Duration grace) {
      if (Objects.requireNonNull(grace, "grace").isNegative()) {
        throw new IllegalArgumentException("grantGrace may not be negative: " + grace);
      }
      this.grantGrace = grace;
      return this;
    }

    /** How tickets are signed and their single use recorded (default: a random key and an in-memory store). */
    public Builder tickets(Tickets tickets) {
      this.tickets = Objects.requireNonNull(tickets, "tickets");
      return this;
    }

    /** The clock (default UTC). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The monotonic clock, nanoseconds (default {@link System#nanoTime()}): a socket's idle budget and its frame rate
     * are measured on it, so a wall clock that jumps (NTP, a VM resumed) neither closes quiet sockets nor opens a
     * flood's gate. Tests pass a manual one ({@code ManualClock::nanos}).
     */
    public Builder monotonic(LongSupplier nanoTime) {
      this.nanos = Objects.requireNonNull(nanoTime, "nanoTime");
      return this;
    }

    /**
     * Per-socket limits: the inbound frame size, the frame rate and its burst, the outbound bound, drops, idle and the
     * send deadline (default {@link SocketLimits#DEFAULTS}).
     */
    public Builder limits(SocketLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * The admission caps: sockets per node and per actor, subscriptions per socket, actor and tenant, windows per
     * node, and the accept budget (default {@link AdmissionLimits#DEFAULTS}).
     */
    public Builder admissionLimits(AdmissionLimits limits) {
      this.admissionLimits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * How the node's parts pause when they wait for time to pass: a window between reads that did not land whole, a
     * mutator call between attempts after a serialization failure (default {@link Sleeper#SYSTEM}). A test passes one
     * it drives, so it does not wait for the pauses.
     */
    public Builder sleeper(Sleeper sleeper) {
      live.sleeper(sleeper);
      http.sleeper(sleeper);
      return this;
    }

    /** The node's name in {@code hello} answers (default random). */
    public Builder nodeId(String nodeId) {
      this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
      return this;
    }

    /**
     * The heartbeat interval clients are told, and the channels' presence heartbeat (default 10 s).
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder heartbeat(Duration heartbeat) {
      channels.heartbeat(heartbeat);
      this.heartbeat = heartbeat;
      return this;
    }

    /** The address and port to listen on (default 0.0.0.0:8080; port 0 picks a free one). */
    public Builder listen(String host, int port) {
      this.host = Objects.requireNonNull(host, "host");
      this.port = port;
      return this;
    }

    /**
     * Each connection's kernel send buffer ({@code SO_SNDBUF}, bytes; 0, the default, leaves it to the operating
     * system). A small one bounds the memory a client that stops reading can hold on the node.
     */
    public Builder socketSendBuffer(int bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("socketSendBuffer must be at least 0, not " + bytes);
      }
      this.socketSendBuffer = bytes;
      return this;
    }

    /** The node (not started). */
    public SyncNode build() {
      return new SyncNode(this);
    }
  }
}
