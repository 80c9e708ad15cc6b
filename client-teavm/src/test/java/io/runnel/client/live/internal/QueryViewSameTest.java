package io.runnel.client.live.internal;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.runnel.client.live.QueryState;
import io.runnel.client.live.QueryView;
import io.runnel.client.store.ClientRecord;
import io.runnel.client.store.internal.RecordStore;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** {@link QuerySubscription#same}, which a live query uses instead of {@code equals}, agrees with {@code equals}. */
class QueryViewSameTest {

  private static final EntityRef POSTS = EntityRef.of("posts").key("id")
      .columns(c -> c.text("id").text("title").float8("score"));

  @Test
  void twoViewsAreTheSameExactlyWhenEqualsSaysSo() {
    RecordStore store = RecordStore.create();
    store.register(POSTS);
    ClientRecord a = new ClientRecord("posts", "a", Row.of(Map.of("id", "a", "title", "x")));
    ClientRecord a2 = new ClientRecord("posts", "a", Row.of(Map.of("title", "x", "id", "a")));
    ClientRecord aOther = new ClientRecord("posts", "a", Row.of(Map.of("id", "a", "title", "y")));
    ClientRecord aZero = new ClientRecord("posts", "a", Row.of(Map.of("id", "a", "score", 0.0)));
    ClientRecord aMinusZero = new ClientRecord("posts", "a", Row.of(Map.of("id", "a", "score", -0.0)));
    ClientRecord b = new ClientRecord("posts", "b", Row.of(Map.of("id", "b")));
    List<QueryView> views = List.of(
        new QueryView(new QueryState.Pending(), List.of()),
        new QueryView(new QueryState.Ready(), List.of()),
        new QueryView(new QueryState.Ready(), List.of(a, b)),
        new QueryView(new QueryState.Ready(), List.of(a2, b)),
        new QueryView(new QueryState.Ready(), List.of(b, a)),
        new QueryView(new QueryState.Ready(), List.of(aOther, b)),
        new QueryView(new QueryState.Ready(), List.of(aZero)),
        new QueryView(new QueryState.Ready(), List.of(aMinusZero)),
        new QueryView(new QueryState.Ready(), List.of(a)),
        new QueryView(new QueryState.Failed("X_A", "why", "fix"), List.of()),
        new QueryView(new QueryState.Failed("X_A", "why", "fix"), List.of()),
        new QueryView(new QueryState.Failed("X_A", "why", "other fix"), List.of()),
        new QueryView(new QueryState.Failed("X_B", "why", "fix"), List.of()),
        new QueryView(new QueryState.Failed("X_A", "other", "fix"), List.of()));
    List<Executable> checks = new ArrayList<>();
    for (QueryView x : views) {
      for (QueryView y : views) {
        checks.add(() -> assertEquals(x.equals(y), QuerySubscription.same(x, y, store), () -> x + " against " + y));
      }
    }
    assertAll(checks);
  }

  @Test
  void recordsOfATypeTheStoreDoesNotKnowAreNeverTheSame() {
    RecordStore store = RecordStore.create();
    ClientRecord a = new ClientRecord("posts", "a", Row.of(Map.of("id", "a")));
    QueryView v = new QueryView(new QueryState.Ready(), List.of(a));
    assertFalse(QuerySubscription.same(v, v, store),
        "without the entity the rows cannot be compared, so the view counts as new");
  }
}
