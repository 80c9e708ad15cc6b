package io.runnel.client.channel.internal;

import io.runnel.client.channel.Channel;
import io.runnel.client.channel.ChannelListener;
import io.runnel.client.channel.ChannelState;
import io.runnel.client.outbox.Credentials;
import io.runnel.client.outbox.Verdict;
import io.runnel.client.port.HttpPort;
import io.runnel.client.port.JsonPort;
import io.runnel.client.store.internal.RecordStore;
import io.runnel.dsl.ChannelRef;
import io.runnel.protocol.ClientFrame;
import io.runnel.protocol.FrameDecoder;
import io.runnel.protocol.ReadAnswer;
import io.runnel.protocol.ServerFrame;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.PercentEncoding;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The page's channel topics on its one socket ({@code docs/protocol.md}, {@code join}/{@code leave} and the topic
 * frames), made only by the {@link ChannelHub.Factory} that registering a channel installs. Handles of one topic
 * share it (one {@code join}, one roster, one hold on its records); every held topic is joined again on each
 * connection and its {@code join} repeated with each heartbeat, presence meta included. A records channel's catch-up
 * query is read here over HTTP ({@code GET /v1/query/{query}?input=<params as JSON>}, with the bearer token when there
 * is one; a 401 asks once for a refreshed token); no network, 401, 408, 429, 5xx and a body that does not read are
 * tried again at the next heartbeat, any other answer fails the channel with the node's error.
 */
public final class Channels implements ChannelHub {

  private final RecordStore store;
  private final HttpPort http;
  private final JsonPort json;
  private final Credentials credentials;
  private final String queryUrl;
  private final Map<String, Topic> topics = new LinkedHashMap<>();
  private @Nullable Consumer<ClientFrame> send;

  private Channels(RecordStore store, HttpPort http, JsonPort json, String origin, Credentials credentials) {
    this.store = Objects.requireNonNull(store, "store");
    this.http = Objects.requireNonNull(http, "http");
    this.json = Objects.requireNonNull(json, "json");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.queryUrl = (origin.endsWith("/") ? origin.substring(0, origin.length() - 1) : origin) + "/v1/query/";
  }

  /** The factory {@code Refs.channel} installs: the one place a hub is made. */
  public static ChannelHub.Factory factory() {
    return new Factory();
  }

  @Override
  public Channel open(ChannelRef ref, JsonObject params, @Nullable JsonObject presence, ChannelListener listener) {
    Objects.requireNonNull(listener, "listener");
    String topic = topic(ref, params);
    Topic t = topics.get(topic);
    if (t == null) {
      t = new Topic(this, store, topic, ref.catchUpQuery(), params);
      topics.put(topic, t);
    }
    TopicHandle c = new TopicHandle(t, listener);
    t.add(c, presence);
    return c;
  }

  @Override
  public String topic(ChannelRef ref, JsonObject params) {
    List<String> names = ref.params();
    String[] values = new String[names.size()];
    for (int i = 0; i < values.length; i++) {
      String name = names.get(i);
      if (!(params.get(name) instanceof JsonString s)) {
        throw invalid(name);
      }
      values[i] = s.value();
    }
    if (params.size() != values.length) {
      throw invalid("params");
    }
    return ref.topic(values);
  }

  private static InputInvalidException invalid(String path) {
    return new InputInvalidException(path, "does not fit the channel's params",
        "Give a text value for each param the channel declares, and nothing else.");
  }

  @Override
  public void frame(ServerFrame frame) {
    // instanceof, not a pattern switch: TeaVM writes a switch over the ten frame kinds out at length.
    String name = frame instanceof ServerFrame.Records r ? r.topic()
        : frame instanceof ServerFrame.Gap g ? g.topic()
        : frame instanceof ServerFrame.Event e ? e.topic()
        : frame instanceof ServerFrame.Presence p ? p.topic()
        : frame instanceof ServerFrame.PresenceDiff d ? d.topic()
        : frame instanceof ServerFrame.Refuse r ? r.topic() : null;
    Topic t = name == null ? null : topics.get(name);
    if (t != null) {
      t.frame(frame);
    }
  }

  @Override
  public void connected(Consumer<ClientFrame> send) {
    this.send = Objects.requireNonNull(send, "send");
    for (Topic t : all()) {
      t.connected();
    }
  }

  @Override
  public void beat() {
    for (Topic t : all()) {
      t.beat();
    }
  }

  @Override
  public void offline() {
    send = null;
    for (Topic t : all()) {
      t.offline();
    }
  }

  @Override
  public void cleared() {
    for (Topic t : all()) {
      t.cleared();
    }
  }

  @Override
  public boolean synced() {
    for (Topic t : topics.values()) {
      if (!t.synced()) {
        return false;
      }
    }
    return true;
  }

  boolean online() {
    return send != null;
  }

  void send(ClientFrame frame) {
    Consumer<ClientFrame> s = send;
    if (s != null) {
      s.accept(frame);
    }
  }

  void remove(Topic t) {
    if (topics.get(t.name) == t) {
      topics.remove(t.name);
    }
  }

  /** Reads catch-up query {@code query} with {@code input} for {@code t}; its answer goes to read {@code number}. */
  void read(Topic t, int number, String query, JsonObject input) {
    ask(t, number, queryUrl + query + "?input=" + PercentEncoding.encode(json.write(input)), false);
  }

  private void ask(Topic t, int number, String url, boolean refreshed) {
    credentials.token(refreshed, token -> {
      Map<String, String> headers = new LinkedHashMap<>();
      if (token != null) {
        headers.put("Authorization", "Bearer " + token);
      }
      http.send(new HttpPort.Request("GET", url, headers, null), outcome -> answered(t, number, url, refreshed,
          outcome));
    });
  }

  /**
   * Catch-up read {@code number}'s outcome, classified as a mutator call's is ({@link Verdict}); a 2xx whose body
   * does not read as a read's answer is tried again, like no answer.
   */
  private void answered(Topic t, int number, String url, boolean refreshed, HttpPort.Outcome outcome) {
    Verdict v = Verdict.of(outcome, json);
    ReadAnswer answer = null;
    if (v instanceof Verdict.Applied a && a.body() != null) {
      try {
        answer = FrameDecoder.readAnswer(a.body());
      } catch (RuntimeException unreadable) {
        answer = null;
      }
    }
    if (answer != null) {
      t.landed(number, answer);
    } else if (v instanceof Verdict.Refused r) {
      t.readFailed(number, new ChannelState.Failed(r.error().code(), r.error().cause(), r.error().fix()));
    } else if (v instanceof Verdict.RetryLater r && r.unauthorized() && !refreshed) {
      ask(t, number, url, true);
    } else {
      t.readFailed(number, null);
    }
  }

  private List<Topic> all() {
    return new ArrayList<>(topics.values());
  }

  /** Makes hubs. */
  private static final class Factory implements ChannelHub.Factory {
    @Override
    public ChannelHub create(RecordStore store, HttpPort http, JsonPort json, String origin,
        Credentials credentials) {
      return new Channels(store, http, json, Objects.requireNonNull(origin, "origin"), credentials);
    }
  }
}
