package io.runnel.sync.live;

import io.runnel.wire.JsonObject;
import java.util.Objects;

/**
 * Where a subscription stands ({@code PROTOCOL.md}, "Cursor"): the window's id, the LSN its list reflects, and
 * when.
 *
 * @param qid {@code <name>:<16 hex>@<tenant>}
 * @param lsn 24 hex, the window's position
 * @param at epoch milliseconds
 */
public record Cursor(String qid, String lsn, long at) {

  /** Checks the parts are given and the LSN is 24 lower-case hex digits. */
  public Cursor {
    Objects.requireNonNull(qid, "qid");
    Objects.requireNonNull(lsn, "lsn");
    if (!lsn.matches("[0-9a-f]{24}")) {
      throw new IllegalArgumentException("A cursor's lsn is 24 lower-case hex digits, not '" + lsn + "'");
    }
  }

  /** {@code { "qid", "lsn", "at" }}. */
  public JsonObject toJson() {
    return JsonObject.builder().put("qid", qid).put("lsn", lsn).put("at", at).build();
  }
}
