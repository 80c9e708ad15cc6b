package io.runnel.sync.live;

import io.runnel.wire.JsonObject;
import io.runnel.wire.Nullable;
import java.util.Objects;

/**
 * One step of a {@code patch} frame ({@code PROTOCOL.md}, "Op"); ops apply in sequence to a subscription's list.
 */
public sealed interface Op permits Op.Put, Op.Del {

  /** The op as the frame carries it. */
  JsonObject toJson();

  /**
   * {@code put}: insert the record, or move it, to just after {@code after} ({@code null}: first) when
   * {@code placed}; otherwise update it in place.
   *
   * @param record the whole record
   * @param placed whether the op carries {@code after} (an insert or a move) or not (an update in place)
   * @param after the key of the nearest preceding record the subscriber can see, or null for first
   */
  record Put(LiveRecord record, boolean placed, @Nullable String after) implements Op {
    /** Checks the record is given and that only a placed put names a predecessor. */
    public Put {
      Objects.requireNonNull(record, "record");
      if (!placed && after != null) {
        throw new IllegalArgumentException("An in-place update names no predecessor");
      }
    }

    @Override
    public JsonObject toJson() {
      JsonObject.Builder b = JsonObject.builder().put("op", "put").put("type", record.type()).put("key", record.key())
          .put("row", record.row());
      if (placed) {
        b.put("after", after);
      }
      return b.build();
    }
  }

  /**
   * {@code del}: remove the record from this subscription's list.
   *
   * @param type the record type
   * @param key the record key
   */
  record Del(String type, String key) implements Op {
    /** Checks both parts are given. */
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
