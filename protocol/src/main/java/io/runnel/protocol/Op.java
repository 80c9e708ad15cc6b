package io.runnel.protocol;

import io.runnel.wire.JsonObject;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One step of a {@code patch} or {@code records} frame ({@code docs/protocol.md}, "Op"); ops apply in sequence to a
 * subscription's list. On the wire a {@code put} with an {@code after} member is a {@link Place}, a {@code put}
 * without one an {@link Update}, and a {@code del} a {@link Del}.
 */
public sealed interface Op permits Op.Place, Op.Update, Op.Del {

  /** The entity's name. */
  String type();

  /** The record key. */
  String key();

  /** The op as the frame carries it. */
  JsonObject toJson();

  /**
   * A {@code put} with {@code after}: insert the record, or move it, to just after {@code after}.
   *
   * @param record the whole record
   * @param after the key of the nearest preceding record the subscriber can see, or null to place it first
   *     (written as JSON {@code null})
   */
  record Place(WireRecord record, @Nullable String after) implements Op {
    /**
     * Checks the record is given.
     *
     * @throws NullPointerException without one
     */
    public Place {
      Objects.requireNonNull(record, "record");
    }

    @Override
    public String type() {
      return record.type();
    }

    @Override
    public String key() {
      return record.key();
    }

    @Override
    public JsonObject toJson() {
      return JsonObject.builder().put("op", "put").put("type", record.type()).put("key", record.key())
          .put("row", record.row()).put("after", after).build();
    }
  }

  /**
   * A {@code put} without {@code after}: the record's row is replaced where it stands (a records channel's ops are
   * all of this kind: a topic has no order).
   *
   * @param record the whole record
   */
  record Update(WireRecord record) implements Op {
    /**
     * Checks the record is given.
     *
     * @throws NullPointerException without one
     */
    public Update {
      Objects.requireNonNull(record, "record");
    }

    @Override
    public String type() {
      return record.type();
    }

    @Override
    public String key() {
      return record.key();
    }

    @Override
    public JsonObject toJson() {
      return JsonObject.builder().put("op", "put").put("type", record.type()).put("key", record.key())
          .put("row", record.row()).build();
    }
  }

  /**
   * A {@code del}: the record leaves this subscription's list.
   *
   * @param type the entity's name
   * @param key the record key
   */
  record Del(String type, String key) implements Op {
    /**
     * Checks both parts are given.
     *
     * @throws NullPointerException for a missing part
     */
    public Del {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(key, "key");
    }

    @Override
    public JsonObject toJson() {
      return JsonObject.builder().put("op", "del").put("type", type).put("key", key).build();
    }
  }
}
