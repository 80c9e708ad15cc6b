package io.runnel.loadtest;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.runnel.loadtest.DecodeWorkload.Change;
import io.runnel.loadtest.DecodeWorkload.Kind;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The decode workload's plan: its size, transaction sizes, mix, and that every change touches a row that exists. */
class DecodeWorkloadTest {

  @Test
  void thePlanHasExactlyTheChangesAskedForInTransactionsOfOneToMaxRows() {
    List<List<Change>> plan = DecodeWorkload.plan(20_000, 50, 1);
    assertAll(
        () -> assertEquals(20_000, plan.stream().mapToInt(List::size).sum()),
        () -> assertTrue(plan.stream().allMatch(tx -> !tx.isEmpty() && tx.size() <= 50), "1 to 50 rows each"),
        () -> assertEquals(plan, DecodeWorkload.plan(20_000, 50, 1), "the same seed gives the same plan"));
  }

  @Test
  void everyUpdateAndDeleteTouchesALiveRowAndKeysAreNeverReused() {
    Set<Long> live = new HashSet<>();
    Set<Long> ever = new HashSet<>();
    for (List<Change> tx : DecodeWorkload.plan(50_000, 50, 3)) {
      for (Change c : tx) {
        switch (c.kind()) {
          case INSERT -> assertTrue(ever.add(c.id()) && live.add(c.id()), "new key " + c.id());
          case UPDATE -> assertTrue(live.contains(c.id()), "update of live " + c.id());
          case DELETE -> assertTrue(live.remove(c.id()), "delete of live " + c.id());
        }
      }
    }
  }

  @Test
  void theMixIsAboutHalfInsertsThirtyPercentUpdatesTwentyPercentDeletes() {
    Map<Kind, Long> counts = DecodeWorkload.plan(100_000, 50, 1).stream().flatMap(List::stream)
        .collect(Collectors.groupingBy(Change::kind, Collectors.counting()));
    Function<Kind, Double> share = k -> counts.getOrDefault(k, 0L) / 100_000.0;
    assertAll(
        () -> assertEquals(0.5, share.apply(Kind.INSERT), 0.02),
        () -> assertEquals(0.3, share.apply(Kind.UPDATE), 0.02),
        () -> assertEquals(0.2, share.apply(Kind.DELETE), 0.02));
  }

  @Test
  void notesAreEightyToAHundredCharacters() {
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < 1000; i++) {
      int n = DecodeWorkload.note(r).length();
      assertTrue(n >= 80 && n <= 100, "length " + n);
    }
  }

  @Test
  void aSizeBelowOneIsRefused() {
    assertAll(
        () -> assertThrows(IllegalArgumentException.class, () -> DecodeWorkload.plan(0, 50, 1)),
        () -> assertThrows(IllegalArgumentException.class, () -> DecodeWorkload.plan(10, 0, 1)));
  }
}
