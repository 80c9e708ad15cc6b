package io.runnel.replicator;

import io.runnel.dsl.ColumnType;
import java.util.Map;

/**
 * The column type of a built-in PostgreSQL type OID ({@code src/include/catalog/pg_type.dat}), for tables no entity
 * declares; other types are read as text.
 */
final class PgTypes {

  private static final Map<Integer, ColumnType> BY_OID = Map.ofEntries(
      Map.entry(16, ColumnType.BOOL),
      Map.entry(17, ColumnType.BYTEA),
      Map.entry(20, ColumnType.INT8),
      Map.entry(21, ColumnType.INT2),
      Map.entry(23, ColumnType.INT4),
      Map.entry(25, ColumnType.TEXT),
      Map.entry(114, ColumnType.JSON),
      Map.entry(700, ColumnType.FLOAT4),
      Map.entry(701, ColumnType.FLOAT8),
      Map.entry(1009, ColumnType.TEXT_ARRAY),
      Map.entry(1016, ColumnType.INT8_ARRAY),
      Map.entry(1043, ColumnType.VARCHAR),
      Map.entry(1082, ColumnType.DATE),
      Map.entry(1114, ColumnType.TIMESTAMP),
      Map.entry(1184, ColumnType.TIMESTAMPTZ),
      Map.entry(1700, ColumnType.NUMERIC),
      Map.entry(2950, ColumnType.UUID),
      Map.entry(3802, ColumnType.JSONB));

  private PgTypes() {}

  /** The column type for {@code oid}: the matching built-in, or text. */
  static ColumnType of(int oid) {
    return BY_OID.getOrDefault(oid, ColumnType.TEXT);
  }

  /** Whether {@code oid} is a type Runnel reads exactly (otherwise as text). */
  static boolean known(int oid) {
    return BY_OID.containsKey(oid);
  }
}
