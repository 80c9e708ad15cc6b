package io.runnel.client.frame;

import io.runnel.wire.JsonObject;
import io.runnel.wire.Nullable;
import java.util.Objects;

/** One change to a subscription's list ({@code PROTOCOL.md}, "Op"), applied in sequence. */
public sealed interface Op permits Op.Place, Op.Update, Op.Del {

  /** The entity name. */
  String type();

  /** The record key. */
  String key();

  /**
   * A {@code put} with an {@code after} member: insert the record, or move it, to just after {@code after}.
   *
   * @param type the entity name
   * @param key the record key
   * @param row the whole row
   * @param after the key of the nearest preceding visible record, or null to place it first
   */
  record Place(String type, String key, JsonObject row, @Nullable String after) implements Op {
    /** Checks the parts are given. */
    public Place {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(row, "row");
    }

    /** The record this op carries. */
    public WireRecord record() {
      return new WireRecord(type, key, row);
    }
  }

  /**
   * A {@code put} with no {@code after} member: the record's row is replaced where it stands.
   *
   * @param type the entity name
   * @param key the record key
   * @param row the whole row
   */
  record Update(String type, String key, JsonObject row) implements Op {
    /** Checks the parts are given. */
    public Update {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(row, "row");
    }

    /** The record this op carries. */
    public WireRecord record() {
      return new WireRecord(type, key, row);
    }
  }

  /**
   * A {@code del}: the record leaves this subscription's list.
   *
   * @param type the entity name
   * @param key the record key
   */
  record Del(String type, String key) implements Op {
    /** Checks the parts are given. */
    public Del {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(key, "key");
    }
  }
}
