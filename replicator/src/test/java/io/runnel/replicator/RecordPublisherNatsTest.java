package io.runnel.replicator;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.bus.NatsConfig;
import io.runnel.bus.NatsTransport;
import io.runnel.bus.Subjects;
import io.runnel.bus.TransportUnavailableException;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import io.runnel.testing.NatsServer;
import io.runnel.wire.ErrorCode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The record publisher over a real nats-server of the test's own: a batch published while the server is down is
 * refused at once and leaves a hole in the publisher's seq that a consumer sees after the restart; a row over the
 * server's {@code max_payload} is refused before anything is sent.
 */
class RecordPublisherNatsTest {

  static final EntityRef ROOMS = RecordPublisherTest.ROOMS;

  static NatsConfig config(String url) {
    return NatsConfig.parse("test", url).withReconnect(Duration.ofMillis(100), 0);
  }

  private static ChangeEvent next(BlockingQueue<ChangeEvent> received) throws InterruptedException {
    ChangeEvent e = received.poll(10, TimeUnit.SECONDS);
    assertTrue(e != null, "a change arrives");
    return e;
  }

  private static void await(String what, CountDownLatch latch) throws InterruptedException {
    assertTrue(latch.await(20, TimeUnit.SECONDS), what);
  }

  @Test
  void aBatchPublishedWhileTheServerIsDownIsRefusedAndLeavesAHoleTheConsumerSees(@TempDir Path dir)
      throws Exception {
    try (NatsServer nats = NatsServer.start(dir, Map.of());
        NatsTransport bus = NatsTransport.connect(config(nats.url()));
        NatsTransport consumer = NatsTransport.connect(config(nats.url()))) {
      BlockingQueue<ChangeEvent> received = new LinkedBlockingQueue<>();
      consumer.subscribe(Subjects.ALL_CHANGES, m -> received.add(
          (ChangeEvent) BusEnvelope.decode(m.payload(), Map.of("rooms", ROOMS)::get)));
      CountDownLatch busBack = new CountDownLatch(1);
      CountDownLatch consumerBack = new CountDownLatch(1);
      bus.onReconnect(busBack::countDown);
      consumer.onReconnect(consumerBack::countDown);
      RecordPublisher publisher = RecordPublisher.builder().transport(bus)
          .entity(RecordPublisherTest.ROOM_TABLE).build();

      publisher.publish(List.of(RecordPublisher.Change.insert(ROOMS, RecordPublisherTest.room(1, "a"))));
      ChangeEvent first = next(received);
      nats.kill();
      TransportUnavailableException down = assertThrows(TransportUnavailableException.class,
          () -> publisher.publish(List.of(RecordPublisher.Change.insert(ROOMS, RecordPublisherTest.room(2, "b")))));
      nats.startAgain();
      await("the publisher's bus is back", busBack);
      await("the consumer is back", consumerBack);
      publisher.publish(List.of(RecordPublisher.Change.insert(ROOMS, RecordPublisherTest.room(3, "c"))));
      ChangeEvent after = next(received);
      assertAll(
          () -> assertEquals(ErrorCode.X_TRANSPORT_UNAVAILABLE, down.code()),
          () -> assertEquals(1L, first.seq()),
          () -> assertEquals("3", after.key()),
          () -> assertEquals(ChangeEvent.Source.PUBLISHER, after.source()),
          () -> assertEquals(3L, after.seq(), "seq 2 went with the refused batch: the consumer sees 1, then 3"),
          () -> assertTrue(received.isEmpty(), "nothing else arrived"));
    }
  }

  @Test
  void aRowOverTheServersMaxPayloadIsRefusedBeforeAnythingOfItsBatchIsSent(@TempDir Path dir) throws Exception {
    try (NatsServer nats = NatsServer.start(dir, Map.of("max_payload", "2048"));
        NatsTransport bus = NatsTransport.connect(config(nats.url()));
        NatsTransport consumer = NatsTransport.connect(config(nats.url()))) {
      // Filled by the bus's thread; the latch opens at room 3, so anything of the refused batch (published before it,
      // on the same connection) is in the list by then.
      List<ChangeEvent> received = new CopyOnWriteArrayList<>();
      CountDownLatch one = new CountDownLatch(1);
      consumer.subscribe(Subjects.ALL_CHANGES, m -> {
        ChangeEvent e = (ChangeEvent) BusEnvelope.decode(m.payload(), Map.of("rooms", ROOMS)::get);
        received.add(e);
        if (e.key().equals("3")) {
          one.countDown();
        }
      });
      RecordPublisher publisher = RecordPublisher.builder().transport(bus)
          .entity(RecordPublisherTest.ROOM_TABLE).build();
      PublishRefusedException big = assertThrows(PublishRefusedException.class, () -> publisher.publish(List.of(
          RecordPublisher.Change.insert(ROOMS, RecordPublisherTest.room(1, "small")),
          RecordPublisher.Change.insert(ROOMS, RecordPublisherTest.room(2, "x".repeat(4000))))));
      publisher.publish(List.of(RecordPublisher.Change.insert(ROOMS, RecordPublisherTest.room(3, "after"))));
      await("the next batch arrives", one);
      assertAll(
          () -> assertEquals(ErrorCode.X_PUBLISH_REFUSED, big.code()),
          () -> assertTrue(big.cause().contains("Change 1") && big.cause().contains("max_payload"), big.cause()),
          () -> assertEquals(List.of("3"), received.stream().map(ChangeEvent::key).toList(),
              "nothing of the refused batch went out"),
          () -> assertEquals(1L, received.get(0).seq(), "the refused batch took no seq"));
    }
  }
}
