package io.runnel.client.store;

import io.runnel.dsl.Row;
import java.util.Objects;

/**
 * A record as the page sees it: its entity name, its key and its row (truth with the overlay applied).
 *
 * @param type the entity name
 * @param key the record key
 * @param row the row; replaced, never mutated
 */
public record ClientRecord(String type, String key, Row row) {

  /** Checks the parts are given. */
  public ClientRecord {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(row, "row");
  }

  /** The store's id of a record: {@code type:key}. */
  public static String id(String type, String key) {
    return type + ":" + key;
  }
}
