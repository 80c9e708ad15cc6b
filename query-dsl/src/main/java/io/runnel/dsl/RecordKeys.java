package io.runnel.dsl;

import io.runnel.wire.CanonicalJson;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The record key spelling of {@code docs/protocol.md} ("Record"): a one-column key is that column's value as
 * PostgreSQL prints it; a composite key is the RFC 8785 canonical JSON array of the values' JSON encodings.
 */
public final class RecordKeys {

  private RecordKeys() {}

  /**
   * The key of non-null {@code values}, each of the type at the same index.
   *
   * @throws IllegalArgumentException when the lists differ in size or are empty
   * @throws NullPointerException when a value is null
   */
  public static String of(List<ColumnType> types, List<Object> values) {
    return of(types.toArray(new ColumnType[0]), values.toArray());
  }

  /**
   * {@link #of(List, List)} over arrays, which {@link EntityRef} uses: a browser bundle then links only the key
   * columns' own types here (TeaVM tracks what flows through each array, but through all lists at once).
   */
  static String of(ColumnType[] types, Object[] values) {
    if (types.length != values.length || types.length == 0) {
      throw new IllegalArgumentException("A key needs one type per value, and at least one value");
    }
    if (types.length == 1) {
      return types[0].format(Objects.requireNonNull(values[0], "key value"));
    }
    List<JsonValue> parts = new ArrayList<>(types.length);
    for (int i = 0; i < types.length; i++) {
      parts.add(types[i].toJson(Objects.requireNonNull(values[i], "key value")));
    }
    return CanonicalJson.write(new JsonArray(parts));
  }
}
