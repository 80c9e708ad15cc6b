package io.runnel.sync.channel.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.Actor;
import io.runnel.dsl.ChannelRef;
import io.runnel.dsl.server.Channel;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Policy;
import io.runnel.sync.channel.ChannelBus;
import io.runnel.sync.channel.ChannelException;
import io.runnel.sync.channel.ChannelMessage;
import io.runnel.sync.live.internal.LiveFixtureAccess;
import io.runnel.testing.ManualClock;
import io.runnel.wire.ErrorCode;
import io.runnel.wire.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The hub on its own, driven by hand: the bus seam between two hubs (events and presence cross; a hub ignores its
 * own messages), and the diff rules a socket test cannot reach in one step.
 */
class ChannelHubTest {

  static final ChannelRef ROOM = ChannelRef.of("room", "roomId");
  static final ChannelRef SLOW = ChannelRef.of("slow", "id");
  /** Holds every join of a {@code slow} topic inside its policy until the test lets go. */
  static final CountDownLatch GATE = new CountDownLatch(1);
  static final AtomicInteger WAITING = new AtomicInteger();
  static final Declarations DECLARATIONS = Declarations.builder()
      .channel(Channel.of(ROOM).presence().events("typing").policy(Policy.allowPublic()))
      .channel(Channel.of(SLOW).policy(Policy.custom("slow", (actor, params) -> {
        WAITING.incrementAndGet();
        try {
          return GATE.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      })))
      .build();

  final ManualClock clock = ManualClock.at(Instant.parse("2026-12-01T09:00:00Z"));

  /** A member that records the frames it is sent. */
  static final class Member implements ChannelMember {
    final String id;
    final Actor actor;
    final List<String> frames = new CopyOnWriteArrayList<>();

    Member(String id, String actor) {
      this.id = id;
      this.actor = Actor.user(actor);
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public boolean open() {
      return true;
    }

    @Override
    public Actor actor() {
      return actor;
    }

    @Override
    public synchronized boolean send(String frameText) {
      return frames.add(frameText);
    }

    /** The frames sent since the last call (a frame sent meanwhile is in this answer or the next, never lost). */
    synchronized List<String> take() {
      List<String> out = new ArrayList<>(frames);
      frames.clear();
      return out;
    }
  }

  /** Several hubs in one process on one bus: a publish reaches every listener of its topic, on the caller's thread. */
  static final class SharedBus implements ChannelBus {
    final Map<String, List<Consumer<ChannelMessage>>> listeners = new ConcurrentHashMap<>();
    final List<ChannelMessage> published = new CopyOnWriteArrayList<>();

    @Override
    public void publish(ChannelMessage message) {
      published.add(message);
      listeners.getOrDefault(message.topic(), List.of()).forEach(h -> h.accept(message));
    }

    @Override
    public Runnable listen(String topic, Consumer<ChannelMessage> handler) {
      listeners.computeIfAbsent(topic, t -> new CopyOnWriteArrayList<>()).add(handler);
      return () -> listeners.get(topic).remove(handler);
    }

    @Override
    public void close() {
      listeners.clear();
    }
  }

  ChannelHub hub(String node, ChannelBus bus) {
    return ChannelHub.builder().declarations(DECLARATIONS).nodeId(node).clock(clock).bus(bus)
        .ticker((period, task) -> () -> { }).build();
  }

  static JsonObject meta(String name) {
    return JsonObject.builder().put("name", name).build();
  }

  @Test
  void eventsAndPresenceCrossTwoHubsOnTheBusAndNoHubDeliversItsOwnMessageTwice() {
    SharedBus bus = new SharedBus();
    ChannelHub one = hub("one", bus);
    ChannelHub two = hub("two", bus);
    Member bob = new Member("s-bob", "bob");
    Member ada = new Member("s-ada", "ada");
    two.join(bob, "room.x", meta("Bob"));
    bob.take();
    long since = clock.millis();
    one.join(ada, "room.x", meta("Ada"));
    ada.take();
    two.tick();
    List<String> bobHearsAda = bob.take();
    int delivered = one.publish(Actor.user("cy"), "127.0.0.1", "room.x", "typing", JsonObject.EMPTY);
    List<String> adaEvent = ada.take();
    List<String> bobEvent = bob.take();
    one.closed(ada);
    clock.advance(Duration.ofMillis(250));
    two.tick();
    List<String> bobHearsAdaLeave = bob.take();
    assertAll(
        () -> assertEquals(List.of("{\"t\":\"presence-diff\",\"topic\":\"room.x\",\"joins\":[{\"key\":\"ada\","
            + "\"meta\":{\"name\":\"Ada\"},\"since\":" + since + "}],\"leaves\":[],\"total\":2}"), bobHearsAda),
        () -> assertEquals(1, delivered, "the count is this node's members"),
        () -> assertEquals(List.of("{\"t\":\"event\",\"topic\":\"room.x\",\"event\":\"typing\",\"payload\":{}}"),
            adaEvent, "once on the sending node"),
        () -> assertEquals(adaEvent, bobEvent, "once on the other node"),
        () -> assertEquals(List.of("{\"t\":\"presence-diff\",\"topic\":\"room.x\",\"joins\":[],\"leaves\":[\"ada\"],"
            + "\"total\":1}"), bobHearsAdaLeave, "a close on one node is a leave on the other"),
        () -> assertEquals(List.of(
            ChannelMessage.RosterRequest.class, ChannelMessage.Seated.class, // two holds room.x, asks, seats bob
            ChannelMessage.RosterRequest.class, ChannelMessage.Seated.class, // one holds it, asks; two answers: bob
            ChannelMessage.Seated.class, ChannelMessage.Event.class, ChannelMessage.Unseated.class), // ada, cy, ada
            bus.published.stream().map(m -> (Class<?>) m.getClass()).toList()));
  }

  @Test
  void aKeyThatJoinsAndLeavesWithinOneSpellIsNotShownToMembersWhoNeverSawIt() {
    ChannelHub hub = hub("one", ChannelBus.local());
    Member ada = new Member("s-ada", "ada");
    Member bob = new Member("s-bob", "bob");
    Member cy = new Member("s-cy", "cy");
    hub.join(ada, "room.y", meta("Ada"));
    hub.tick();
    ada.take();
    hub.join(bob, "room.y", meta("Bob"));
    hub.join(cy, "room.y", null);
    hub.leave(bob, "room.y");
    hub.join(bob, "room.y", meta("Bob"));
    hub.leave(bob, "room.y");
    cy.take();
    clock.advance(Duration.ofMillis(250));
    hub.tick();
    assertAll(
        () -> assertEquals(List.of(), ada.take(), "Ada never saw Bob: nothing to tell her"),
        () -> assertEquals(List.of("{\"t\":\"presence-diff\",\"topic\":\"room.y\",\"joins\":[],\"leaves\":[\"bob\"],"
            + "\"total\":1}"), cy.take(), "Cy's roster showed Bob: she is told he left"));
  }

  @Test
  void capsAreReservationsSoSeventyJoinsWaitingInThePolicyAtOnceCannotPassTheCapTogether() throws Exception {
    ChannelHub hub = hub("one", ChannelBus.local());
    Member ada = new Member("s-ada", "ada");
    AtomicInteger refused = new AtomicInteger();
    AtomicInteger joined = new AtomicInteger();
    List<Thread> joins = new ArrayList<>();
    Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    for (int i = 0; i < 70; i++) {
      String topic = SLOW.topic("t" + i);
      joins.add(Thread.ofVirtual().start(() -> {
        try {
          hub.join(ada, topic, null);
          joined.incrementAndGet();
        } catch (ChannelException e) {
          if (e.code() == ErrorCode.X_SUBSCRIPTION_LIMIT) {
            refused.incrementAndGet();
          } else {
            failures.add(e);
          }
        } catch (RuntimeException | Error e) {
          failures.add(e);
        }
      }));
    }
    LiveFixtureAccess.await("64 joins wait in the policy and 6 are refused",
        () -> WAITING.get() == 64 && refused.get() == 6 || !failures.isEmpty());
    assertEquals(List.of(), List.copyOf(failures), "no join failed otherwise");
    int waitingWhileHeld = WAITING.get();
    GATE.countDown();
    for (Thread t : joins) {
      assertTrue(t.join(Duration.ofSeconds(30)), "every join ended");
    }
    assertAll(
        () -> assertEquals(List.of(), List.copyOf(failures), "no join failed otherwise"),
        () -> assertEquals(64, waitingWhileHeld, "no join beyond the cap reached the policy"),
        () -> assertEquals(64, joined.get()),
        () -> assertEquals(6, refused.get(), "refused at once, while the others still waited"),
        () -> assertEquals(64, ada.take().size(), "one roster per accepted join"),
        () -> assertEquals(64, hub.stats().topics()));
  }

  @Test
  void theSubjectOfATopicIsOneEncodedTokenUnderRunnelChannels() {
    assertAll(
        () -> assertEquals("runnel.channels.room%2Eacme", ChannelBus.subject("room.acme")),
        () -> assertEquals("runnel.channels.room%2Ea%252Eb", ChannelBus.subject("room.a%2Eb")));
  }
}
