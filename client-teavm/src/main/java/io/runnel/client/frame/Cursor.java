package io.runnel.client.frame;

import java.util.Objects;

/**
 * A subscription's position as the node sent it in a {@code snapshot} or {@code patch}.
 *
 * @param qid {@code <query>:<16 hex>@<tenant>}
 * @param lsn the position, 24 lower-case hex digits
 * @param at epoch milliseconds
 */
public record Cursor(String qid, String lsn, long at) {

  /** Checks the parts. @throws IllegalArgumentException for an LSN that is not 24 lower-case hex digits */
  public Cursor {
    Objects.requireNonNull(qid, "qid");
    Lsns.require(lsn, "cursor.lsn");
  }
}
