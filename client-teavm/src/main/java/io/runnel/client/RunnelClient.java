package io.runnel.client;

import io.runnel.client.channel.Channel;
import io.runnel.client.channel.ChannelListener;
import io.runnel.client.channel.Roster;
import io.runnel.client.channel.internal.ChannelHub;
import io.runnel.client.live.LiveQuery;
import io.runnel.client.live.QueryState;
import io.runnel.client.live.QueryView;
import io.runnel.client.live.SyncEndpoint;
import io.runnel.client.live.internal.LiveClient;
import io.runnel.client.live.internal.TopicFrames;
import io.runnel.client.outbox.Credentials;
import io.runnel.client.outbox.Mutation;
import io.runnel.client.outbox.OutboxState;
import io.runnel.client.outbox.StoreRefusedException;
import io.runnel.client.outbox.Subscription;
import io.runnel.client.outbox.internal.MutatorRegistry;
import io.runnel.client.outbox.internal.Outbox;
import io.runnel.client.port.DurableStore;
import io.runnel.client.port.HttpPort;
import io.runnel.client.port.Ids;
import io.runnel.client.port.JsonPort;
import io.runnel.client.port.PageEvents;
import io.runnel.client.port.Scheduler;
import io.runnel.client.port.SocketPort;
import io.runnel.client.port.Tabs;
import io.runnel.client.store.internal.RecordStore;
import io.runnel.dsl.Actor;
import io.runnel.dsl.ChannelRef;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.Row;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonLimits;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import io.runnel.wire.RunnelException;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The page's client, its one entry ({@code docs/dsl.md}, "The app's client bundle"): live queries, channels, mutations,
 * the connection and the outbox over one {@link RecordStore}, one {@link LiveClient} with its {@link ChannelHub}, and
 * one {@link Outbox}. The hub exists only when the refs register a channel ({@link Refs#channel(ChannelRef)}).
 *
 * <p>Design: it composes, it does not decide. The live client's connection state goes to the outbox (the outbox stops
 * sending when the connection drops, and starts again once the new connection's lists and topics have caught up, at
 * most {@link LiveClient#CATCH_UP_WAIT_MS} after the {@code hello}, so a write replayed after a reload finds the
 * records it touches in the store and is not counted twice when its echo beats its answer); the outbox asks the live
 * client to beat soon after an answer, so the write settles by the {@code hello} LSN; the store is the outbox's
 * overlay. Before the outbox hears {@code Online} it is signed in as the actor the node's {@code hello} answer named,
 * so a principal change parks the old queue (the live client has already cleared the store) before anything is sent.
 * The last actor is remembered in the durable store, so a page reloaded offline shows and keeps its queued writes under
 * the same principal, but only to display them: nothing of that queue is sent until a node's {@code hello} names the
 * same actor (the cookie or token may by now be another user's, whose {@code Online} parks it); calls made before any
 * actor is known wait in the outbox's provisional queue until the first {@code Online}. The page's {@link PageEvents}
 * cut waits short: {@code online} and a tab shown again reconnect a socket waiting out its backoff, check an open one,
 * and retry writes waiting after a network failure; {@code offline} checks the socket.
 */
public final class RunnelClient {

  /** The durable-store key of the last actor a node named. */
  static final String PRINCIPAL_KEY = "runnel.principal";

  private final Refs refs;
  private final DurableStore durable;
  private final RecordStore store;
  private final LiveClient live;
  private final @Nullable ChannelHub channels;
  private final Outbox outbox;
  private final Listeners<ConnectionState> connection = new Listeners<>();
  private final Listeners<RunnelException> errors = new Listeners<>();
  private @Nullable String principal;
  private @Nullable String remembered;
  /** The connection state last heard, to tell a new connection from a later answer of the same one. */
  private @Nullable ConnectionState lastConnection;
  private final @Nullable String orgId;
  private boolean closed;

  private RunnelClient(Builder b) {
    this.refs = Objects.requireNonNull(b.refs, "refs");
    this.durable = Objects.requireNonNull(b.durable, "durable");
    String origin = Objects.requireNonNull(b.origin, "origin");
    HttpPort http = Objects.requireNonNull(b.http, "http");
    JsonPort json = Objects.requireNonNull(b.json, "json");
    Scheduler scheduler = Objects.requireNonNull(b.scheduler, "scheduler");
    SyncEndpoint endpoint = b.endpoint != null ? b.endpoint : new TicketEndpoint(origin, b.credentials, http, json);
    this.orgId = b.orgId;
    this.store = RecordStore.create();
    for (EntityRef e : refs.entities()) {
      store.register(e);
    }
    MutatorRegistry mutators = MutatorRegistry.create();
    for (MutatorRef<?> m : refs.mutators()) {
      mutators.register(m);
    }
    ChannelHub.Factory hubs = refs.hubs();
    ChannelHub hub = hubs == null ? null : hubs.create(store, http, json, origin, b.credentials);
    this.channels = hub;
    this.live = LiveClient.builder().sockets(Objects.requireNonNull(b.sockets, "sockets")).scheduler(scheduler)
        .json(json).store(store).endpoint(endpoint).random(b.random).build(b.build).orgId(b.orgId)
        .topics(hub == null ? TopicFrames.NONE : hub).create();
    this.outbox = Outbox.builder().baseUrl(origin).http(http).store(durable).json(json)
        .ids(Objects.requireNonNull(b.ids, "ids")).scheduler(scheduler).writes(store).credentials(b.credentials)
        .registry(mutators).beatSoon(live::beatSoon).tabs(b.tabs).build();
    live.onError(errors);
    outbox.onError(errors);
    live.onConnection(this::connectionChanged);
    live.onCaughtUp(epoch -> outbox.connection(new ConnectionState.Online(epoch)));
    b.pageEvents.listen(new PageEvents.Listener() {
      @Override
      public void online() {
        awake();
      }

      @Override
      public void offline() {
        live.beatSoon();
      }

      @Override
      public void visible() {
        awake();
      }
    });
    durable.list(PRINCIPAL_KEY, stored -> {
      String last = stored.get(PRINCIPAL_KEY);
      if (last != null && remembered == null) {
        remembered = last;
      }
      if (last != null && principal == null) {
        store.actor(actorOf(last));
        outbox.remembered(last);
      }
    });
  }

  /** A builder; the ports, the node's origin and the app's refs are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Opens the socket; the client keeps one open from now on until {@link #close()}.
   *
   * @throws IllegalStateException after {@link #close()}
   */
  public void connect() {
    if (closed) {
      throw new IllegalStateException("This client was closed, and a closed client stays closed: create a new "
          + "RunnelClient for the page.");
    }
    live.start();
  }

  /**
   * Stops everything, for good: the socket closes and never reconnects, connection listeners hear
   * {@link ConnectionState.Closed}, the outbox's retry timer is cancelled and nothing more is sent (an answer on its
   * way still settles its write), and the outbox's lock is released, so another open tab of the origin sends the
   * queue. Queued writes, and calls made after this, stay in the durable store for that tab or the next page.
   */
  public void close() {
    closed = true;
    live.stop();
    outbox.stop();
  }

  /**
   * Subscribes to live query {@code ref} with {@code input}; {@code listener} hears its view now and every change.
   * The handle's {@link LiveQuery#release()} ends it.
   *
   * @throws IllegalArgumentException when the query is not live
   */
  public <I> LiveQuery query(QueryRef<I> ref, I input, Consumer<QueryView> listener) {
    Objects.requireNonNull(listener, "listener");
    LiveQuery q = live.query(Objects.requireNonNull(ref, "ref"), input);
    q.listen(listener);
    return q;
  }

  /**
   * Subscribes to the registered live query named {@code name} with JSON {@code input}, as a page calls it. A name
   * no registered ref declares, or a one-shot query, gets a handle already {@link QueryState.Failed} with
   * {@code X_LIVE_QUERY_UNKNOWN}, as the node would refuse it; nothing is sent.
   *
   * @throws io.runnel.wire.InputInvalidException when the registered codec refuses {@code input}
   */
  public LiveQuery query(String name, JsonValue input, Consumer<QueryView> listener) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(listener, "listener");
    QueryRef<?> ref = refs.query(Objects.requireNonNull(name, "name"));
    if (ref == null) {
      return failed(name, "No query named '" + name + "' is registered in this bundle, so it cannot be subscribed.",
          "Register the query's ref in the app's bundle (Refs.query) or check its name; the node refuses a query it "
          + "does not declare with the same code.", listener);
    }
    if (!ref.live()) {
      return failed(name, "Query '" + name + "' is one-shot, not live: only live queries are subscribed.",
          "Read it once over HTTP (GET /v1/query/" + name + "), or declare it live.", listener);
    }
    return queryJson(ref, input, listener);
  }

  private LiveQuery failed(String name, String cause, String fix, Consumer<QueryView> listener) {
    LiveQuery q = live.failed(name, new QueryState.Failed(ErrorCode.X_LIVE_QUERY_UNKNOWN.name(), cause, fix));
    q.listen(listener);
    return q;
  }

  private <I> LiveQuery queryJson(QueryRef<I> ref, JsonValue input, Consumer<QueryView> listener) {
    return query(ref, ref.decodeInput(input, JsonLimits.INPUT_DEFAULTS), listener);
  }

  /**
   * Opens channel {@code ref}'s topic for {@code params} (a text value per param, by name), announcing
   * {@code presence} as the page's meta (null: none): joined now when online, else when the connection comes, again
   * on every reconnect, and repeated with every heartbeat (refreshing the meta). {@code listener} hears the state
   * and the roster now and at every change, and each broadcast event; a records channel's rows go into the record
   * store. The handle's {@link Channel#release()} leaves.
   *
   * @throws InputInvalidException ({@code X_INPUT_INVALID}) when no channel of the ref's name is registered in the
   *     refs, or a param is missing or not the channel's
   */
  public Channel channel(ChannelRef ref, Map<String, String> params, @Nullable JsonObject presence,
      ChannelListener listener) {
    JsonObject.Builder json = JsonObject.builder();
    for (Map.Entry<String, String> e : params.entrySet()) {
      json.put(e.getKey(), Objects.requireNonNull(e.getValue(), "param value"));
    }
    return hub(ref.name()).open(ref, json.build(), presence, listener);
  }

  /**
   * Opens the registered channel named {@code name} with JSON {@code params} ({@code {"orgId": "acme"}}) and JSON
   * {@code presence} meta (an object, or null for none), as a page calls it; otherwise as
   * {@link #channel(ChannelRef, Map, JsonObject, ChannelListener)}.
   *
   * @throws InputInvalidException ({@code X_INPUT_INVALID}) when no registered ref has that name, the params do not
   *     fit, or the meta is not an object
   */
  public Channel channel(String name, JsonValue params, @Nullable JsonValue presence, ChannelListener listener) {
    ChannelHub hub = hub(Objects.requireNonNull(name, "name"));
    if (!(params instanceof JsonObject p) || (presence != null && !(presence instanceof JsonObject))) {
      throw new InputInvalidException(params instanceof JsonObject ? "presence" : "params", "must be an object",
          "Give the params and the presence meta as JSON objects.");
    }
    // hub(name) checked that the ref is registered.
    return hub.open(Objects.requireNonNull(refs.channel(name)), p, (JsonObject) presence, listener);
  }

  /**
   * The topic of the registered channel named {@code name} for JSON {@code params}, as {@code channel} joins it:
   * {@code <name>.<param>…} with each param percent-encoded ({@code docs/protocol.md}, "Topics"), for a page that names
   * the topic itself (say, to post an event to {@code /v1/channels/{topic}/events}).
   *
   * @throws InputInvalidException ({@code X_INPUT_INVALID}) when no registered ref has that name or the params do
   *     not fit
   */
  public String topic(String name, JsonValue params) {
    ChannelHub hub = hub(Objects.requireNonNull(name, "name"));
    if (!(params instanceof JsonObject p)) {
      throw new InputInvalidException("params", "must be an object", "Give the params as a JSON object.");
    }
    return hub.topic(Objects.requireNonNull(refs.channel(name)), p); // hub(name) checked it
  }

  private ChannelHub hub(String name) {
    ChannelHub hub = channels;
    if (hub == null || refs.channel(name) == null) {
      throw new InputInvalidException("name", "names no channel this bundle registers ('" + name + "')",
          "Register the channel's ref in the app's bundle (Refs.channel), or check the name.");
    }
    return hub;
  }

  /**
   * Calls {@code listener} with the roster of channel {@code ref}'s topic for {@code params} now and after every
   * presence change, joining the topic without announcing this page; cancelling leaves (when no other handle holds
   * the topic).
   *
   * @throws InputInvalidException ({@code X_INPUT_INVALID}) when a param is missing or not the channel's
   */
  public Subscription presence(ChannelRef ref, Map<String, String> params, Consumer<Roster> listener) {
    Objects.requireNonNull(listener, "listener");
    return channel(ref, params, null, new ChannelListener() {
      @Override
      public void presence(Roster roster) {
        listener.accept(roster);
      }
    });
  }

  /**
   * Calls mutator {@code ref} with {@code input}: its twin runs into the overlay now, and it is sent now or when the
   * network returns; the handle settles with the node's answer. Before any node has named the page's actor (never
   * connected, nothing remembered) the call waits in the outbox's provisional queue and is sent as the actor the
   * first {@code hello} answer names.
   */
  public <I> Mutation mutate(MutatorRef<I> ref, I input) {
    return outbox.mutate(ref, input);
  }

  /**
   * Calls the mutator named {@code name} with JSON {@code input}, as {@link #mutate(MutatorRef, Object)}; a name with
   * no registered ref goes out with no overlay.
   *
   * @throws io.runnel.wire.InputInvalidException when the registered codec refuses {@code input}
   */
  public Mutation mutate(String name, JsonValue input) {
    return outbox.mutate(name, input);
  }

  /**
   * Calls {@code listener} with record {@code type:key} as the page shows it (synced truth with the pending writes'
   * overlay) now, and again after each batch of changes in which it changed, until cancelled; null while the page
   * holds no such record. The page holds only the records that one of its live queries returned or a pending write
   * made: a record no subscription covers is null here, even when the server has it.
   *
   * @throws InputInvalidException ({@code X_INPUT_INVALID}) when no entity named {@code type} is registered
   */
  public Subscription record(String type, String key, Consumer<@Nullable Row> listener) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(listener, "listener");
    if (refs.entity(Objects.requireNonNull(type, "type")) == null) {
      throw new InputInvalidException("type", "names no entity this bundle registers ('" + type + "')",
          "Use the name of an entity the app's bundle registers (Refs.entity): a record's type is its entity's name.");
    }
    return new RecordWatch(store, type, key, listener);
  }

  /** Calls {@code listener} with the connection's state now and with every change, until cancelled. */
  public Subscription connection(Consumer<ConnectionState> listener) {
    Subscription s = connection.add(Objects.requireNonNull(listener, "listener"));
    listener.accept(live.connection());
    return s;
  }

  /** Calls {@code listener} with the outbox (pending and failed writes) now and after every change, until cancelled. */
  public Subscription outbox(Consumer<OutboxState> listener) {
    return outbox.listen(Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Calls {@code listener} with each error not tied to a call: unreadable frames, rejected records, twins that threw,
   * writes the durable store refused.
   */
  public Subscription errors(Consumer<RunnelException> listener) {
    return errors.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Forgets failed write {@code writeId} once the page has shown it. */
  public void dismiss(String writeId) {
    outbox.dismiss(writeId);
  }

  /** The page says the network is back, or the tab is shown again: wait no longer. */
  private void awake() {
    live.reconnectNow();
    outbox.retryNow();
  }

  private void connectionChanged(ConnectionState state) {
    boolean sameConnection = state instanceof ConnectionState.Online now
        && lastConnection instanceof ConnectionState.Online before && before.epoch() == now.epoch();
    lastConnection = state;
    if (sameConnection) {
      // Only the node's lag moved: the page hears it, the outbox and the sign-in have nothing new to do.
      connection.accept(state);
      return;
    }
    if (state instanceof ConnectionState.Online) {
      // The outbox hears Online once the lists caught up (live.onCaughtUp): a write replayed now could be echoed
      // into records the store does not hold yet, and its twin would then count it twice.
      outbox.catchingUp();
      String actor = live.actorId();
      if (actor != null) {
        signIn(actor);
        if (!actor.equals(remembered)) {
          remembered = actor;
          if (!durable.put(PRINCIPAL_KEY, actor)) {
            errors.accept(new StoreRefusedException(PRINCIPAL_KEY));
          }
        }
      }
    } else {
      outbox.connection(state);
    }
    connection.accept(state);
  }

  /** The actor twins see for principal {@code id} ({@code ""} for an anonymous page), with the page's org. */
  private Actor actorOf(String id) {
    return id.isEmpty() ? Actor.anonymous() : Actor.user(id).inOrg(orgId);
  }

  private void signIn(String actor) {
    principal = actor;
    store.actor(actorOf(actor));
    outbox.principal(actor);
  }

  /** One {@link #record} listener: hears the row now, and again after each store batch that changed it. */
  private static final class RecordWatch implements Runnable, Subscription {
    private final RecordStore store;
    private final String type;
    private final String key;
    private final Consumer<@Nullable Row> listener;
    private @Nullable Row last;

    RecordWatch(RecordStore store, String type, String key, Consumer<@Nullable Row> listener) {
      this.store = store;
      this.type = type;
      this.key = key;
      this.listener = listener;
      last = store.get(type, key);
      listener.accept(last);
      store.listen(this);
    }

    @Override
    public void run() {
      Row now = store.get(type, key);
      Row before = last;
      if (before == null ? now != null : now == null || !store.sameRow(type, before, now)) {
        last = now;
        listener.accept(now);
      }
    }

    @Override
    public void cancel() {
      store.unlisten(this);
    }
  }

  /** Collects a {@link RunnelClient}'s ports, endpoint, credentials and the app's refs. */
  public static final class Builder {
    private @Nullable SocketPort sockets;
    private @Nullable HttpPort http;
    private @Nullable DurableStore durable;
    private @Nullable JsonPort json;
    private @Nullable Ids ids;
    private @Nullable Scheduler scheduler;
    private @Nullable String origin;
    private @Nullable Refs refs;
    private @Nullable SyncEndpoint endpoint;
    private Credentials credentials = Credentials.cookie();
    private DoubleSupplier random = Math::random;
    private @Nullable String build;
    private @Nullable String orgId;
    private Tabs tabs = Tabs.alone();
    private PageEvents pageEvents = PageEvents.none();

    private Builder() {}

    /** The ports: socket, HTTP, durable store, JSON text, random ids and the scheduler (timers and the clock). */
    public Builder ports(SocketPort sockets, HttpPort http, DurableStore durable, JsonPort json, Ids ids,
        Scheduler scheduler) {
      this.sockets = Objects.requireNonNull(sockets, "sockets");
      this.http = Objects.requireNonNull(http, "http");
      this.durable = Objects.requireNonNull(durable, "durable");
      this.json = Objects.requireNonNull(json, "json");
      this.ids = Objects.requireNonNull(ids, "ids");
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /** The node's origin, such as {@code https://app.example.com}: calls, tickets and the socket go there. */
    public Builder origin(String origin) {
      TicketEndpoint.socketOrigin(Objects.requireNonNull(origin, "origin"));
      this.origin = origin;
      return this;
    }

    /** The app's declarations: entities, query refs and mutator refs by name. */
    public Builder refs(Refs refs) {
      this.refs = Objects.requireNonNull(refs, "refs");
      return this;
    }

    /** Where identity comes from (default: the session cookie); a bearer token also buys each socket a ticket. */
    public Builder credentials(Credentials credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
      return this;
    }

    /** Where each socket attempt goes (default: {@code /v1/sync} on the origin, with a ticket for a bearer token). */
    public Builder endpoint(SyncEndpoint endpoint) {
      this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
      return this;
    }

    /** The random source for reconnect jitter, draws in [0, 1) (default {@code Math.random}). */
    public Builder random(DoubleSupplier random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    /**
     * The page's sibling tabs (default {@link Tabs#alone()}): one tab of the origin drains a principal's outbox at a
     * time, and every tab hears each write's outcome.
     */
    public Builder tabs(Tabs tabs) {
      this.tabs = Objects.requireNonNull(tabs, "tabs");
      return this;
    }

    /**
     * The page's network and visibility events (default {@link PageEvents#none()}): {@code online} and a tab shown
     * again reconnect at once instead of waiting out the backoff.
     */
    public Builder pageEvents(PageEvents pageEvents) {
      this.pageEvents = Objects.requireNonNull(pageEvents, "pageEvents");
      return this;
    }

    /** The build label sent in {@code hello}, or null. */
    public Builder build(@Nullable String build) {
      this.build = build;
      return this;
    }

    /**
     * The org of the signed-in actor as the app knows it (e.g. from its token's claims), or null (the default): twins
     * see it as {@code tx.actor().orgId()} and queries that read {@code actor.orgId()} place optimistic records by
     * it. It shapes only what the page shows before the node answers; the node decides every write.
     */
    public Builder orgId(@Nullable String orgId) {
      this.orgId = orgId;
      return this;
    }

    /**
     * The client, not yet connected.
     *
     * @throws NullPointerException when the ports, the origin or the refs are missing
     */
    public RunnelClient create() {
      return new RunnelClient(this);
    }
  }
}
