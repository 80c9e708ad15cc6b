package io.runnel.sync.live;

import io.runnel.protocol.Position;
import io.runnel.wire.JsonObject;
import java.util.Objects;

/**
 * Where a subscription stands ({@code PROTOCOL.md}, "Cursor"): the window's id, the LSN its list reflects, and
 * when.
 *
 * @param qid {@code <name>:<16 hex>@<tenant>}
 * @param lsn the window's position
 * @param at epoch milliseconds
 */
public record Cursor(String qid, Position lsn, long at) {

  /** Checks the parts are given. */
  public Cursor {
    Objects.requireNonNull(qid, "qid");
    Objects.requireNonNull(lsn, "lsn");
  }

  /** {@code { "qid", "lsn", "at" }}. */
  public JsonObject toJson() {
    return JsonObject.builder().put("qid", qid).put("lsn", lsn.toString()).put("at", at).build();
  }
}
