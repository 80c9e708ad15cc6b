package io.runnel.sync.live;

import io.runnel.protocol.Position;
import java.util.List;
import java.util.Objects;

/**
 * What a one-shot read answered ({@code GET /v1/query}): the records the actor may see, in query order, and the LSN
 * they were read at.
 *
 * @param records the records, in query order, each row as the actor may see it
 * @param lsn a point (row 0): every change the read missed comes at or after it
 */
public record QueryRead(List<LiveRecord> records, Position lsn) {

  /** Copies the list and checks the LSN is given. */
  public QueryRead {
    records = List.copyOf(records);
    Objects.requireNonNull(lsn, "lsn");
  }
}
