package io.runnel.protocol;

import io.runnel.wire.JsonObject;
import java.util.Objects;

/**
 * Where a subscription stands, as the node sends it in {@code snapshot} and {@code patch} ({@code docs/protocol.md},
 * "Cursor"): the window, the position its list reflects, and when.
 *
 * @param qid the window's id, {@code <query>:<16 hex>@<tenant>}
 * @param lsn the window's position
 * @param at epoch milliseconds
 */
public record Cursor(String qid, Position lsn, long at) {

  /**
   * Checks the parts are given.
   *
   * @throws NullPointerException for a missing part
   */
  public Cursor {
    Objects.requireNonNull(qid, "qid");
    Objects.requireNonNull(lsn, "lsn");
  }

  /** {@code { "qid", "lsn", "at" }}. */
  public JsonObject toJson() {
    return JsonObject.builder().put("qid", qid).put("lsn", lsn.toString()).put("at", at).build();
  }
}
