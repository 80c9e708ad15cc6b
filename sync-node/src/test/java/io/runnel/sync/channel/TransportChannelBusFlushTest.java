package io.runnel.sync.channel;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.runnel.bus.NatsConfig;
import io.runnel.bus.NatsTransport;
import io.runnel.testing.NatsServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TransportChannelBus#flush} on a real nats-server, as a draining node uses it: a leave flushed while the bus
 * is up reaches another node's hub; a flush while the bus is down returns instead of throwing, so the drain goes on
 * and the other nodes drop the seats by the presence TTL.
 */
class TransportChannelBusFlushTest {

  @Test
  void aFlushedLeaveReachesTheOtherNodeAndAFlushWhileTheBusIsDownNeverThrows(@TempDir Path dir) throws Exception {
    try (NatsServer nats = NatsServer.start(dir, Map.of());
        NatsTransport here = NatsTransport.connect(NatsConfig.parse("NATS_URL", nats.url())
            .withReconnect(Duration.ofMillis(100), 0));
        NatsTransport there = NatsTransport.connect(NatsConfig.parse("NATS_URL", nats.url()))) {
      TransportChannelBus node = new TransportChannelBus(here);
      TransportChannelBus other = new TransportChannelBus(there);
      LinkedBlockingQueue<ChannelMessage> heard = new LinkedBlockingQueue<>();
      other.listen("room.f1", heard::add);
      ChannelMessage.Unseated leave = new ChannelMessage.Unseated("a", "room.f1", "ada", 1);
      node.publish(leave);
      node.flush(Duration.ofSeconds(5));
      ChannelMessage arrived = heard.poll(30, TimeUnit.SECONDS);
      nats.kill();
      node.publish(new ChannelMessage.Unseated("a", "room.f1", "cy", 2));
      assertAll(
          () -> assertEquals(leave, arrived, "the flushed leave reached the other node's hub"),
          () -> assertDoesNotThrow(() -> node.flush(Duration.ofMillis(300)),
              "a bus that is down is logged, not thrown"));
    }
  }
}
