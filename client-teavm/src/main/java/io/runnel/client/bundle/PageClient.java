package io.runnel.client.bundle;

import io.runnel.client.ConnectionState;
import io.runnel.client.Refs;
import io.runnel.client.RunnelClient;
import io.runnel.client.channel.ChannelListener;
import io.runnel.client.channel.ChannelState;
import io.runnel.client.channel.Roster;
import io.runnel.client.live.LiveQuery;
import io.runnel.client.live.QueryState;
import io.runnel.client.live.QueryView;
import io.runnel.client.outbox.Mutation;
import io.runnel.client.outbox.MutationError;
import io.runnel.client.outbox.MutationOutcome;
import io.runnel.client.outbox.OutboxState;
import io.runnel.client.outbox.Subscription;
import io.runnel.client.port.JsonPort;
import io.runnel.client.store.ClientRecord;
import io.runnel.dsl.EntityRef;
import io.runnel.protocol.PresenceMember;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonValue;
import io.runnel.wire.RunnelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A connected {@link RunnelClient} as a page calls it ({@code docs/dsl.md}, "The app's client bundle"): inputs are JSON
 * text, and every listener hears JSON text. A call never throws: a refused query is a view with {@code "status":
 * "failed"}, a refused mutation an outcome with an {@code "error"}, each {@code {"code", "cause", "fix"}} with the
 * protocol's codes. The bundles' entry classes wrap it for JavaScript ({@code io.runnel.client.browser.JsClient}).
 */
public final class PageClient {

  /** What a call refused at once answers: cancelling it does nothing. */
  private static final Subscription NOTHING = () -> { };

  private final RunnelClient client;
  private final Refs refs;
  private final JsonPort json;

  /** The page's API over {@code client}, whose refs are {@code refs}, with JSON text through {@code json}. */
  public PageClient(RunnelClient client, Refs refs, JsonPort json) {
    this.client = Objects.requireNonNull(client, "client");
    this.refs = Objects.requireNonNull(refs, "refs");
    this.json = Objects.requireNonNull(json, "json");
  }

  /** Opens the socket ({@link RunnelClient#connect()}); the client keeps one open until {@link #close()}. */
  public void connect() {
    client.connect();
  }

  /**
   * Subscribes to the live query named {@code name} with JSON {@code input}. {@code onView} hears {@code {"status":
   * "pending"|"ready"|"failed", "error"?, "records": [{"type", "key", "record"}]}} now and at every change; a
   * query the bundle does not know, or an input its codec refuses, is one failed view. The runnable ends it.
   */
  public Runnable query(String name, String input, Consumer<String> onView) {
    Objects.requireNonNull(onView, "onView");
    LiveQuery q;
    try {
      q = client.query(name, json.parse(input), view -> onView.accept(json.write(view(view))));
    } catch (RunnelException e) {
      onView.accept(failedView(e.toJson()));
      return () -> { };
    }
    return q::release;
  }

  /**
   * Calls the mutator named {@code name} with JSON {@code input}: its twin runs into the overlay now, and the call
   * is sent now or when the network returns. {@code onOutcome} hears, once, {@code {"writeId", "result"}} or
   * {@code {"writeId"?, "error": {"code", "status"?, "cause", "fix"}}}; a refused input answers at once.
   */
  public void mutate(String name, String input, Consumer<String> onOutcome) {
    Objects.requireNonNull(onOutcome, "onOutcome");
    Mutation m;
    try {
      m = client.mutate(name, json.parse(input));
    } catch (RunnelException e) {
      onOutcome.accept(json.write(JsonObject.builder().put("error", e.toJson()).build()));
      return;
    }
    String writeId = m.writeId();
    m.onSettled(outcome -> onOutcome.accept(json.write(outcome(writeId, outcome))));
  }

  /**
   * {@code onRecord} hears {@code {"type", "key", "record": {…} | null}} for record {@code type:key} as the page shows
   * it (the overlay applied; null while no live query or pending write holds it) now and at every change, until the
   * subscription is cancelled ({@link RunnelClient#record}). A type the bundle does not know is one answer with
   * {@code "record": null} and an {@code "error"}.
   */
  public Subscription record(String type, String key, Consumer<String> onRecord) {
    Objects.requireNonNull(onRecord, "onRecord");
    EntityRef entity = refs.entity(type);
    try {
      return client.record(type, key, row -> onRecord.accept(json.write(JsonObject.builder().put("type", type)
          .put("key", key).put("record", row == null || entity == null ? JsonNull.NULL : entity.rowToJson(row))
          .build())));
    } catch (RunnelException e) {
      onRecord.accept(json.write(JsonObject.builder().put("type", type).put("key", key).put("record", JsonNull.NULL)
          .put("error", e.toJson()).build()));
      return NOTHING;
    }
  }

  /**
   * Opens the registered channel named {@code name} with JSON {@code params} ({@code {"orgId": "acme"}}), announcing
   * JSON {@code presence} (an object) as the page's meta, or none when null. {@code onState} hears {@code {"state":
   * "joining"|"catching-up"|"live"|"offline"|"failed", "error"?}} and {@code onRoster} {@code {"members": [{"key",
   * "meta", "since"}], "total"}} now and at every change, {@code onEvent} hears {@code {"event", "payload"}} for each
   * broadcast; cancelling the subscription leaves. It never throws: a channel the bundle does not know, params that
   * do not fit or a meta that is not an object are one failed state, and nothing is sent.
   */
  public Subscription channel(String name, String params, @Nullable String presence, Consumer<String> onState,
      Consumer<String> onEvent, Consumer<String> onRoster) {
    ChannelRelay relay = new ChannelRelay(json, Objects.requireNonNull(onState, "onState"),
        Objects.requireNonNull(onEvent, "onEvent"), Objects.requireNonNull(onRoster, "onRoster"));
    try {
      return client.channel(name, json.parse(params), presence == null ? null : json.parse(presence), relay);
    } catch (RunnelException e) {
      relay.failed(e);
      return NOTHING;
    }
  }

  /**
   * Watches the roster of the registered channel named {@code name} with JSON {@code params}, joining its topic
   * without announcing the page ({@link RunnelClient#presence}): {@code onRoster} hears {@code {"members": [{"key",
   * "meta", "since"}], "total"}} now and at every change; cancelling leaves (when no other handle holds the topic).
   * It never throws: a channel the bundle does not know or params that do not fit are one roster
   * {@code {"members": [], "total": 0, "error"}} and nothing is sent, and a node that refuses the join answers one
   * such roster with its error.
   */
  public Subscription presence(String name, String params, Consumer<String> onRoster) {
    Objects.requireNonNull(onRoster, "onRoster");
    ChannelRelay relay = new ChannelRelay(json, null, null, onRoster);
    try {
      return client.channel(name, json.parse(params), null, relay);
    } catch (RunnelException e) {
      relay.failed(e);
      return NOTHING;
    }
  }

  /**
   * The topic of the registered channel named {@code name} for JSON {@code params}, as {@link #channel} joins it
   * ({@link RunnelClient#topic}); null when the bundle does not know the channel or the params do not fit.
   */
  public @Nullable String topic(String name, String params) {
    try {
      return client.topic(name, json.parse(params));
    } catch (RunnelException e) {
      return null;
    }
  }

  /**
   * {@code onState} hears {@code {"state": "connecting"|"online"|"offline"|"closed", "epoch", "reconnectAt"?}} now and
   * at every change, until the subscription is cancelled.
   */
  public Subscription connection(Consumer<String> onState) {
    Objects.requireNonNull(onState, "onState");
    return client.connection(state -> onState.accept(json.write(connection(state))));
  }

  /**
   * {@code onOutbox} hears {@code {"pending": [{"writeId", "mutator", "createdAt", "sending"}], "failed":
   * [{"writeId", "mutator", "error"}]}} now and at every change, until the subscription is cancelled.
   */
  public Subscription outbox(Consumer<String> onOutbox) {
    Objects.requireNonNull(onOutbox, "onOutbox");
    return client.outbox(state -> onOutbox.accept(json.write(outbox(state))));
  }

  /** {@code onError} hears {@code {"code", "cause", "fix"}} for each error not tied to a call. */
  public Subscription errors(Consumer<String> onError) {
    Objects.requireNonNull(onError, "onError");
    return client.errors(e -> onError.accept(json.write(e.toJson())));
  }

  /** Forgets failed write {@code writeId} once the page has shown it. */
  public void dismiss(String writeId) {
    client.dismiss(Objects.requireNonNull(writeId, "writeId"));
  }

  /** Closes the socket and stops reconnecting; queued writes stay for the next page. */
  public void close() {
    client.close();
  }

  private JsonObject view(QueryView view) {
    JsonObject.Builder b = JsonObject.builder();
    // instanceof, not a type switch, which TeaVM writes out at length (docs/client.md, "Type switches").
    QueryState state = view.state();
    if (state instanceof QueryState.Failed f) {
      b.put("status", "failed").put("error", error(f.code(), f.cause(), f.fix()));
    } else {
      b.put("status", state instanceof QueryState.Ready ? "ready" : "pending");
    }
    List<JsonValue> records = new ArrayList<>(view.records().size());
    for (ClientRecord r : view.records()) {
      EntityRef type = refs.entity(r.type());
      records.add(JsonObject.builder().put("type", r.type()).put("key", r.key())
          .put("record", type == null ? JsonNull.NULL : type.rowToJson(r.row())).build());
    }
    return b.put("records", new JsonArray(records)).build();
  }

  /**
   * Hands a channel's states, events and rosters to the page as JSON text: one class for every channel. Without an
   * {@code onState} (a presence watch) a failed state is an empty roster with the error, and events go nowhere.
   */
  private static final class ChannelRelay implements ChannelListener {
    private final JsonPort json;
    private final @Nullable Consumer<String> onState;
    private final @Nullable Consumer<String> onEvent;
    private final Consumer<String> onRoster;

    ChannelRelay(JsonPort json, @Nullable Consumer<String> onState, @Nullable Consumer<String> onEvent,
        Consumer<String> onRoster) {
      this.json = json;
      this.onState = onState;
      this.onEvent = onEvent;
      this.onRoster = onRoster;
    }

    /** A channel refused before anything was sent: heard as its failed state. */
    void failed(RunnelException e) {
      state(new ChannelState.Failed(e.code().name(), e.cause(), e.fix()));
    }

    @Override
    public void presence(Roster roster) {
      List<JsonValue> members = new ArrayList<>(roster.members().size());
      for (PresenceMember m : roster.members()) {
        members.add(JsonObject.builder().put("key", m.key()).put("meta", m.meta()).put("since", m.since()).build());
      }
      onRoster.accept(json.write(JsonObject.builder().put("members", new JsonArray(members))
          .put("total", roster.total()).build()));
    }

    @Override
    public void state(ChannelState state) {
      Consumer<String> states = onState;
      if (states == null) {
        if (state instanceof ChannelState.Failed f) {
          onRoster.accept(json.write(JsonObject.builder().put("members", new JsonArray(List.of())).put("total", 0)
              .put("error", error(f.code(), f.cause(), f.fix())).build()));
        }
        return;
      }
      // instanceof, not a pattern switch: TeaVM writes a type switch out at length.
      JsonObject.Builder b = JsonObject.builder().put("state", state instanceof ChannelState.Joining ? "joining"
          : state instanceof ChannelState.CatchingUp ? "catching-up" : state instanceof ChannelState.Live ? "live"
          : state instanceof ChannelState.Offline ? "offline" : "failed");
      if (state instanceof ChannelState.Failed f) {
        b.put("error", error(f.code(), f.cause(), f.fix()));
      }
      states.accept(json.write(b.build()));
    }

    @Override
    public void event(String event, JsonValue payload) {
      Consumer<String> events = onEvent;
      if (events != null) {
        events.accept(json.write(JsonObject.builder().put("event", event).put("payload", payload).build()));
      }
    }
  }

  private String failedView(JsonValue error) {
    return json.write(JsonObject.builder().put("status", "failed").put("error", error)
        .put("records", new JsonArray(List.of())).build());
  }

  private static JsonObject connection(ConnectionState state) {
    // instanceof, not a type switch, which TeaVM writes out at length (docs/client.md, "Type switches").
    JsonObject.Builder b = JsonObject.builder();
    if (state instanceof ConnectionState.Online o) {
      b.put("state", "online").put("epoch", o.epoch());
      if (o.lagMs() != null && o.asOf() != null) {
        b.put("lagMs", o.lagMs()).put("asOf", o.asOf());
      }
    } else if (state instanceof ConnectionState.Offline o) {
      b.put("state", "offline").put("epoch", o.epoch()).put("reconnectAt", o.reconnectAt());
    } else {
      b.put("state", state instanceof ConnectionState.Closed ? "closed" : "connecting").put("epoch", state.epoch());
    }
    return b.build();
  }

  private static JsonObject outcome(String writeId, MutationOutcome outcome) {
    JsonObject.Builder b = JsonObject.builder().put("writeId", writeId);
    return outcome instanceof MutationOutcome.Applied a ? b.put("result", a.result()).build()
        : b.put("error", error(((MutationOutcome.Failed) outcome).error())).build();
  }

  private static JsonObject outbox(OutboxState state) {
    List<JsonValue> pending = new ArrayList<>(state.pending().size());
    for (OutboxState.PendingWrite w : state.pending()) {
      pending.add(JsonObject.builder().put("writeId", w.writeId()).put("mutator", w.mutator())
          .put("createdAt", w.createdAt()).put("sending", w.sending()).build());
    }
    List<JsonValue> failed = new ArrayList<>(state.failed().size());
    for (OutboxState.FailedWrite w : state.failed()) {
      failed.add(JsonObject.builder().put("writeId", w.writeId()).put("mutator", w.mutator())
          .put("error", error(w.error())).build());
    }
    return JsonObject.builder().put("pending", new JsonArray(pending)).put("failed", new JsonArray(failed)).build();
  }

  private static JsonObject error(MutationError e) {
    return JsonObject.builder().put("code", e.code()).put("status", e.status()).put("cause", e.cause())
        .put("fix", e.fix()).build();
  }

  private static JsonObject error(String code, String cause, String fix) {
    return JsonObject.builder().put("code", code).put("cause", cause).put("fix", fix).build();
  }
}
