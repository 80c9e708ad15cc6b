package io.runnel.client.outbox.internal;

import io.runnel.client.ConnectionState;
import io.runnel.client.bundle.WireJsonPort;
import io.runnel.client.fake.CountingIds;
import io.runnel.client.fake.FakeScheduler;
import io.runnel.client.fake.MapStore;
import io.runnel.client.fake.RecordingHttp;
import io.runnel.client.outbox.Mutation;
import io.runnel.client.outbox.OutboxState;
import io.runnel.client.port.DurableStore;
import io.runnel.client.port.Ids;
import io.runnel.client.port.Tabs;
import io.runnel.dsl.MutatorRef;
import io.runnel.wire.JsonCodec;
import java.util.ArrayList;
import java.util.List;

/** One page's outbox over fakes; a second page over the same store and clock is the page after a reload. */
final class Page {

  /** A like's input. */
  record LikeInput(String postId) {
    static final JsonCodec<LikeInput> CODEC = JsonCodec.object(
        r -> new LikeInput(r.text("postId")), (in, w) -> w.put("postId", in.postId()));
  }

  /** A mutator with a twin (the recording store never runs it). */
  static final MutatorRef<LikeInput> LIKE = MutatorRef.of("likePost", LikeInput.CODEC).local((tx, in) -> { });

  static final String DIGEST = "0123456789abcdef0123456789abcdef";
  static final String LSN = "00000000000000A000000000";

  final FakeScheduler clock;
  final MapStore store;
  final RecordingHttp http = new RecordingHttp();
  final Fakes.RecordingWrites writes = new Fakes.RecordingWrites();
  final Fakes.RotatingCredentials credentials = new Fakes.RotatingCredentials();
  final List<OutboxState> states = new ArrayList<>();
  int beats;
  final Outbox outbox;

  Page() {
    this(new FakeScheduler(1_700_000_000_000L), new MapStore());
  }

  Page(FakeScheduler clock, MapStore store) {
    this(clock, store, Tabs.alone(), new CountingIds());
  }

  /** A tab of the browser whose store and clock are given, with its own ids. */
  Page(FakeScheduler clock, MapStore store, Tabs tabs, Ids ids) {
    this(clock, store, store, tabs, ids);
  }

  /** A tab of the browser whose store and clock are given, reaching the store through {@code connection}. */
  Page(FakeScheduler clock, MapStore store, DurableStore connection, Tabs tabs, Ids ids) {
    this.clock = clock;
    this.store = store;
    this.outbox = Outbox.builder()
        .baseUrl("https://app.example/")
        .http(http)
        .store(connection)
        .json(new WireJsonPort())
        .ids(ids)
        .tabs(tabs)
        .scheduler(clock)
        .writes(writes)
        .credentials(credentials)
        .registry(MutatorRegistry.create().register(LIKE))
        .beatSoon(() -> beats++)
        .build();
    outbox.listen(states::add);
  }

  /** The page after a reload: same store and clock, nothing else. */
  Page reload() {
    return new Page(clock, store);
  }

  Page signedIn(String principal) {
    outbox.principal(principal);
    return this;
  }

  Mutation like(String postId) {
    return outbox.mutate(LIKE, new LikeInput(postId));
  }

  void online(long epoch) {
    outbox.connection(new ConnectionState.Online(epoch));
  }

  void offline(long epoch) {
    outbox.connection(new ConnectionState.Offline(epoch, clock.nowMillis() + 1_000));
  }

  /** The seq of the first entry stored at the clock's start ({@code now ms × 1000}). */
  static final long SEQ = 1_700_000_000_000_000L;

  /**
   * The store key of the n-th call (from 1) in {@code queue} ({@code ada}, {@code !provisional}), stored with seq
   * {@code SEQ + seqOffset}.
   */
  static String stored(String queue, int seqOffset, int n) {
    return "runnel.outbox." + queue + "." + (SEQ + seqOffset) + "." + key(n);
  }

  /** The idempotency key of the n-th call this page made (from 1). */
  static String key(int n) {
    return key("0000", n);
  }

  /** The idempotency key of the n-th call (from 1) of a page whose ids are in {@code group}. */
  static String key(String group, int n) {
    String digits = Integer.toString(n);
    return "likePost:00000000-0000-0000-" + group + "-" + "000000000000".substring(digits.length()) + digits;
  }

  OutboxState state() {
    return outbox.state();
  }

  List<String> pendingIds() {
    List<String> out = new ArrayList<>();
    for (OutboxState.PendingWrite p : outbox.state().pending()) {
      out.add(p.writeId());
    }
    return out;
  }

  List<String> failedIds() {
    List<String> out = new ArrayList<>();
    for (OutboxState.FailedWrite f : outbox.state().failed()) {
      out.add(f.writeId());
    }
    return out;
  }
}
