package io.runnel.bus;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.testing.Await;
import io.runnel.testing.NatsServer;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.RunnelException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NATS transport on a real {@code nats-server}: order and subjects, acceptance through flush, failing at once
 * while down, recovery announced to {@code onReconnect} (the library's reconnect and the transport's own re-dial),
 * {@code max_payload}, and the choice of bus from the environment.
 */
class NatsTransportTest {

  static final Duration WAIT = Duration.ofSeconds(30);

  /** The defaults, re-dialling every 100 ms: every recovery is a new connection. */
  static NatsConfig config(String url) {
    return NatsConfig.parse("test", url).withReconnect(Duration.ofMillis(100), 0);
  }

  /** jnats reconnecting in place, every 100 ms. */
  static NatsConfig inPlace(String url) {
    return config(url).withReconnect(Duration.ofMillis(100), 600);
  }

  /** Publishes and flushes until the bus takes it, as a publisher must (a flush may fail after a reconnect). */
  static void publishUntilTaken(Transport t, String subject, byte[] payload) throws InterruptedException {
    TransportUnavailableException[] last = {null};
    try {
      Await.until("the bus takes a message on " + subject, WAIT, Duration.ofMillis(50), () -> {
        try {
          t.publish(subject, payload);
          t.flush(Duration.ofSeconds(2));
          return true;
        } catch (TransportUnavailableException e) {
          last[0] = e;
          return false;
        }
      });
    } catch (AssertionError timedOut) {
      TransportUnavailableException refused = last[0];
      if (refused != null) {
        refused.addSuppressed(timedOut);
        throw refused; // the bus's own refusal, as a publisher that gives up sees it
      }
      throw timedOut;
    }
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    Await.until(what, WAIT, condition::getAsBoolean);
  }

  static void awaitLatch(String what, CountDownLatch latch) throws InterruptedException {
    assertTrue(latch.await(WAIT.toSeconds(), TimeUnit.SECONDS), "timed out waiting for: " + what);
  }

  /**
   * Runs {@code action}, which must fail with {@code X_TRANSPORT_UNAVAILABLE} within 2 s: at once, not after the 5 s
   * flush deadline (a bound far from both, so a busy machine's pause does not fail it).
   */
  static Executable refusedAtOnce(String what, Executable action) {
    return () -> {
      long start = System.nanoTime();
      RunnelException e = assertThrows(RunnelException.class, action, what);
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertAll(
          () -> assertEquals(ErrorCode.X_TRANSPORT_UNAVAILABLE, e.code(), what),
          () -> assertTrue(millis < 2_000, what + " is refused at once, not after " + millis + " ms"));
    };
  }

  @Test
  void oneSubscriptionReceivesEveryMessageInPublishOrderOnOneThreadWithEncodedSubjects(@TempDir Path dir)
      throws Exception {
    try (NatsServer nats = NatsServer.start(dir, Map.of());
        NatsTransport publisher = NatsTransport.connect(config(nats.url()));
        NatsTransport consumer = NatsTransport.connect(config(nats.url()))) {
      List<TransportMessage> got = new CopyOnWriteArrayList<>();
      Set<Thread> threads = ConcurrentHashMap.newKeySet();
      CountDownLatch all = new CountDownLatch(3000);
      consumer.subscribe(Subjects.ALL_CHANGES, m -> {
        got.add(m);
        threads.add(Thread.currentThread());
        all.countDown();
      });
      String[] subjects = {Subjects.changes("public", "posts"), Subjects.changes("my schema", "a.b*>"),
          Subjects.POSITION};
      for (int i = 0; i < 3000; i++) {
        publisher.publish(subjects[i % 3], bytes(Integer.toString(i)));
      }
      publisher.publish("runnel.other.x", bytes("not a change"));
      publisher.flush(Duration.ofSeconds(5));
      awaitLatch("3000 messages", all);
      for (int i = 0; i < 3000; i++) {
        assertEquals(Integer.toString(i), new String(got.get(i).payload(), StandardCharsets.UTF_8), "in order");
        assertEquals(subjects[i % 3], got.get(i).subject());
      }
      assertAll(
          () -> assertEquals(1, threads.size(), "one thread per subscription"),
          () -> assertEquals("runnel.changes.my%20schema.a%2Eb%2A%3E", subjects[1], "tokens encoded"),
          () -> assertEquals(3000, got.size(), "nothing outside the pattern"));
    }
  }

  @Test
  void whileTheServerIsDownPublishFlushAndSubscribeAreRefusedAtOnce(@TempDir Path dir) throws Exception {
    try (NatsServer nats = NatsServer.start(dir, Map.of());
        NatsTransport t = NatsTransport.connect(config(nats.url()))) {
      nats.kill();
      await("the transport notices", () -> !t.connected());
      assertAll(
          refusedAtOnce("publish", () -> t.publish(Subjects.changes("public", "posts"), bytes("x"))),
          refusedAtOnce("flush", () -> t.flush(Duration.ofSeconds(5))),
          refusedAtOnce("subscribe", () -> t.subscribe(Subjects.ALL_CHANGES, m -> { })));
    }
  }

  @Test
  void afterTheServerRestartsListenersAreToldOnceAndTheSubscriptionReceivesOnANewConnection(@TempDir Path dir)
      throws Exception {
    try (NatsServer nats = NatsServer.start(dir, Map.of());
        NatsTransport publisher = NatsTransport.connect(config(nats.url()));
        NatsTransport consumer = NatsTransport.connect(config(nats.url()))) {
      CountDownLatch reconnected = new CountDownLatch(1);
      CountDownLatch publisherBack = new CountDownLatch(1);
      List<String> reconnects = new CopyOnWriteArrayList<>();
      consumer.onReconnect(() -> {
        reconnects.add("reconnect");
        reconnected.countDown();
      });
      publisher.onReconnect(publisherBack::countDown);
      CountDownLatch after = new CountDownLatch(1);
      consumer.subscribe(Subjects.ALL_CHANGES, m -> {
        if (new String(m.payload(), StandardCharsets.UTF_8).equals("after")) {
          after.countDown();
        }
      });
      nats.kill();
      nats.startAgain();
      awaitLatch("the consumer is told of the reconnect", reconnected);
      awaitLatch("the publisher is back", publisherBack);
      publisher.publish(Subjects.changes("public", "posts"), bytes("after"));
      publisher.flush(Duration.ofSeconds(5));
      awaitLatch("a message after the restart", after);
      assertEquals(List.of("reconnect"), reconnects, "one announcement per recovery");
    }
  }

  @Test
  void jnatsReconnectingInPlaceAlsoRecoversRestartAfterRestartAndAStuckConnectionIsReplaced(@TempDir Path dir)
      throws Exception {
    try (NatsServer nats = NatsServer.start(dir, Map.of());
        NatsTransport publisher = NatsTransport.connect(inPlace(nats.url()));
        NatsTransport consumer = NatsTransport.connect(inPlace(nats.url()))) {
      Semaphore told = new Semaphore(0);
      consumer.onReconnect(told::release);
      BlockingQueue<String> got = new LinkedBlockingQueue<>();
      consumer.subscribe(Subjects.ALL_CHANGES, m -> got.add(new String(m.payload(), StandardCharsets.UTF_8)));
      // jnats 2.24 comes back stuck after some of these restarts; each round must still get through.
      for (int round = 0; round < 6; round++) {
        nats.kill();
        nats.startAgain();
        assertTrue(told.tryAcquire(WAIT.toSeconds(), TimeUnit.SECONDS), "round " + round + ": the consumer is told");
        publishUntilTaken(publisher, Subjects.changes("public", "posts"), bytes("round " + round));
        String m;
        do {
          m = got.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
          assertTrue(m != null, "round " + round + ": the message arrives");
        } while (!m.equals("round " + round));
      }
    }
  }

  @Test
  void aFlushAfterTheConnectionDroppedFailsSoWhatWasPublishedIsSentAgain(@TempDir Path dir) throws Exception {
    try (NatsServer nats = NatsServer.start(dir, Map.of());
        NatsTransport renewed = NatsTransport.connect(config(nats.url()));
        NatsTransport inPlace = NatsTransport.connect(inPlace(nats.url()))) {
      CountDownLatch reconnected = new CountDownLatch(2);
      renewed.onReconnect(reconnected::countDown);
      inPlace.onReconnect(reconnected::countDown);
      renewed.publish(Subjects.changes("public", "posts"), bytes("maybe lost"));
      inPlace.publish(Subjects.changes("public", "posts"), bytes("maybe lost"));
      nats.kill();
      nats.startAgain();
      awaitLatch("both reconnect", reconnected);
      for (NatsTransport t : List.of(renewed, inPlace)) {
        RunnelException e = assertThrows(RunnelException.class, () -> t.flush(Duration.ofSeconds(5)));
        assertAll(
            () -> assertEquals(ErrorCode.X_TRANSPORT_UNAVAILABLE, e.code()),
            () -> assertTrue(e.cause().contains("dropped after a publish"), e.cause()));
        publishUntilTaken(t, Subjects.changes("public", "posts"), bytes("again"));
      }
    }
  }

  @Test
  void maxPayloadIsTheServersAndALargerPublishIsRefused(@TempDir Path dir) throws Exception {
    try (NatsServer nats = NatsServer.start(dir, Map.of("max_payload", "2048"));
        NatsTransport t = NatsTransport.connect(config(nats.url()))) {
      assertEquals(2048, t.maxPayload());
      t.publish(Subjects.changes("public", "posts"), new byte[2048]);
      assertThrows(IllegalArgumentException.class, () -> t.publish(Subjects.changes("public", "posts"),
          new byte[2049]));
      t.flush(Duration.ofSeconds(5));
    }
  }

  @Test
  void aServerDownAtBootIsRefusedNamingTheUrlAndTheFix() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String url = "nats://127.0.0.1:" + port;
    RunnelException e = assertThrows(RunnelException.class,
        () -> TransportConfig.fromEnvironment(Map.of("NATS_URL", url)).open());
    assertAll(
        () -> assertEquals(ErrorCode.X_TRANSPORT_UNAVAILABLE, e.code()),
        () -> assertTrue(e.cause().contains(url), e.cause()),
        () -> assertTrue(e.fix().contains("nats-server") && e.fix().contains("NATS_URL"), e.fix()));
  }

  @Test
  void aMalformedNatsUrlIsConfigInvalidNamingTheVariableWithoutItsPassword() {
    for (String bad : List.of("", " ", "localhost:4222", "http://127.0.0.1:4222", "nats://", "nats://host:99999",
        "nats://host:4222/path", "nats://host:4222?x=1", "nats://h:1,", "nats://u:secret@host:port")) {
      RunnelException e = assertThrows(RunnelException.class,
          () -> TransportConfig.fromEnvironment(Map.of("NATS_URL", bad)), "'" + bad + "'");
      assertAll("'" + bad + "'",
          () -> assertEquals(ErrorCode.X_CONFIG_INVALID, e.code()),
          () -> assertTrue(e.cause().startsWith("NATS_URL"), e.cause()),
          () -> assertFalse(e.cause().contains("secret"), e.cause()),
          () -> assertTrue(e.fix().contains("nats://host:4222"), e.fix()));
    }
  }

  @Test
  void natsUrlSelectsNatsAndItsAbsenceTheInProcessBus() throws Exception {
    assertInstanceOf(TransportConfig.InProcess.class, TransportConfig.fromEnvironment(Map.of()));
    try (Transport inProcess = TransportConfig.fromEnvironment(Map.of()).open()) {
      assertInstanceOf(InProcessTransport.class, inProcess);
    }
    String shared = NatsServer.sharedUrl();
    TransportConfig config = TransportConfig.fromEnvironment(Map.of("NATS_URL", "nats://u:pw@127.0.0.1:4222,"
        + shared));
    assertAll(
        () -> assertInstanceOf(NatsConfig.class, config),
        () -> assertEquals("NATS at nats://***@127.0.0.1:4222," + shared, config.describe(), "password hidden"));
    try (Transport t = TransportConfig.fromEnvironment(Map.of("NATS_URL", shared)).open()) {
      // The shared server may carry other runs' changes: a subject of this test's own.
      String subject = "runnel.test." + UUID.randomUUID();
      CountDownLatch got = new CountDownLatch(1);
      t.subscribe(subject, m -> got.countDown());
      t.publish(subject, bytes("hello"));
      t.flush(Duration.ofSeconds(5));
      assertInstanceOf(NatsTransport.class, t);
      awaitLatch("a round trip through the shared server", got);
    }
  }
}
