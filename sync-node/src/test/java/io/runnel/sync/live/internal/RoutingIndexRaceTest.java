package io.runnel.sync.live.internal;

import static org.junit.jupiter.api.Assertions.assertNull;

import io.runnel.dsl.Actor;
import io.runnel.dsl.Dsl;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import io.runnel.dsl.server.Entity;
import io.runnel.protocol.Lsn;
import io.runnel.protocol.Position;
import io.runnel.replicator.ChangeEvent;
import io.runnel.time.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Regression (found in review): the dispatcher indexing a key while a lane pruned it could lose the entry, so a
 * row later leaving a pinned value under REPLICA IDENTITY DEFAULT was never routed to the window holding it.
 */
class RoutingIndexRaceTest {

  static final EntityRef T = EntityRef.of("t").key("id").columns(c -> c.int4("id").text("org").int4("v"));
  static final Entity E = Entity.of(T).table("public.t");

  private static Position lsn(long i) {
    return new Lsn(i << 8).row(1);
  }

  @Test
  void aPruneRacingTheDispatcherNeverLosesANewerKeyEntry() throws Exception {
    RoutingIndex routing = new RoutingIndex(t -> T);
    LiveWindow.Context ctx = new LiveWindow.Context(new WindowReader(null, Duration.ofSeconds(1),
        new LiveCounters()), routing, new RecentTransactions(10, 10), new PatchRing.Budget(1 << 20),
        new Semaphore(1), Clock.systemUTC(), 0, 250, 60_000, new DeliveredPosition(), Sleeper.SYSTEM);
    LiveWindow w = new LiveWindow(WindowId.of("q:0000000000000000", null, false, Actor.user("u")), E,
        Dsl.select(T).where(Dsl.eq("org", "a")), new Lane("w", new AtomicLong()), ctx, () -> { });
    routing.add(w);
    routing.doneReading(w, List.of(), lsn(1));
    AtomicReference<Position> published = new AtomicReference<>(lsn(1));
    AtomicReference<String> lost = new AtomicReference<>();
    Thread lane = Thread.ofPlatform().start(() -> {
      while (lost.get() == null && !Thread.currentThread().isInterrupted()) {
        routing.prune(w, "1", published.get());
      }
    });
    for (long i = 2; i < 200_000 && lost.get() == null; i++) {
      Position l = lsn(i);
      routing.route(new ChangeEvent.Update("public.t", "t", "1", Row.of(Map.of("id", 1, "org", "a",
          "v", (int) i)), null, List.of(), false, l, i, true, 0L, null, "p", i));
      if (routing.keyEntries() != 1) {
        lost.set("after " + i + " changes the key index lost row 1 of the window, which still holds it");
      }
      published.set(l);
    }
    lane.interrupt();
    lane.join();
    assertNull(lost.get());
  }
}
