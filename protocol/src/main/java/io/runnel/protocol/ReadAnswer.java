package io.runnel.protocol;

import java.util.List;
import java.util.Objects;

/**
 * What a one-shot read answers ({@code GET /v1/query/{query}}, {@code docs/protocol.md}): the records the actor may
 * see, in query order, and the point they were read at.
 *
 * @param records the records, in query order, each row as the actor may see it
 * @param lsn a point (row 0): every change the read missed comes after it
 */
public record ReadAnswer(List<WireRecord> records, Position lsn) {

  /**
   * Copies the list and checks the position is given.
   *
   * @throws NullPointerException for a missing part
   */
  public ReadAnswer {
    records = List.copyOf(records);
    Objects.requireNonNull(lsn, "lsn");
  }
}
