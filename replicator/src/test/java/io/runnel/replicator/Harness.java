package io.runnel.replicator;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.runnel.bus.InProcessTransport;
import io.runnel.bus.Subjects;
import io.runnel.bus.Transport;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.server.Entity;
import io.runnel.testing.Await;
import io.runnel.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A replicator on a test database publishing to a real in-process bus, with a subscriber that decodes every
 * envelope: changes into a queue the test reads from, position heartbeats into another, and every message in bus
 * order into a third.
 */
final class Harness implements AutoCloseable {

  static final Duration WAIT = Duration.ofSeconds(30);

  final InProcessTransport bus;
  final BlockingQueue<ChangeEvent> events = new LinkedBlockingQueue<>();
  final BlockingQueue<PositionEvent> positions = new LinkedBlockingQueue<>();
  final List<BusMessage> messages = new CopyOnWriteArrayList<>();
  final Replicator replicator;
  private final Map<String, EntityRef> refs = new HashMap<>();

  private Harness(DatabaseUrl url, String slot, List<Entity> entities, Transport publishVia, InProcessTransport bus,
      Duration standbyRetry) {
    this.bus = bus;
    for (Entity e : entities) {
      refs.put(e.name(), e.ref());
    }
    bus.subscribe(Subjects.ALL_CHANGES, m -> {
      BusMessage message = BusEnvelope.decode(m.payload(), refs::get);
      messages.add(message);
      switch (message) {
        case ChangeEvent change -> events.add(change);
        case PositionEvent position -> positions.add(position);
      }
    });
    this.replicator = Replicator.builder().database(url).slot(slot).publication(slot).entities(entities)
        .transport(publishVia).standbyRetry(standbyRetry).backoff(Duration.ofMillis(50), Duration.ofMillis(500))
        .flushDeadline(Duration.ofSeconds(2)).build();
  }

  static DatabaseUrl url(TestDatabase db) {
    return DatabaseUrl.parse("test", db.jdbcUrl());
  }

  /** A started replicator on {@code db} publishing straight to a fresh in-process bus. */
  static Harness start(TestDatabase db, String slot, List<Entity> entities) {
    InProcessTransport bus = InProcessTransport.create();
    Harness h = new Harness(url(db), slot, entities, bus, bus, Duration.ofMillis(200));
    h.replicator.start();
    return h;
  }

  /** A replicator (not started) that publishes through {@code via}, which forwards to this harness's bus. */
  static Harness via(DatabaseUrl url, String slot, List<Entity> entities, InProcessTransport bus, Transport via) {
    return new Harness(url, slot, entities, via, bus, Duration.ofMillis(200));
  }

  /** Waits until the replicator streams. */
  Harness awaitStreaming() throws InterruptedException {
    new StateWait(replicator).until(ReplicatorStats.State.STREAMING);
    return this;
  }

  /** Polls a replicator's state until it is the one wanted, failing after {@link #WAIT}. */
  record StateWait(Replicator replicator) {
    void until(ReplicatorStats.State wanted) throws InterruptedException {
      Await.until(() -> "the replicator reaches " + wanted + ": " + replicator.stats(), WAIT, Duration.ofMillis(20),
          () -> replicator.stats().state() == wanted);
    }
  }

  /** The next {@code n} events, failing when they do not all arrive in time. */
  List<ChangeEvent> take(int n) throws InterruptedException {
    List<ChangeEvent> out = new ArrayList<>(n);
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (out.size() < n) {
      ChangeEvent e = events.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      assertNotNull(e, "only " + out.size() + " of " + n + " events arrived; replicator: " + replicator.stats());
      out.add(e);
    }
    return out;
  }

  /** The next event. */
  ChangeEvent next() throws InterruptedException {
    return take(1).get(0);
  }

  @Override
  public void close() {
    replicator.stop();
    bus.close();
  }
}
