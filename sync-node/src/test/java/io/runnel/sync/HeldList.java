package io.runnel.sync;

import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.util.ArrayList;
import java.util.List;

/**
 * One subscription's records as a client holds them, in query order: replaced by a {@code snapshot}'s records and
 * changed by each {@code patch}'s ops as {@code docs/protocol.md} defines them (a {@code put} with {@code after} moves
 * or inserts the record after that key, or first when it is null; one without it replaces the record in place; a
 * {@code del} removes it). An op the list cannot apply (on a key it does not hold) is kept as a problem and skipped.
 * Not thread-safe: its owner applies frames and reads the list under one lock.
 */
public final class HeldList {

  private final List<JsonObject> records = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();

  /** Replaces the records by a snapshot's {@code records}. */
  public void snapshot(JsonArray snapshot) {
    records.clear();
    for (JsonValue r : snapshot.elements()) {
      records.add((JsonObject) r);
    }
  }

  /** Applies a patch's {@code ops}, in order. */
  public void patch(JsonArray ops) {
    for (JsonValue v : ops.elements()) {
      op((JsonObject) v);
    }
  }

  private void op(JsonObject op) {
    String key = str(op, "key");
    int at = indexOf(key);
    if ("del".equals(str(op, "op"))) {
      if (at < 0) {
        problems.add("del of a key not held: " + key);
      } else {
        records.remove(at);
      }
      return;
    }
    JsonObject record = JsonObject.builder().put("type", op.get("type")).put("key", op.get("key"))
        .put("row", op.get("row")).build();
    if (!op.members().containsKey("after")) {
      if (at < 0) {
        problems.add("in-place put of a key not held: " + key);
      } else {
        records.set(at, record);
      }
      return;
    }
    if (at >= 0) {
      records.remove(at);
    }
    JsonValue after = op.get("after");
    int prev = after == JsonNull.NULL ? -1 : indexOf(((JsonString) after).value());
    if (after != JsonNull.NULL && prev < 0) {
      problems.add("put after a key not held: " + after);
      return;
    }
    records.add(prev + 1, record);
  }

  private int indexOf(String key) {
    for (int i = 0; i < records.size(); i++) {
      if (str(records.get(i), "key").equals(key)) {
        return i;
      }
    }
    return -1;
  }

  private static String str(JsonObject o, String field) {
    return ((JsonString) o.get(field)).value();
  }

  /** The records, in order: {@code {type, key, row}} objects. */
  public List<JsonObject> records() {
    return List.copyOf(records);
  }

  /** The ops it could not apply, in order; empty when every op applied. */
  public List<String> problems() {
    return List.copyOf(problems);
  }
}
