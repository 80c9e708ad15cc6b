package io.runnel.client.live;

import io.runnel.client.store.ClientRecord;
import java.util.List;
import java.util.Objects;

/**
 * What a live query shows at one moment: its state and its records in query order.
 *
 * @param state pending, ready or failed
 * @param records the records, optimistic ones placed in order
 */
public record QueryView(QueryState state, List<ClientRecord> records) {

  /** Checks and copies the parts. */
  public QueryView {
    Objects.requireNonNull(state, "state");
    records = List.copyOf(records);
  }
}
