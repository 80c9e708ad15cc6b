package io.runnel.sync.live;

import io.runnel.wire.JsonObject;
import java.util.Objects;

/**
 * A record as frames carry it ({@code PROTOCOL.md}, "Record"): the entity's name, the record key, and the whole
 * row as the subscriber may see it, encoded per column type.
 *
 * @param type the entity's record type
 * @param key the record key
 * @param row the whole row
 */
public record LiveRecord(String type, String key, JsonObject row) {

  /** Checks every part is given. */
  public LiveRecord {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(row, "row");
  }

  /** {@code { "type", "key", "row" }}. */
  public JsonObject toJson() {
    return JsonObject.builder().put("type", type).put("key", key).put("row", row).build();
  }
}
