package io.runnel.protocol;

import io.runnel.wire.JsonObject;
import java.util.Objects;

/**
 * A record as frames and reads carry it ({@code docs/protocol.md}, "Record"): the entity's name, the record key, and
 * the whole row as the subscriber may see it, each column encoded per its type ("Values"). The row stays JSON here;
 * the client's record store decodes it with its entity's column types.
 *
 * @param type the entity's name
 * @param key the record key
 * @param row the whole row
 */
public record WireRecord(String type, String key, JsonObject row) {

  /**
   * Checks every part is given.
   *
   * @throws NullPointerException for a missing part
   */
  public WireRecord {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(row, "row");
  }

  /** {@code { "type", "key", "row" }}. */
  public JsonObject toJson() {
    return JsonObject.builder().put("type", type).put("key", key).put("row", row).build();
  }
}
