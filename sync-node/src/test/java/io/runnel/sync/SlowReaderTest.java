package io.runnel.sync;

import static io.runnel.sync.ChannelFixture.join;
import static io.runnel.sync.ChannelFixture.until;
import static io.runnel.sync.ChannelsTest.event;
import static io.runnel.sync.SyncNodeTest.t;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.testing.FreshDatabase;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A client that stops reading while the node has frames for it: the node drops what passes the outbound bound, then
 * cuts the TCP connection (the close frame cannot get past the stuck send), and a client on the same node that does
 * read keeps every event and every {@code hello} answer throughout. The stuck client is a raw TCP socket with a
 * small receive buffer that upgrades by hand and then never reads.
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
        .channelLimits(io.runnel.sync.channel.ChannelLimits.DEFAULTS.withEventRate(1000, 1000)));
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
    SocketClient ada = f.connect("ada@acme");
    ada.send(join("lobby", null));
    until(ada);
    Socket stuck = upgradeAndStopReading("bob@acme");
    sendMasked(stuck, join("lobby", null));
    waitFor("two sockets open", () -> sockets() == 2);
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
    String end = readToTheEnd(stuck);
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

  /** Upgrades a raw TCP socket to a WebSocket on {@code /v1/sync} as {@code token}; the caller then never reads. */
  private Socket upgradeAndStopReading(String token) throws IOException {
    Socket s = new Socket();
    s.setReceiveBufferSize(4096);
    s.connect(new InetSocketAddress("127.0.0.1", f.node.port()), 10_000);
    s.setSoTimeout(10_000);
    OutputStream out = s.getOutputStream();
    out.write(("GET /v1/sync HTTP/1.1\r\nHost: 127.0.0.1:" + f.node.port() + "\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        + "Authorization: Bearer " + token + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    InputStream in = s.getInputStream();
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the node closed before answering the upgrade: " + head);
      }
      head.write(b);
    }
    String response = head.toString(StandardCharsets.US_ASCII);
    if (!response.startsWith("HTTP/1.1 101")) {
      throw new IOException("not upgraded: " + response);
    }
    return s;
  }

  /** Sends one masked text frame (RFC 6455 section 5.2; a client's frames are masked). */
  private static void sendMasked(Socket s, String text) throws IOException {
    byte[] payload = text.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream frame = new ByteArrayOutputStream();
    frame.write(0x81);
    if (payload.length < 126) {
      frame.write(0x80 | payload.length);
    } else {
      frame.write(0x80 | 126);
      frame.write(payload.length >> 8);
      frame.write(payload.length & 0xff);
    }
    byte[] mask = new byte[4];
    ThreadLocalRandom.current().nextBytes(mask);
    frame.write(mask);
    for (int i = 0; i < payload.length; i++) {
      frame.write(payload[i] ^ mask[i % 4]);
    }
    s.getOutputStream().write(frame.toByteArray());
    s.getOutputStream().flush();
  }

  /** Reads what the node had sent until the connection ends: "ended (EOF)" or "ended (reset)", or "open" after 20 s. */
  private static String readToTheEnd(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    byte[] buf = new byte[64 * 1024];
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    try {
      while (System.nanoTime() < deadline) {
        try {
          if (in.read(buf) < 0) {
            return "ended (EOF)";
          }
        } catch (SocketTimeoutException e) {
          // keep reading until the deadline
        }
      }
      return "open";
    } catch (IOException e) {
      return "ended (reset: " + e.getMessage() + ")";
    } finally {
      s.close();
    }
  }

  private static void waitFor(String what, ThrowingCondition condition) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + ": not within 20 s");
      }
      Thread.sleep(10);
    }
  }

  @FunctionalInterface
  private interface ThrowingCondition {
    boolean holds() throws Exception;
  }
}
