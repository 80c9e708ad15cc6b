package io.runnel.sync.http.internal;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.runnel.dsl.Actor;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Mutator;
import io.runnel.protocol.ReadAnswer;
import io.runnel.protocol.WireRecord;
import io.runnel.sync.auth.Authenticator;
import io.runnel.sync.auth.Grant;
import io.runnel.sync.auth.Tickets;
import io.runnel.sync.channel.ChannelException;
import io.runnel.sync.channel.internal.ChannelHub;
import io.runnel.sync.http.Origins;
import io.runnel.sync.live.internal.LiveQueryRegistry;
import io.runnel.time.Sleeper;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonLimits;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import io.runnel.wire.RunnelException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The node's HTTP routes besides the socket ({@code docs/protocol.md}, "HTTP surface"):
 * {@code POST /v1/mutate/{mutator}}, {@code GET /v1/query/{query}?input=}, {@code POST /v1/tickets},
 * {@code POST /v1/channels/{topic}/events} (when a channel hub is given), CORS preflights for configured origins, and
 * the idempotency store's upkeep.
 *
 * <pre>{@code
 * HttpApi api = HttpApi.builder().declarations(d).dataSource(pool).live(registry).authenticator(auth)
 *     .tickets(tickets).build();
 * api.start();                       // creates runnel.idempotency when missing
 * routing.register(api::routes);     // or api.routes(httpRoutingBuilder)
 * }</pre>
 */
public final class HttpApi {

  /** The largest request body read, 1 MiB ({@code docs/protocol.md}, "Codes": {@code X_PAYLOAD_TOO_LARGE}). */
  public static final int MAX_BODY_BYTES = Bodies.MAX_BYTES;

  /** The largest body read to its end before a 413 is answered, 16 MiB; the HTTP stack cuts a larger one short. */
  public static final int MAX_DRAINED_BYTES = Bodies.DRAIN_BYTES;

  /** The longest request line (method, path with {@code ?input=}, version), 64 KiB; longer is 414. */
  public static final int MAX_REQUEST_LINE = 64 * 1024;

  private static final HeaderName IDEMPOTENCY_KEY = HeaderNames.create("Idempotency-Key");

  private final Declarations declarations;
  private final LiveQueryRegistry live;
  private final Tickets tickets;
  private final Identity identity;
  private final Cors cors;
  private final IdempotencyStore store;
  private final MutationService mutations;
  private final Clock clock;
  private final Duration retention;
  private final JsonLimits inputLimits;
  private final MeterRegistry meters;
  private final @Nullable ChannelHub channels;

  private HttpApi(Builder b) {
    this.declarations = Objects.requireNonNull(b.declarations, "declarations");
    this.live = Objects.requireNonNull(b.live, "live");
    this.tickets = Objects.requireNonNull(b.tickets, "tickets");
    this.clock = b.clock;
    this.cors = new Cors(b.origins);
    this.identity = new Identity(Objects.requireNonNull(b.authenticator, "authenticator"), b.clock, b.origins);
    this.store = new IdempotencyStore(Objects.requireNonNull(b.dataSource, "dataSource"));
    this.retention = b.retention;
    this.inputLimits = b.inputLimits;
    this.meters = b.meters;
    this.channels = b.channels;
    this.mutations = new MutationService(b.dataSource, store, b.clock, b.retention, b.inFlightWait, b.maxAttempts,
        b.statementTimeout, b.sleeper);
  }

  /** A builder; declarations, a data source, the live registry, an authenticator and tickets are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Creates {@code runnel.idempotency} when it is missing.
   *
   * @throws SQLException when the database refuses (for example, the node's role may not create a schema: create
   *     it with the DDL in {@code docs/writes.md})
   */
  public void start() throws SQLException {
    store.create();
  }

  /**
   * Deletes the idempotency rows older than the retention now (the node also does this on a schedule).
   *
   * @return how many rows were deleted
   * @throws SQLException when the database fails
   */
  public long sweep() throws SQLException {
    return store.sweep(clock.instant().minus(retention));
  }

  /** The idempotency retention. */
  public Duration retention() {
    return retention;
  }

  /** Registers the routes on {@code routing}. */
  public void routes(HttpRouting.Builder routing) {
    routing
        .addFilter((chain, req, res) -> {
          cors.headers(req, res);
          chain.proceed();
        })
        .route(Method.OPTIONS, "/v1/*", (req, res) -> {
          HttpRefusal refused = cors.preflight(req, res);
          if (refused != null) {
            refuse(res, refused);
          }
        })
        .post("/v1/mutate/{mutator}", this::mutate)
        .get("/v1/query/{query}", this::query)
        .post("/v1/tickets", this::ticket);
    if (channels != null) {
      routing.post("/v1/channels/{topic}/events", this::event);
    }
  }

  /**
   * {@code POST /v1/channels/{topic}/events}: {@code { "event", "payload" }} broadcast to the topic's members, at
   * most once; {@code 202 { "delivered": n }}, n counting this node's member sockets that took the frame. The
   * topic is one path segment, percent-encoded as a segment (its own {@code %} is {@code %25}).
   */
  private void event(ServerRequest req, ServerResponse res) {
    try {
      Actor actor = identity.of(req, true).actor();
      String topic = req.path().pathParameters().get("topic");
      Bodies.Event event = Bodies.eventOf(Bodies.read(req));
      int delivered;
      try {
        delivered = Objects.requireNonNull(channels, "the route is made only with a hub")
            .publish(actor, req.remotePeer().host(), topic, event.event(), event.payload());
      } catch (ChannelException e) {
        throw new HttpRefusal(HttpRefusal.statusOf(e.code()), e.retryAfterSeconds(), e.code(), e.cause(), e.fix());
      }
      Responses.json(res, 202, JsonObject.builder().put("delivered", delivered).build().toString());
    } catch (HttpRefusal r) {
      refuse(res, r);
    } catch (RuntimeException | Error e) {
      failed(res, e, "POST /v1/channels/{topic}/events");
    }
  }

  /** {@code POST /v1/mutate/{mutator}}. */
  private void mutate(ServerRequest req, ServerResponse res) {
    try {
      Actor actor = identity.of(req, true).actor();
      String key = req.headers().first(IDEMPOTENCY_KEY).orElse(null);
      if (key == null || !Bodies.validKey(key)) {
        throw new HttpRefusal(400, ErrorCode.X_IDEMPOTENCY_KEY_REQUIRED,
            key == null ? "The call carried no Idempotency-Key header."
                : "The Idempotency-Key is not 1 to 128 visible ASCII characters.",
            "Send Idempotency-Key: a new random value (a UUID) per call, the same one when retrying it.");
      }
      String name = req.path().pathParameters().get("mutator");
      Mutator<?> mutator = declarations.mutator(name).orElseThrow(() -> new HttpRefusal(404,
          ErrorCode.X_MUTATOR_UNKNOWN, "No mutator is declared as '" + name + "'.",
          "Call a declared mutator by its name."));
      if (!mutator.policy().admits(actor)) {
        throw new HttpRefusal(403, ErrorCode.X_FORBIDDEN, "The policy of '" + name + "' refuses this actor.",
            "Sign in as an actor the mutator's policy admits.");
      }
      JsonValue input = Bodies.inputOf(Bodies.read(req));
      long started = System.nanoTime();
      MutationService.Answer a = invoke(mutator, actor, key, input);
      Timer.builder("runnel_mutations").description("Mutator calls by outcome: ok, refused, replayed, reused, "
          + "in_flight, failed").tag("mutator", name).tag("outcome", a.outcome()).register(meters)
          .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
      if (a.retryAfterSeconds() > 0) {
        res.header(HeaderNames.RETRY_AFTER, Integer.toString(a.retryAfterSeconds()));
      }
      Responses.json(res, a.status(), a.body());
    } catch (HttpRefusal r) {
      refuse(res, r);
    } catch (RuntimeException | Error e) {
      failed(res, e, "POST " + req.path().path());
    }
  }

  private void refuse(ServerResponse res, HttpRefusal r) {
    Counter.builder("runnel_refusals").tag("code", r.code().name()).description("Refusals by code").register(meters)
        .increment();
    Responses.refusal(res, r);
  }

  private <I> MutationService.Answer invoke(Mutator<I> mutator, Actor actor, String key, JsonValue input) {
    I decoded;
    try {
      decoded = mutator.ref().decodeInput(input, inputLimits);
    } catch (RunnelException e) {
      throw new HttpRefusal(422, ErrorCode.X_INPUT_INVALID, e.cause(), e.fix());
    }
    return mutations.call(mutator, actor, key, decoded, input);
  }

  /** {@code GET /v1/query/{query}?input=}. */
  private void query(ServerRequest req, ServerResponse res) {
    try {
      Actor actor = identity.of(req, false).actor();
      String name = req.path().pathParameters().get("query");
      JsonValue input = req.query().contains("input") ? Bodies.parse(req.query().get("input"), "The input")
          : JsonObject.EMPTY;
      ReadAnswer read;
      try {
        read = live.read(actor, name, input);
      } catch (RunnelException e) {
        throw new HttpRefusal(HttpRefusal.statusOf(e.code()), e.code(), e.cause(), e.fix());
      }
      List<JsonValue> records = new ArrayList<>(read.records().size());
      for (WireRecord r : read.records()) {
        records.add(r.toJson());
      }
      Responses.json(res, 200, JsonObject.builder().put("records", new JsonArray(records))
          .put("lsn", read.lsn().toString()).build().toString());
    } catch (HttpRefusal r) {
      refuse(res, r);
    } catch (SQLException | RuntimeException | Error e) {
      failed(res, e, "GET " + req.path().path());
    }
  }

  /** {@code POST /v1/tickets}: a single-use, 30 s ticket for the caller's identity. */
  private void ticket(ServerRequest req, ServerResponse res) {
    try {
      Grant grant = identity.of(req, true);
      Tickets.Issued t = tickets.issue(grant.actor(), grant.expiresAt());
      Responses.json(res, 200, JsonObject.builder().put("ticket", t.ticket()).put("expiresAt", t.expiresAt())
          .build().toString());
    } catch (HttpRefusal r) {
      refuse(res, r);
    } catch (RuntimeException | Error e) {
      failed(res, e, "POST /v1/tickets");
    }
  }

  /** A 500 with an errorId for anything unexpected; the JVM's own failures (out of memory) go on up. */
  private static void failed(ServerResponse res, Throwable e, String what) {
    if (e instanceof VirtualMachineError fatal) {
      throw fatal;
    }
    Responses.json(res, 500, Responses.internal(e, what));
  }

  /** Collects the routes' parts and settings. */
  public static final class Builder {
    private @Nullable Declarations declarations;
    private @Nullable DataSource dataSource;
    private @Nullable LiveQueryRegistry live;
    private @Nullable Authenticator authenticator;
    private @Nullable Tickets tickets;
    private Clock clock = Clock.systemUTC();
    private Origins origins = Origins.sameOriginOnly();
    private Duration retention = Duration.ofHours(24);
    private Duration inFlightWait = Duration.ofSeconds(10);
    private int maxAttempts = 5;
    private Duration statementTimeout = Duration.ofSeconds(30);
    private JsonLimits inputLimits = JsonLimits.INPUT_DEFAULTS;
    private Sleeper sleeper = Sleeper.SYSTEM;
    private MeterRegistry meters = new SimpleMeterRegistry();
    private @Nullable ChannelHub channels;

    private Builder() {}

    /** The node's channels, which serve {@code POST /v1/channels/{topic}/events} (default none: no such route). */
    public Builder channels(ChannelHub channels) {
      this.channels = Objects.requireNonNull(channels, "channels");
      return this;
    }

    /**
     * Where the routes' meters go (default a registry of their own): {@code runnel_mutations{mutator, outcome}}
     * (a timer) and {@code runnel_refusals{code}}.
     */
    public Builder meters(MeterRegistry meters) {
      this.meters = Objects.requireNonNull(meters, "meters");
      return this;
    }

    /** The app's declarations (required). */
    public Builder declarations(Declarations declarations) {
      this.declarations = Objects.requireNonNull(declarations, "declarations");
      return this;
    }

    /** The pool mutator calls and reads run on (required). */
    public Builder dataSource(DataSource dataSource) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
      return this;
    }

    /** The live-query engine, which also serves one-shot reads (required). */
    public Builder live(LiveQueryRegistry live) {
      this.live = Objects.requireNonNull(live, "live");
      return this;
    }

    /** Who a call is (required). */
    public Builder authenticator(Authenticator authenticator) {
      this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
      return this;
    }

    /** Where tickets are issued (required). */
    public Builder tickets(Tickets tickets) {
      this.tickets = Objects.requireNonNull(tickets, "tickets");
      return this;
    }

    /** The clock for grants and idempotency rows (default UTC). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The browser origins admitted besides the node's own (default none). */
    public Builder origins(Origins origins) {
      this.origins = Objects.requireNonNull(origins, "origins");
      return this;
    }

    /**
     * How long an answer is kept under its idempotency key (default 24 h; at least 1 minute). A client must not
     * replay a key older than this ({@code X_OFFLINE_QUEUE_ABANDONED}).
     */
    public Builder retention(Duration retention) {
      if (Objects.requireNonNull(retention, "retention").compareTo(Duration.ofMinutes(1)) < 0) {
        throw new IllegalArgumentException("The idempotency retention must be at least 1 minute, not " + retention);
      }
      this.retention = retention;
      return this;
    }

    /**
     * How long a call waits for another call with its key on this node before answering
     * {@code 409 X_IDEMPOTENCY_IN_FLIGHT} (default 10 s; zero answers at once).
     */
    public Builder inFlightWait(Duration wait) {
      if (Objects.requireNonNull(wait, "wait").isNegative()) {
        throw new IllegalArgumentException("inFlightWait cannot be negative: " + wait);
      }
      this.inFlightWait = wait;
      return this;
    }

    /** How many times a call PostgreSQL aborts as a serialization failure or deadlock is run (default 5, 1–20). */
    public Builder maxAttempts(int attempts) {
      if (attempts < 1 || attempts > 20) {
        throw new IllegalArgumentException("maxAttempts must be 1 to 20, not " + attempts);
      }
      this.maxAttempts = attempts;
      return this;
    }

    /**
     * The longest a statement of a mutator may run (PostgreSQL's {@code statement_timeout}, default 30 s); one that
     * runs longer is cancelled and the call answers {@code 504 X_TIMEOUT}, storing nothing.
     */
    public Builder statementTimeout(Duration timeout) {
      if (Objects.requireNonNull(timeout, "timeout").isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("statementTimeout must be positive: " + timeout);
      }
      this.statementTimeout = timeout;
      return this;
    }

    /**
     * How a call PostgreSQL aborted as a serialization failure or deadlock pauses before it runs again (default
     * {@link Sleeper#SYSTEM}, with full jitter up to 10 ms × 2^attempt); a test passes one it drives.
     */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /** The size limits of inputs (default {@link JsonLimits.INPUT_DEFAULTS}: depth 32, 10,000 nodes). */
    public Builder inputLimits(JsonLimits limits) {
      this.inputLimits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** The routes. */
    public HttpApi build() {
      return new HttpApi(this);
    }
  }
}
