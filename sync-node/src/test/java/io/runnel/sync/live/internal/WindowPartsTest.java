package io.runnel.sync.live.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import io.runnel.protocol.Lsn;
import io.runnel.protocol.Op;
import io.runnel.protocol.Position;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The pure parts of a window: snapshot visibility, the list diff, and the lane. */
class WindowPartsTest {

  static final EntityRef T = EntityRef.of("t").key("id").columns(c -> c.int4("id").int4("v"));

  @Test
  void visibilityFollowsXminXmaxAndTheInProgressList() {
    XidSnapshot s = XidSnapshot.parse("100:105:100,103");
    assertAll(
        () -> assertTrue(s.isVisible(99), "below xmin"),
        () -> assertFalse(s.isVisible(100), "in progress"),
        () -> assertTrue(s.isVisible(101), "between, committed"),
        () -> assertFalse(s.isVisible(103), "in progress"),
        () -> assertFalse(s.isVisible(105), "at xmax"),
        () -> assertFalse(s.isVisible(200), "after xmax"),
        () -> assertEquals("100:105:100,103", s.toString()),
        () -> assertThrows(IllegalArgumentException.class, () -> XidSnapshot.parse("1:2")));
  }

  @Test
  void a32BitXidIsWidenedAcrossAnEpochBoundary() {
    long epoch = 1L << 32;
    XidSnapshot s = XidSnapshot.parse((epoch + 5) + ":" + (epoch + 10) + ":");
    assertAll(
        () -> assertTrue(s.isVisible(0xFFFFFFF0L), "just before the wrap: the previous epoch, below xmin"),
        () -> assertFalse(s.isVisible(11), "this epoch, after xmax"),
        () -> assertTrue(s.isVisible(4), "this epoch, below xmin"));
  }

  private static Row row(int id, int v) {
    return Row.of(Map.of("id", id, "v", v));
  }

  private static List<String> apply(List<Row> before, List<Op> ops) {
    List<String> list = new ArrayList<>();
    for (Row r : before) {
      list.add(T.keyOf(r));
    }
    for (Op op : ops) {
      switch (op) {
        case Op.Del d -> list.remove(d.key());
        case Op.Place p -> {
          list.remove(p.record().key());
          list.add(p.after() == null ? 0 : list.indexOf(p.after()) + 1, p.record().key());
        }
        case Op.Update u -> assertTrue(list.contains(u.record().key()), "an in-place put names a held record");
      }
    }
    return list;
  }

  @Property(tries = 300)
  void theDiffTurnsAnyListIntoAnyOther(@ForAll @Size(max = 8) List<@IntRange(min = 0, max = 9) Integer> a,
      @ForAll @Size(max = 8) List<@IntRange(min = 0, max = 9) Integer> b, @ForAll @IntRange(max = 3) int changed) {
    List<Row> before = a.stream().distinct().map(i -> row(i, 0)).toList();
    List<Row> after = b.stream().distinct().map(i -> row(i, i < changed ? 1 : 0)).toList();
    List<Op> ops = WindowRows.diff(T, before, after);
    assertEquals(after.stream().map(T::keyOf).toList(), apply(before, ops));
    if (before.equals(after)) {
      assertEquals(List.of(), ops, "no change, no ops");
    }
  }

  @Test
  void anUnchangedPrefixCostsNoOpsAndAMoveIsOnePut() {
    List<Row> before = List.of(row(1, 0), row(2, 0), row(3, 0));
    List<Row> after = List.of(row(1, 0), row(3, 0), row(2, 0));
    List<Op> ops = WindowRows.diff(T, before, after);
    assertEquals(1, ops.size(), "one placed put: " + ops);
    assertEquals("1", ((Op.Place) ops.get(0)).after());
  }

  @Test
  void aRingHoldsOneListStatePerPositionAndMarksAFloorTwoStatesShared() {
    PatchRing.Budget budget = new PatchRing.Budget(1 << 20);
    Position p0 = new Lsn(0x100).point();
    Position p1 = new Lsn(0x200).row(1);
    Position p2 = new Lsn(0x300).row(1);
    PatchRing ring = new PatchRing(budget, p0, List.of());
    ring.record(p1, List.of(row(1, 0)), Map.of());
    ring.record(p2, List.of(row(1, 0), row(2, 0)), Map.of());
    PatchRing.Replay fromP1 = ring.since(p1);
    ring.record(p2, List.of(row(2, 0)), Map.of());
    assertAll(
        () -> assertEquals(List.of(row(1, 0)), fromP1.at()),
        () -> assertEquals(1, fromP1.entries().size(), "one entry after p1"),
        () -> assertEquals(p2, ring.floor(), "a second state at p2 starts the ring over at p2"),
        () -> assertTrue(ring.floorAmbiguous(), "so a cursor at p2 must get a snapshot"),
        () -> assertFalse(ring.since(p2) == null));
  }

  @Test
  void aLaneRunsTasksOneAtATimeInSubmissionOrder() throws Exception {
    AtomicLong pending = new AtomicLong();
    Lane lane = new Lane("test", pending);
    List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch done = new CountDownLatch(1);
    for (int i = 0; i < 1000; i++) {
      int n = i;
      lane.submit(() -> seen.add(n));
    }
    lane.submit(() -> {
      throw new IllegalStateException("a failing task does not stop the lane");
    });
    lane.submit(done::countDown);
    assertTrue(done.await(10, TimeUnit.SECONDS));
    for (int i = 0; i < 1000; i++) {
      assertEquals(i, seen.get(i));
    }
    LiveFixture.await("no work pending", () -> pending.get() == 0);
  }
}
