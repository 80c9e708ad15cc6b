package io.runnel.client;

import io.runnel.client.bundle.WireJsonPort;
import io.runnel.client.fake.CountingIds;
import io.runnel.client.fake.FakePageEvents;
import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.FakeSockets;
import io.runnel.client.fake.MapStore;
import io.runnel.client.fake.Node;
import io.runnel.client.fake.RecordingHttp;
import io.runnel.client.live.QueryView;
import io.runnel.client.outbox.Credentials;
import io.runnel.client.outbox.OutboxState;
import io.runnel.client.port.Ids;
import io.runnel.client.port.Tabs;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** One page's composed client over hand-driven fakes; a second page over the same store and clock is a reload. */
final class Page {

  static final String ORIGIN = "https://app.example";

  final FakeScheduler scheduler;
  final MapStore durable;
  final FakeSockets sockets = new FakeSockets();
  final RecordingHttp http = new RecordingHttp();
  final FakePageEvents events = new FakePageEvents();
  final List<ConnectionState> states = new ArrayList<>();
  final List<OutboxState> outboxStates = new ArrayList<>();
  final RunnelClient client;

  Page() {
    this(new FakeScheduler(), new MapStore(), Credentials.cookie());
  }

  Page(FakeScheduler scheduler, MapStore durable, Credentials credentials) {
    this(scheduler, durable, credentials, Tabs.alone(), new CountingIds());
  }

  /** A tab of the browser whose clock and durable store are given, with its own tabs port and ids. */
  Page(FakeScheduler scheduler, MapStore durable, Credentials credentials, Tabs tabs, Ids ids) {
    this(scheduler, durable, credentials, tabs, ids, null);
  }

  /** A page that told its client the actor's org is {@code orgId} ({@link RunnelClient.Builder#orgId}). */
  Page(FakeScheduler scheduler, MapStore durable, Credentials credentials, Tabs tabs, Ids ids,
      @Nullable String orgId) {
    this.scheduler = scheduler;
    this.durable = durable;
    Refs refs = new Refs().entity(Node.POSTS).query(Node.BY_LIKES).query(Node.BY_TITLE).query(Node.ONE_POST)
        .mutator(Node.CREATE)
        .mutator(Node.LIKE)
        .mutator(Node.STAMP)
        .channel(Node.ORG)
        .channel(Node.ROOM);
    this.client = RunnelClient.builder()
        .ports(sockets, http, durable, new WireJsonPort(), ids, scheduler)
        .origin(ORIGIN).refs(refs).credentials(credentials).random(() -> 0.5).build("test").tabs(tabs)
        .pageEvents(events).orgId(orgId).create();
    client.connection(states::add);
    client.outbox(outboxStates::add);
  }

  /** The outbox as the page last heard it. */
  OutboxState outbox() {
    return outboxStates.get(outboxStates.size() - 1);
  }

  /** The same browser after a reload: the durable store and the clock survive, nothing else. */
  Page reload() {
    return new Page(scheduler, durable, Credentials.cookie());
  }

  /** The node accepts the socket opened last and answers {@code hello} for {@code actor} at {@code commit}. */
  FakeSockets.Socket online(String actor, int commit) {
    FakeSockets.Socket node = sockets.last();
    node.open();
    node.receive(Node.hello(actor, commit));
    return node;
  }

  /** The network drops the socket; the client will try again after its backoff (375 ms at random 0.5). */
  void drop(FakeSockets.Socket node) {
    node.listener.closed(1006, "network");
  }

  /** A listener recording every view as {@code key:title:likes} lines, so a flicker shows in the record. */
  static Consumer<QueryView> recorder(List<List<String>> seen) {
    return v -> seen.add(v.records().stream()
        .map(r -> r.key() + ":" + r.row().text("title") + ":" + r.row().int4("likes")).toList());
  }

  /** The idempotency key of the n-th call (from 1) to {@code mutator}. */
  static String key(String mutator, int n) {
    String digits = Integer.toString(n);
    return mutator + ":00000000-0000-0000-0000-" + "000000000000".substring(digits.length()) + digits;
  }

  /**
   * The store key of write {@code writeId} in outbox queue {@code queue} ({@code u1}, {@code !provisional}), stored
   * {@code seqOffset} entries after the first one at the clock's start (seq {@code now ms × 1000}).
   */
  static String stored(String queue, int seqOffset, String writeId) {
    return "runnel.outbox." + queue + "." + (1_000_000_000L + seqOffset) + "." + writeId;
  }

  /** The answer LSN a {@code hello} at {@code commit} reaches. */
  static String answerLsn(int commit) {
    return "%016x00000000".formatted(commit);
  }
}
