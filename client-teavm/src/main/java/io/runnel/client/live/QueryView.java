package io.runnel.client.live;

import io.runnel.client.store.ClientRecord;
import io.runnel.client.store.RecordStore;
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

  /**
   * Whether {@code other} shows the same as this view ({@link #equals}), compared field by field and each row
   * through its entity's column types ({@link RecordStore#sameRow}), so that a client bundle does not link every
   * record's {@code equals} ({@code docs/client.md}, "Sizes").
   *
   * @param rows the store whose entities the records belong to
   */
  public boolean same(QueryView other, RecordStore rows) {
    if (!sameState(state, other.state) || records.size() != other.records.size()) {
      return false;
    }
    for (int i = 0; i < records.size(); i++) {
      ClientRecord a = records.get(i);
      ClientRecord b = other.records.get(i);
      if (!a.type().equals(b.type()) || !a.key().equals(b.key()) || !rows.sameRow(a.type(), a.row(), b.row())) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameState(QueryState a, QueryState b) {
    if (a instanceof QueryState.Failed x) {
      return b instanceof QueryState.Failed y && x.code().equals(y.code()) && x.cause().equals(y.cause())
          && x.fix().equals(y.fix());
    }
    return a instanceof QueryState.Pending ? b instanceof QueryState.Pending : b instanceof QueryState.Ready;
  }
}
