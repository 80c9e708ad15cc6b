package io.runnel.protocol;

import java.util.List;
import java.util.Objects;

/**
 * A cursor as a client sends it in {@code sub} to resume ({@code docs/protocol.md}, "Cursor"): the node's last
 * {@link Cursor} for the subscription and the keys the client holds for it.
 *
 * @param qid the window's id, as the node's cursor named it
 * @param lsn the position the client's list reflects
 * @param at epoch milliseconds, as the node's cursor gave them
 * @param ids the record keys the client holds for this subscription, in its list's order (the node reads them as a
 *     set)
 */
public record ResumeCursor(String qid, Position lsn, long at, List<String> ids) {

  /**
   * Checks the parts and copies the ids.
   *
   * @throws NullPointerException for a missing part or id
   */
  public ResumeCursor {
    Objects.requireNonNull(qid, "qid");
    Objects.requireNonNull(lsn, "lsn");
    ids = List.copyOf(ids);
  }

  /** A resume from {@code cursor}, holding {@code ids}. */
  public static ResumeCursor of(Cursor cursor, List<String> ids) {
    return new ResumeCursor(cursor.qid(), cursor.lsn(), cursor.at(), ids);
  }

  /** The node's cursor this resumes from. */
  public Cursor cursor() {
    return new Cursor(qid, lsn, at);
  }
}
