package io.runnel.sync;

import static io.runnel.sync.ChannelFixture.join;
import static io.runnel.sync.ChannelFixture.meta;
import static io.runnel.sync.ChannelFixture.until;
import static io.runnel.sync.ChannelsTest.event;
import static io.runnel.sync.ChannelsTest.keys;
import static io.runnel.sync.ChannelsTest.leaves;
import static io.runnel.sync.ChannelsTest.num;
import static io.runnel.sync.SyncNodeTest.str;
import static io.runnel.sync.SyncNodeTest.t;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.runnel.bus.InProcessTransport;
import io.runnel.bus.NatsConfig;
import io.runnel.bus.NatsTransport;
import io.runnel.bus.Transport;
import io.runnel.sync.channel.ChannelLimits;
import io.runnel.sync.channel.ChannelMessage;
import io.runnel.sync.channel.TransportChannelBus;
import io.runnel.testing.FreshDatabase;
import io.runnel.testing.NatsServer;
import io.runnel.testing.ProtocolClient;
import io.runnel.testing.TestDatabase;
import io.runnel.wire.JsonObject;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Channels across two sync nodes, each with its own sockets, manual clock and manual ticker, whose hubs talk over a
 * {@link TransportChannelBus} on a real nats-server of the test's own (and once over an in-process transport): events
 * reach members on both nodes, seats cross nodes both ways, a node that starts holding a topic late learns the
 * seats already held, and a node gone without a goodbye has its members leave within the presence TTL. Each test
 * uses nodes and topics of its own.
 */
@FreshDatabase
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChannelsAcrossNodesTest {

  /** A short presence TTL, driven by the manual clocks. */
  static final Duration TTL = Duration.ofSeconds(3);

  NatsServer nats;
  TestDatabase db;

  @BeforeAll
  void start(TestDatabase db, @TempDir Path dir) {
    this.db = db;
    nats = NatsServer.start(dir, Map.of());
  }

  @AfterAll
  void stop() {
    nats.close();
  }

  /** One node: its fixture, the transport its channel bus runs on, and what its hub was handed. */
  record Node(ChannelFixture f, Transport transport, HeardBus heard) implements AutoCloseable {
    @Override
    public void close() {
      f.close();
      heard.close();
      transport.close();
    }
  }

  Node node(String id, Transport transport) {
    HeardBus heard = new HeardBus(new TransportChannelBus(transport));
    ChannelFixture f = new ChannelFixture(db, b -> b.nodeId(id).channelBus(heard)
        .channelLimits(ChannelLimits.DEFAULTS.withPresenceTtl(TTL)));
    return new Node(f, transport, heard);
  }

  Node natsNode(String id) {
    return node(id, NatsTransport.connect(NatsConfig.parse("NATS_URL", nats.url())));
  }

  /** Advances {@code node}'s clock by a diff interval and ticks it, so a due diff goes out. */
  static void flush(Node node) {
    node.f().clock.advance(Duration.ofMillis(250));
    node.f().ticker.tick();
  }

  @Test
  void anEventPostedOnOneNodeReachesTheMembersOfBothAndDeliveredCountsThisNodesOnly() throws Exception {
    try (Node a = natsNode("a1"); Node b = natsNode("b1")) {
      ProtocolClient<JsonObject> ada = a.f().connect("ada@acme");
      ProtocolClient<JsonObject> bob = b.f().connect("bob@acme");
      ada.send(join("room.x1", null));
      bob.send(join("room.x1", null));
      assertEquals("presence", t(ada.next()));
      assertEquals("presence", t(bob.next()));
      HttpResponse<String> sent = a.f().event("cy@acme", "room.x1", event("typing", "{\"n\":1}"));
      JsonObject atA = ada.next();
      JsonObject atB = bob.next();
      String expected = "{\"t\":\"event\",\"topic\":\"room.x1\",\"event\":\"typing\",\"payload\":{\"n\":1}}";
      assertAll(
          () -> assertEquals(202, sent.statusCode(), sent.body()),
          () -> assertEquals("{\"delivered\":1}", sent.body(), "delivered counts node A's sockets only"),
          () -> assertEquals(expected, atA.toString()),
          () -> assertEquals(expected, atB.toString(), "node B's member got it over NATS"),
          () -> assertEquals(List.of(), until(ada), "once"),
          () -> assertEquals(List.of(), until(bob), "once"));
    }
  }

  @Test
  void aJoinAndALeaveOnOneNodeReachTheOtherNodesMembersAsDiffsAndItsRosters() throws Exception {
    try (Node a = natsNode("a2"); Node b = natsNode("b2")) {
      ProtocolClient<JsonObject> ada = a.f().connect("ada@acme");
      ada.send(join("room.p2", meta("Ada")));
      ada.next();
      ProtocolClient<JsonObject> bob = b.f().connect("bob@acme");
      bob.send(join("room.p2", meta("Bob")));
      bob.next();
      a.heard().seated("room.p2", "bob");
      flush(a);
      JsonObject joined = ada.next();
      ProtocolClient<JsonObject> cy = a.f().connect("cy@acme");
      cy.send(join("room.p2", null));
      JsonObject roster = cy.next();
      bob.send("{\"t\":\"leave\",\"topic\":\"room.p2\"}");
      a.heard().unseated("room.p2");
      flush(a);
      JsonObject left = ada.next();
      JsonObject leftAtCy = cy.next();
      assertAll(
          () -> assertEquals("presence-diff", t(joined), joined.toString()),
          () -> assertEquals(List.of("bob"), keys(joined, "joins")),
          () -> assertEquals(2, num(joined, "total")),
          () -> assertEquals(List.of("ada", "bob"), keys(roster, "members"), "a later member's roster holds both"),
          () -> assertEquals("presence-diff", t(left), left.toString()),
          () -> assertEquals(List.of("bob"), leaves(left)),
          () -> assertEquals(1, num(left, "total")),
          () -> assertEquals(List.of("bob"), leaves(leftAtCy)));
    }
  }

  @Test
  void aNodeThatStartsHoldingATopicLateLearnsTheSeatsTheOtherNodesHold() throws Exception {
    try (Node a = natsNode("a3"); Node b = natsNode("b3")) {
      ProtocolClient<JsonObject> bob = b.f().connect("bob@acme");
      bob.send(join("room.l3", meta("Bob")));
      bob.next();
      a.f().clock.advance(Duration.ofSeconds(1));
      ProtocolClient<JsonObject> ada = a.f().connect("ada@acme");
      ada.send(join("room.l3", meta("Ada")));
      JsonObject first = ada.next();
      a.heard().seated("room.l3", "bob");
      flush(a);
      // Node B's answer may land before Ada's roster is sent (then the roster has Bob) or after (then a diff does).
      List<String> seenByAda = new ArrayList<>(keys(first, "members"));
      for (JsonObject frame : until(ada)) {
        seenByAda.addAll(keys(frame, "joins"));
      }
      ProtocolClient<JsonObject> cy = a.f().connect("cy@acme");
      cy.send(join("room.l3", null));
      JsonObject roster = cy.next();
      assertAll(
          () -> assertEquals("presence", t(first), "the join is answered at once"),
          () -> assertEquals(List.of("bob", "ada"), seenByAda.stream().sorted(Comparator.reverseOrder()).toList(),
              "node B answered node A's request: " + seenByAda),
          () -> assertEquals(List.of("bob", "ada"), keys(roster, "members"), "oldest first: Bob joined before"),
          () -> assertEquals("Bob", str((JsonObject) ChannelsTest.member(roster, "members", 0).get("meta"), "name")));
    }
  }

  @Test
  void aNodeGoneWithoutAGoodbyeHasItsMembersLeaveTheOtherNodeWithinThePresenceTtl() throws Exception {
    try (Node a = natsNode("a4")) {
      ProtocolClient<JsonObject> ada = a.f().connect("ada@acme");
      ada.send(join("room.t4", meta("Ada")));
      ada.next();
      Node b = natsNode("b4");
      ProtocolClient<JsonObject> bob = b.f().connect("bob@acme");
      bob.send(join("room.t4", meta("Bob")));
      bob.next();
      a.heard().seated("room.t4", "bob");
      flush(a);
      JsonObject joined = ada.next();
      b.transport().close();
      b.close();
      a.f().clock.advance(TTL.minusMillis(350));
      a.f().ticker.tick();
      List<JsonObject> withinTtl = until(ada);
      a.f().clock.advance(Duration.ofMillis(150));
      a.f().ticker.tick();
      JsonObject left = ada.next();
      assertAll(
          () -> assertEquals(List.of("bob"), keys(joined, "joins")),
          () -> assertEquals(List.of(), withinTtl, "Bob stays while his node's last announcement is within the TTL"),
          () -> assertEquals("presence-diff", t(left), left.toString()),
          () -> assertEquals(List.of("bob"), leaves(left), "then he leaves, though his node said no goodbye"),
          () -> assertEquals(1, num(left, "total")));
    }
  }

  @Test
  void aNodeThatKeepsAnnouncingKeepsItsMembersOnTheOtherNodePastTheTtl() throws Exception {
    try (Node a = natsNode("a5"); Node b = natsNode("b5")) {
      ProtocolClient<JsonObject> ada = a.f().connect("ada@acme");
      ada.send(join("room.k5", meta("Ada")));
      ada.next();
      ProtocolClient<JsonObject> bob = b.f().connect("bob@acme");
      bob.send(join("room.k5", meta("Bob")));
      bob.next();
      a.heard().seated("room.k5", "bob");
      flush(a);
      ada.next();
      for (int i = 0; i < 4; i++) {
        b.f().clock.advance(TTL.dividedBy(3));
        b.f().ticker.tick();
        a.heard().seated("room.k5", "bob");
        a.f().clock.advance(TTL.dividedBy(3));
        a.f().ticker.tick();
      }
      assertEquals(List.of(), until(ada), "re-announced every third of the TTL, Bob never leaves");
    }
  }

  @Test
  void afterABusGapEachNodeAnnouncesItsSeatsAndAsksForTheOthersAgain(@TempDir Path dir) throws Exception {
    try (NatsServer own = NatsServer.start(dir, Map.of());
        Node b = node("b7", reconnecting(own));
        Node a = node("a7", reconnecting(own))) {
      ProtocolClient<JsonObject> bob = b.f().connect("bob@acme");
      bob.send(join("room.r7", meta("Bob")));
      bob.next();
      ProtocolClient<JsonObject> ada = a.f().connect("ada@acme");
      ada.send(join("room.r7", meta("Ada")));
      ada.next();
      a.heard().seated("room.r7", "bob");
      b.heard().seated("room.r7", "ada");
      flush(a);
      flush(b);
      until(ada);
      until(bob);
      own.kill();
      own.startAgain();
      // Neither node ticks, so only the reconnect can make them announce again.
      ChannelMessage.Seated bobAgain = a.heard().seated("room.r7", "bob");
      ChannelMessage.Seated adaAgain = b.heard().seated("room.r7", "ada");
      flush(a);
      assertAll(
          () -> assertEquals("b7", bobAgain.origin()),
          () -> assertEquals("a7", adaAgain.origin()),
          () -> assertEquals(List.of(), until(ada), "an unchanged seat announced again sends no frame"));
    }
  }

  @Test
  void whileTheBusIsDownANewTopicIsHeldOnThisNodeAloneAndListensAcrossNodesOnceTheBusIsBack(@TempDir Path dir)
      throws Exception {
    try (NatsServer own = NatsServer.start(dir, Map.of()); Node a = node("a8", reconnecting(own));
        Node b = node("b8", reconnecting(own))) {
      ProtocolClient<JsonObject> ada = a.f().connect("ada@acme");
      ada.send(join("room.d8", null));
      ada.next();
      own.kill();
      ada.send(join("room.d8-new", meta("Ada")));
      JsonObject roster = ada.next();
      HttpResponse<String> sent = a.f().event("bob@acme", "room.d8-new", event("typing", "1"));
      JsonObject heard = ada.next();
      own.startAgain();
      ProtocolClient<JsonObject> bob = b.f().connect("bob@acme");
      bob.send(join("room.d8-new", meta("Bob")));
      bob.next();
      // Node a listens again once its transport is back, and asks for the seats: bob's reaches it, and ada's b.
      a.heard().seated("room.d8-new", "bob");
      b.heard().seated("room.d8-new", "ada");
      HttpResponse<String> fromB = b.f().event("bob@acme", "room.d8-new", event("typing", "2"));
      JsonObject acrossNodes = ada.next();
      assertAll(
          () -> assertEquals("presence", t(roster), "the join is accepted while the bus is down: " + roster),
          () -> assertEquals("{\"delivered\":1}", sent.body(), "the bus is down; this node's member still hears"),
          () -> assertEquals("event", t(heard)),
          () -> assertEquals("{\"delivered\":1}", fromB.body()),
          () -> assertEquals("event", t(acrossNodes), "an event from the other node arrives once a listens"),
          () -> assertEquals("2", acrossNodes.get("payload").toString(), acrossNodes.toString()));
    }
  }

  @Test
  void aSeatsLateSeatedNeverBringsBackASeatThatLeftAndAnUnstampedOneStillApplies() throws Exception {
    InProcessTransport shared = InProcessTransport.create();
    try (Node a = node("a9", shared)) {
      ProtocolClient<JsonObject> ada = a.f().connect("ada@acme");
      ada.send(join("room.s9", meta("Ada")));
      ada.next();
      // Node b9 is only a bus here, publishing as two of its threads may: bob's leave (stamp 7) overtakes the seated
      // of his join (stamp 6).
      TransportChannelBus fromB = new TransportChannelBus(shared);
      fromB.publish(new ChannelMessage.Unseated("b9", "room.s9", "b9/s1", 7));
      a.heard().unseated("room.s9");
      fromB.publish(new ChannelMessage.Seated("b9", "room.s9", "b9/s1", "bob", meta("Bob"), 1, 6));
      a.heard().seated("room.s9", "bob");
      // A seat of a newer state joins; one without a stamp (a node of an earlier release) is applied as it comes.
      fromB.publish(new ChannelMessage.Seated("b9", "room.s9", "b9/s2", "cyd", meta("Cyd"), 1, 8));
      a.heard().seated("room.s9", "cyd");
      fromB.publish(new ChannelMessage.Seated("b9", "room.s9", "b9/s3", "dee", meta("Dee"), 1, 0));
      a.heard().seated("room.s9", "dee");
      flush(a);
      JsonObject diff = ada.next();
      assertAll(
          () -> assertEquals("presence-diff", t(diff), diff.toString()),
          () -> assertEquals(List.of("cyd", "dee"), keys(diff, "joins").stream().sorted().toList(),
              "bob left before his late seated arrived: " + diff),
          () -> assertEquals(3, num(diff, "total"), diff.toString()));
    }
  }

  static NatsTransport reconnecting(NatsServer server) {
    return NatsTransport.connect(NatsConfig.parse("NATS_URL", server.url()).withReconnect(Duration.ofMillis(100), 0));
  }

  @Test
  void twoNodesInOneJvmShareEventsAndSeatsOverAnInProcessTransport() throws Exception {
    InProcessTransport shared = InProcessTransport.create();
    try (Node a = node("a6", shared); Node b = node("b6", shared)) {
      ProtocolClient<JsonObject> ada = a.f().connect("ada@acme");
      ada.send(join("room.i6", meta("Ada")));
      ada.next();
      ProtocolClient<JsonObject> bob = b.f().connect("bob@acme");
      bob.send(join("room.i6", meta("Bob")));
      bob.next();
      a.heard().seated("room.i6", "bob");
      flush(a);
      JsonObject joined = ada.next();
      HttpResponse<String> sent = b.f().event("bob@acme", "room.i6", event("typing", "true"));
      JsonObject atA = ada.next();
      assertAll(
          () -> assertEquals(List.of("bob"), keys(joined, "joins")),
          () -> assertEquals("{\"delivered\":1}", sent.body()),
          () -> assertEquals("event", t(atA)));
    }
  }
}
