package io.runnel.sync;

import static io.runnel.sync.ChannelFixture.join;
import static io.runnel.sync.ChannelFixture.until;
import static io.runnel.sync.ChannelsTest.event;
import static io.runnel.sync.SyncNodeTest.t;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.sync.channel.ChannelLimits;
import io.runnel.sync.socket.SocketLimits;
import io.runnel.testing.Await;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonObject;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A client that stops reading while the node has frames for it: the node drops what passes the outbound bound, then
 * cuts the TCP connection (the close frame cannot get past the stuck send), and a client on the same node that does
 * read keeps every event and every {@code hello} answer throughout. The stuck client is a {@link RawSocket} with a
 * small receive buffer that never reads.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SlowReaderTest {

  /** Closes a socket after 4 dropped frames; a send may block 60 s. */
  ChannelFixture byDrops;
  /** Never closes for drops; a send may block 2 s, then the sweep cuts the socket. */
  ChannelFixture byDeadline;
  ChannelFixture f;

  @BeforeAll
  void start(TestDatabase db) {
    byDrops = node(db, 4, Duration.ofSeconds(60));
    byDeadline = node(db, 1_000_000, Duration.ofSeconds(2));
  }

  private static ChannelFixture node(TestDatabase db, int dropsBeforeClose, Duration sendDeadline) {
    return new ChannelFixture(db, b -> b.socketSendBuffer(8192)
        .limits(new SocketLimits(256 * 1024, 16 * 1024, dropsBeforeClose, Duration.ofSeconds(120), sendDeadline))
        .channelLimits(ChannelLimits.DEFAULTS.withEventRate(1000, 1000)));
  }

  @AfterAll
  void stop() {
    byDrops.close();
    byDeadline.close();
  }

  @Test
  void aClientThatStopsReadingIsClosedAfterItsDropsAndTheOthersKeepEverything() throws Exception {
    f = byDrops;
    stuckClientIsCut();
  }

  @Test
  void aSendBlockedPastItsDeadlineIsCutAndTheOthersKeepEverything() throws Exception {
    f = byDeadline;
    stuckClientIsCut();
  }

  private void stuckClientIsCut() throws Exception {
    ProtocolClient<JsonObject> ada = f.connect("ada@acme");
    ada.send(join("lobby", null));
    until(ada);
    RawSocket stuck = RawSocket.open(f.node.port(), "bob@acme", 4096);
    stuck.send(join("lobby", null));
    Await.until("two sockets are open", Duration.ofSeconds(20), Duration.ofMillis(10), () -> sockets() == 2);
    String payload = "\"" + "p".repeat(8 * 1024) + "\"";
    List<Integer> statuses = new ArrayList<>();
    List<JsonObject> atAda = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    int sent = 0;
    while (sockets() == 2 && System.nanoTime() < deadline) {
      HttpResponse<String> r = f.event("eve@acme", "lobby", event("wave", payload));
      statuses.add(r.statusCode());
      sent++;
      atAda.addAll(until(ada));
    }
    long cutAfter = sent;
    String end = stuck.readToTheEnd();
    atAda.addAll(until(ada));
    long events = atAda.stream().filter(frame -> t(frame).equals("event")).count();
    assertAll(
        () -> assertTrue(cutAfter >= 3, "the stuck socket took a few events before its buffers filled: " + cutAfter),
        () -> assertEquals(1, sockets(), "the node let go of the stuck socket after " + cutAfter + " events"),
        () -> assertTrue(end.startsWith("ended"), "the stuck socket's connection was cut: " + end),
        () -> assertTrue(statuses.stream().allMatch(s -> s == 202), statuses.toString()),
        () -> assertEquals(cutAfter, events, "ada, who reads, got every event"),
        () -> assertTrue(metric("runnel_frames_dropped_total") > 0, "the frames it could not take are counted"));
    ada.close();
  }

  private long sockets() throws Exception {
    return metric("runnel_sockets");
  }

  private long metric(String name) throws Exception {
    Matcher m = Pattern.compile("(?m)^" + name + "(?:\\{[^}]*\\})? ([0-9.eE+]+)$").matcher(f.metrics());
    assertTrue(m.find(), name + " is in /metrics");
    return (long) Double.parseDouble(m.group(1));
  }
}
