package io.runnel.sync;

import static io.runnel.sync.ChannelFixture.join;
import static io.runnel.sync.ChannelFixture.until;
import static io.runnel.sync.SyncNodeTest.str;
import static io.runnel.sync.SyncNodeTest.t;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.sync.channel.ChannelLimits;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.sync.socket.SocketLimits;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.Json;
import io.runnel.wire.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The node-wide channel limits, each on a node of its own: the distinct-topic cap (for joins one at a time and for a
 * burst of joins written at once), and frames dropped for a socket.
 */
@FreshDatabase
class ChannelLimitsTest {

  @Test
  void theNodeCapCountsDistinctTopicsAndARefusedOrClosedJoinGivesItsSlotBack(TestDatabase db) throws Exception {
    try (ChannelFixture f = new ChannelFixture(db, b -> b.channelLimits(ChannelLimits.DEFAULTS.withTopics(64, 3)))) {
      ProtocolClient<JsonObject> a = f.connect("ada@acme");
      ProtocolClient<JsonObject> b = f.connect("bob@acme");
      List<JsonObject> answers = new ArrayList<>();
      for (String topic : List.of("room.n1", "room.n2", "room.private-1", "room.n3")) {
        a.send(join(topic, null));
        answers.add(a.next());
      }
      b.send(join("room.n1", null));
      JsonObject shared = b.next();
      b.send(join("room.n4", null));
      JsonObject full = b.next();
      int atCap = f.node.stats().channels().topics();
      a.send("{\"t\":\"leave\",\"topic\":\"room.n3\"}");
      until(a);
      b.send(join("room.n4", null));
      JsonObject afterLeave = b.next();
      b.send(join("room.n5", null));
      JsonObject fullAgain = b.next();
      a.close();
      LiveFixtureAccess.await("Ada's socket closed", () -> f.node.stats().channels().topics() == 2);
      b.send(join("room.n5", null));
      JsonObject afterClose = b.next();
      assertAll(
          () -> assertEquals("presence", t(answers.get(0))),
          () -> assertEquals("presence", t(answers.get(1))),
          () -> assertEquals("X_FORBIDDEN", str(answers.get(2), "code"), "the policy refused a third topic"),
          () -> assertEquals("presence", t(answers.get(3)), "whose slot was given back, so room.n3 fits"),
          () -> assertEquals("presence", t(shared), "a topic the node holds takes no new slot"),
          () -> assertEquals("X_SUBSCRIPTION_LIMIT", str(full, "code"), "a fourth distinct topic does not fit"),
          () -> assertEquals("room.n4", str(full, "topic")),
          () -> assertEquals(3, atCap),
          () -> assertEquals("presence", t(afterLeave), "Ada's leave freed a slot"),
          () -> assertEquals("X_SUBSCRIPTION_LIMIT", str(fullAgain, "code")),
          () -> assertEquals("presence", t(afterClose), "Ada's close left room.n2 at once"));
      b.close();
    }
  }

  @Test
  void theNodeCapHoldsForJoinsOfDistinctTopicsWrittenAtOnceAndALeaveGivesTheSlotBack(TestDatabase db)
      throws Exception {
    int n = 8;
    try (ChannelFixture f = new ChannelFixture(db, b -> b.channelLimits(ChannelLimits.DEFAULTS.withTopics(64, 3)))) {
      List<RawSocket> sockets = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        sockets.add(RawSocket.open(f.node.port(), "u" + i + "@acme", 0));
      }
      CyclicBarrier start = new CyclicBarrier(n);
      List<Future<JsonObject>> futures = new ArrayList<>();
      try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
        for (int i = 0; i < n; i++) {
          RawSocket s = sockets.get(i);
          String topic = "room.burst" + i;
          futures.add(pool.submit(() -> {
            start.await(30, TimeUnit.SECONDS);
            s.send(join(topic, null));
            return (JsonObject) Json.parse(s.read());
          }));
        }
      }
      List<JsonObject> answers = new ArrayList<>();
      for (Future<JsonObject> future : futures) {
        answers.add(future.get());
      }
      int topicsAfterBurst = f.node.stats().channels().topics();
      int admitted = AdmissionTest.indexOf(answers, "presence");
      int refused = AdmissionTest.indexOf(answers, "refuse");
      sockets.get(admitted).writeAll(List.of("{\"t\":\"leave\",\"topic\":\"room.burst" + admitted + "\"}",
          "{\"t\":\"hello\",\"v\":1}"));
      JsonObject left = (JsonObject) Json.parse(sockets.get(admitted).read());
      sockets.get(refused).send(join("room.burst" + refused, null));
      JsonObject again = (JsonObject) Json.parse(sockets.get(refused).read());
      int other = AdmissionTest.indexOf(answers.subList(refused + 1, n), "refuse") + refused + 1;
      sockets.get(other).send(join("room.burst" + other, null));
      JsonObject stillFull = (JsonObject) Json.parse(sockets.get(other).read());
      assertAll(
          () -> assertEquals(3, answers.stream().filter(a -> t(a).equals("presence")).count(),
              "exactly the cap of three topics was joined: " + answers),
          () -> assertEquals(n - 3, answers.stream().filter(a -> t(a).equals("refuse")
              && str(a, "code").equals("X_SUBSCRIPTION_LIMIT")).count(), "the rest were refused: " + answers),
          () -> assertEquals(3, topicsAfterBurst, "a refused join holds no topic"),
          () -> assertEquals("hello", t(left), "the leave is answered by nothing but the hello after it"),
          () -> assertEquals("presence", t(again), "the leave gave its slot back"),
          () -> assertEquals("X_SUBSCRIPTION_LIMIT", str(stillFull, "code"), "one slot came back, not more"),
          () -> assertEquals(3, f.node.stats().channels().topics()));
      for (RawSocket s : sockets) {
        s.close();
      }
    }
  }

  @Test
  void eventFramesDroppedForAStalledSocketAreCountedInOneSeriesAndTheOthersGetEveryEvent(TestDatabase db)
      throws Exception {
    try (ChannelFixture f = new ChannelFixture(db, b -> b.socketSendBuffer(8192)
        .limits(new SocketLimits(256 * 1024, 16 * 1024, 32, Duration.ofSeconds(120), Duration.ofSeconds(10)))
        .channelLimits(ChannelLimits.DEFAULTS.withEventRate(10_000, 10_000)));
        RawSocket stalled = RawSocket.open(f.node.port(), "stalled@acme", 4096)) {
      stalled.writeAll(List.of(join("room.d1", null)));
      LiveFixtureAccess.await("the stalled socket joined", () -> f.node.stats().channels().topics() == 1);
      ProtocolClient<JsonObject> reader = f.connect("reader@acme");
      reader.send(join("room.d1", null));
      assertEquals("presence", t(reader.next()));
      String payload = "\"" + "x".repeat(60 * 1024) + "\"";
      int sent = 0;
      while (f.node.stats().channels().framesDropped() == 0 && sent < 200) {
        HttpResponse<String> r = f.event("sender@acme", "room.d1",
            "{\"event\":\"typing\",\"payload\":" + payload + "}");
        assertEquals(202, r.statusCode(), r.body());
        assertEquals("event", t(reader.next()), "the reading member gets event " + sent);
        sent++;
      }
      String metrics = f.metrics();
      List<String> series = metrics.lines().filter(l -> l.startsWith("runnel_channel_frames_dropped")).toList();
      int posted = sent;
      assertAll(
          () -> assertTrue(f.node.stats().channels().framesDropped() > 0, "frames were dropped after " + posted),
          () -> assertEquals(1, series.size(), "one series: " + series),
          () -> assertTrue(series.get(0).startsWith("runnel_channel_frames_dropped_total "), series.toString()),
          () -> assertTrue(Double.parseDouble(series.get(0).substring(series.get(0).indexOf(' ') + 1)) >= 1,
              series.toString()));
      reader.close();
    }
  }
}
