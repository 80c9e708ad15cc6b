package io.runnel.sync.live;

import io.runnel.protocol.Position;
import java.util.Objects;
import java.util.Set;

/**
 * A cursor as a client sends it in {@code sub} to resume ({@code PROTOCOL.md}, "Cursor"): the window, the LSN its
 * list reflects, when, and the keys it holds for the subscription.
 *
 * @param qid {@code <name>:<16 hex>@<tenant>}
 * @param lsn the position the client's list reflects
 * @param at epoch milliseconds
 * @param ids the record keys the client holds for this subscription
 */
public record ResumeCursor(String qid, Position lsn, long at, Set<String> ids) {

  /** Checks the parts and copies the ids. */
  public ResumeCursor {
    Objects.requireNonNull(qid, "qid");
    Objects.requireNonNull(lsn, "lsn");
    ids = Set.copyOf(ids);
  }

  Cursor cursor() {
    return new Cursor(qid, lsn, at);
  }
}
