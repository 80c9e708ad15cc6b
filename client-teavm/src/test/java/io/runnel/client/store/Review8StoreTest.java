package io.runnel.client.store;

import static io.runnel.client.store.Fixtures.LSN1;
import static io.runnel.client.store.Fixtures.LSN2;
import static io.runnel.client.store.Fixtures.POSTS;
import static io.runnel.client.store.Fixtures.wire;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.runnel.dsl.MutatorRef;
import io.runnel.dsl.Row;
import io.runnel.wire.JsonCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Review 8: settling by a digest that another subscription's patch named. */
class Review8StoreTest {

  /** Renames p1 and p2 to the input: convergent. */
  private static final MutatorRef<String> RENAME_BOTH = MutatorRef.of("renameBoth", JsonCodec.text())
      .local((tx, title) -> {
        tx.update(POSTS, "p1", p -> p.with("title", title));
        tx.update(POSTS, "p2", p -> p.with("title", title));
      });

  /**
   * Review 8, finding 1 (the common shape): one write changes p1 (held by list A) and p2 (held by list B). B's patch,
   * naming the write, comes first (frames of different subscriptions are independent); the write settles by its
   * digest and p1 lingers showing truth's OLD row until A's own patch comes: a flicker for a convergent twin.
   */
  @Test
  void aWriteSettledByTheEchoOfOneOfItsRecordsKeepsShowingItsOtherRecordsUntilTheirEchoes() {
    RecordStore store = RecordStore.create();
    store.register(POSTS);
    Object listA = new Object();
    Object listB = new Object();
    List<String> p1Titles = new ArrayList<>();
    store.listen(() -> {
      Row r = store.get("posts", "p1");
      String t = r == null ? null : r.text("title");
      if (p1Titles.isEmpty() || !p1Titles.get(p1Titles.size() - 1).equals(t)) {
        p1Titles.add(t);
      }
    });
    store.batch(() -> {
      store.hold(listA, "posts", store.accept(wire("p1", "Old", 1), LSN1));
      store.hold(listB, "posts", store.accept(wire("p2", "Old", 2), LSN1));
    });
    store.apply("w1", RENAME_BOTH, "New");
    store.answered("w1", "d1", "000000000000000300000000");
    store.batch(() -> {
      store.accept(wire("p2", "New", 2), LSN2);
      store.noteWrites(List.of("d1"));
    });
    store.batch(() -> {
      store.accept(wire("p1", "New", 1), LSN2);
      store.noteWrites(List.of("d1"));
    });
    assertEquals(List.of("Old", "New"), p1Titles, "p1 goes to New once and never back to Old");
  }
}
