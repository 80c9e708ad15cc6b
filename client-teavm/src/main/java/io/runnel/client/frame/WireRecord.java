package io.runnel.client.frame;

import io.runnel.wire.JsonObject;
import java.util.Objects;

/**
 * A record as a frame carries it; the row stays JSON until the record store decodes it with its entity's types.
 *
 * @param type the entity name
 * @param key the record key
 * @param row the whole row as this subscriber may see it
 */
public record WireRecord(String type, String key, JsonObject row) {

  /** Checks the parts are given. */
  public WireRecord {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(row, "row");
  }
}
