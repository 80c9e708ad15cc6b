package io.runnel.replicator;

import io.runnel.dsl.ColumnType;
import io.runnel.dsl.RecordKeys;
import io.runnel.dsl.Row;
import io.runnel.dsl.server.Entity;
import io.runnel.wire.Nullable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one table's WAL tuples become typed rows: the relation as pgoutput last described it, and the declared
 * entity when there is one. With an entity, only its columns are kept (server-only columns never reach the bus)
 * and its types and key apply; without, every column is kept, typed by its OID, keyed by the replica identity.
 */
final class TableSchema {

  private final WalMessage.Relation relation;
  private final @Nullable Entity entity;
  private final ColumnType[] types;
  private final boolean[] kept;
  private final List<String> keyColumns;
  private final Map<String, ColumnType> columnTypes;

  TableSchema(WalMessage.Relation relation, @Nullable Entity entity) {
    this.relation = relation;
    this.entity = entity;
    int n = relation.columns().size();
    this.types = new ColumnType[n];
    this.kept = new boolean[n];
    LinkedHashMap<String, ColumnType> byName = new LinkedHashMap<>();
    List<String> relationKey = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      WalMessage.RelationColumn c = relation.columns().get(i);
      if (entity == null) {
        types[i] = PgTypes.of(c.typeOid());
        kept[i] = true;
      } else if (entity.ref().hasColumn(c.name())) {
        types[i] = entity.ref().column(c.name()).type();
        kept[i] = true;
      }
      if (kept[i]) {
        byName.put(c.name(), types[i]);
      }
      if (c.key()) {
        relationKey.add(c.name());
      }
    }
    this.columnTypes = java.util.Collections.unmodifiableMap(byName);
    this.keyColumns = entity != null ? entity.ref().key() : List.copyOf(relationKey);
  }

  WalMessage.Relation relation() {
    return relation;
  }

  @Nullable Entity entity() {
    return entity;
  }

  /** {@code schema.table}. */
  String table() {
    return relation.namespace() + "." + relation.name();
  }

  /** The key columns: the entity's key, or for an undeclared table the replica identity's columns. */
  List<String> keyColumns() {
    return keyColumns;
  }

  /** The kept columns' types, by name, in table order. */
  Map<String, ColumnType> columnTypes() {
    return columnTypes;
  }

  /** The result of reading one tuple: the row and the columns it left out as unchanged TOAST. */
  record Tuple(Row row, List<String> omitted) {}

  /**
   * Reads a tuple; {@code keyOnly} keeps just the key columns (an old tuple of kind {@code K}).
   *
   * @throws io.runnel.dsl.ValueInvalidException when a value does not parse as its column's type
   */
  Tuple read(List<WalMessage.TupleValue> tuple, boolean keyOnly) {
    LinkedHashMap<String, @Nullable Object> values = new LinkedHashMap<>();
    List<String> omitted = new ArrayList<>(0);
    for (int i = 0; i < tuple.size() && i < types.length; i++) {
      if (!kept[i]) {
        continue;
      }
      String name = relation.columns().get(i).name();
      if (keyOnly && !keyColumns.contains(name)) {
        continue;
      }
      switch (tuple.get(i)) {
        case WalMessage.Null n -> values.put(name, null);
        case WalMessage.Unchanged u -> omitted.add(name);
        case WalMessage.Text t -> values.put(name, types[i].parse(t.text()));
      }
    }
    return new Tuple(Row.of(values), omitted);
  }

  /** The record key of {@code row}, or null when a key column is missing (the WAL did not carry it). */
  @Nullable String keyOf(Row row) {
    if (keyColumns.isEmpty()) {
      return null;
    }
    List<Object> values = new ArrayList<>(keyColumns.size());
    List<ColumnType> keyTypes = new ArrayList<>(keyColumns.size());
    for (String k : keyColumns) {
      Object v = row.get(k);
      if (v == null || !columnTypes.containsKey(k)) {
        return null;
      }
      values.add(v);
      keyTypes.add(columnTypes.get(k));
    }
    return RecordKeys.of(keyTypes, values);
  }
}
