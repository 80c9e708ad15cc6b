package io.runnel.sync;

import static io.runnel.sync.ChannelFixture.join;
import static io.runnel.sync.ChannelFixture.meta;
import static io.runnel.sync.ChannelsTest.keys;
import static io.runnel.sync.SyncNodeTest.t;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.testing.Await;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A client whose connection drops without a close frame (a tab killed, a network gone): Helidon 4.5 tells the
 * listener nothing when reading fails, so the node's sweep notices the closed connection within about a second and
 * lets go of the socket: its slot, its subscriptions and its presence seats.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DroppedConnectionTest {

  ChannelFixture f;

  @BeforeAll
  void start(TestDatabase db) {
    f = new ChannelFixture(db, b -> b);
  }

  @AfterAll
  void stop() {
    f.close();
  }

  @Test
  void aConnectionDroppedWithoutACloseFrameIsLetGoAndItsPresenceLeaves() throws Exception {
    ProtocolClient<JsonObject> bob = f.connect("bob@acme");
    bob.send(join("room.dropped", meta("Bob")));
    bob.next();
    try (RawSocket ada = RawSocket.open(f.node.port(), "ada@acme", 0)) {
      ada.send(join("room.dropped", meta("Ada")));
      ada.read();
      f.ticker.tick();
      JsonObject joined = bob.next();
      long before = sockets();
      ada.close();
      Await.until("the node sees ada's socket go", Duration.ofSeconds(20), Duration.ofMillis(50),
          () -> sockets() != before);
      f.clock.advance(Duration.ofMillis(250));
      f.ticker.tick();
      JsonObject left = bob.next();
      assertAll(
          () -> assertEquals(List.of("ada"), keys(joined, "joins")),
          () -> assertEquals(before - 1, sockets(), "the node let go of ada's socket"),
          () -> assertEquals("presence-diff", t(left)),
          () -> assertEquals("[\"ada\"]", left.get("leaves").toString(), "and her seat"));
    }
    bob.close();
  }

  private long sockets() throws Exception {
    Matcher m = Pattern.compile("(?m)^runnel_sockets ([0-9.eE+]+)$").matcher(f.metrics());
    assertTrue(m.find(), "runnel_sockets is in /metrics");
    return (long) Double.parseDouble(m.group(1));
  }
}
