package io.runnel.replicator;

import com.fasterxml.jackson.core.io.SerializedString;
import io.runnel.bus.Subjects;
import io.runnel.dsl.ColumnType;
import io.runnel.dsl.RecordKeys;
import io.runnel.dsl.Row;
import io.runnel.dsl.server.Entity;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

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
  private final String table;
  private final String subject;
  private final SerializedString tableJson;
  private final @Nullable SerializedString entityJson;
  private final SerializedString[] names;
  private final TextValues.Kind[] kinds;
  private final long[] mins;
  private final long[] maxes;
  private final boolean[] keyColumn;
  /** The relation's index of each key column, in key order; -1 for a key column the relation lacks. */
  private final int[] keyIndexes;

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
    this.columnTypes = Collections.unmodifiableMap(byName);
    this.keyColumns = entity != null ? entity.ref().key() : List.copyOf(relationKey);
    this.table = relation.namespace() + "." + relation.name();
    this.subject = Subjects.changes(relation.namespace(), relation.name());
    this.tableJson = new SerializedString(table);
    this.entityJson = entity == null ? null : new SerializedString(entity.name());
    this.names = new SerializedString[n];
    this.kinds = new TextValues.Kind[n];
    this.mins = new long[n];
    this.maxes = new long[n];
    this.keyColumn = new boolean[n];
    for (int i = 0; i < n; i++) {
      String name = relation.columns().get(i).name();
      names[i] = new SerializedString(name);
      keyColumn[i] = keyColumns.contains(name);
      if (kept[i]) {
        kinds[i] = TextValues.kindOf(types[i]);
        if (kinds[i] == TextValues.Kind.INT_NUMBER || kinds[i] == TextValues.Kind.INT8_STRING) {
          mins[i] = TextValues.min(types[i]);
          maxes[i] = TextValues.max(types[i]);
        }
      }
    }
    this.keyIndexes = new int[keyColumns.size()];
    for (int k = 0; k < keyIndexes.length; k++) {
      keyIndexes[k] = -1;
      for (int i = 0; i < n; i++) {
        if (kept[i] && relation.columns().get(i).name().equals(keyColumns.get(k))) {
          keyIndexes[k] = i;
          break;
        }
      }
    }
  }

  WalMessage.Relation relation() {
    return relation;
  }

  @Nullable Entity entity() {
    return entity;
  }

  /** {@code schema.table}. */
  String table() {
    return table;
  }

  /** The bus subject of this table's changes ({@link Subjects#changes}), computed once. */
  String subject() {
    return subject;
  }

  /** {@link #table()} as a JSON string, encoded once. */
  SerializedString tableJson() {
    return tableJson;
  }

  /** The entity's name as a JSON string, encoded once; null for a table no entity declares. */
  @Nullable SerializedString entityJson() {
    return entityJson;
  }

  /** The number of columns pgoutput described. */
  int width() {
    return types.length;
  }

  /** Whether column {@code i} (relation order) is kept: the entity declares it, or there is no entity. */
  boolean kept(int i) {
    return kept[i];
  }

  /** Whether column {@code i} is a key column ({@link #keyColumns()}). */
  boolean keyColumn(int i) {
    return keyColumn[i];
  }

  /** Column {@code i}'s name as a JSON member name, encoded once. */
  SerializedString name(int i) {
    return names[i];
  }

  /** Column {@code i}'s name. */
  String columnName(int i) {
    return relation.columns().get(i).name();
  }

  /** Column {@code i}'s type (kept columns only). */
  ColumnType type(int i) {
    return types[i];
  }

  /** How column {@code i}'s text is written ({@link TextValues}; kept columns only). */
  TextValues.Kind kind(int i) {
    return kinds[i];
  }

  /** The smallest value of integer column {@code i}. */
  long min(int i) {
    return mins[i];
  }

  /** The largest value of integer column {@code i}. */
  long max(int i) {
    return maxes[i];
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

  /**
   * The record key of a WAL tuple, parsing only its key columns; the same as {@link #keyOf(Row)} of the tuple
   * {@link #read} (either way of reading it, since the key columns are kept in both), or null when a key column is
   * missing, NULL or unchanged.
   *
   * @throws io.runnel.dsl.ValueInvalidException when a key value does not parse as its column's type
   */
  @Nullable String keyOf(List<WalMessage.TupleValue> tuple) {
    if (keyIndexes.length == 0) {
      return null;
    }
    if (keyIndexes.length == 1) {
      // One key column: the key is the value as PostgreSQL prints it, which is its canonical text itself.
      int i = keyIndexes[0];
      if (i >= 0 && i < tuple.size() && tuple.get(i) instanceof WalMessage.Text t && printsAsItIs(i, t.text())) {
        return t.text();
      }
    }
    List<Object> values = new ArrayList<>(keyIndexes.length);
    List<ColumnType> keyTypes = new ArrayList<>(keyIndexes.length);
    for (int i : keyIndexes) {
      if (i < 0 || i >= tuple.size() || !(tuple.get(i) instanceof WalMessage.Text t)) {
        return null;
      }
      values.add(types[i].parse(t.text()));
      keyTypes.add(types[i]);
    }
    return RecordKeys.of(keyTypes, values);
  }

  /** Whether column {@code i}'s type prints {@code text} back as {@code text} ({@link ColumnType#format}). */
  private boolean printsAsItIs(int i, String text) {
    return switch (kinds[i]) {
      case INT_NUMBER, INT8_STRING -> TextValues.canonicalInteger(text, mins[i], maxes[i]);
      case TEXT -> TextValues.plainText(text);
      case UUID -> TextValues.canonicalUuid(text);
      case NUMERIC -> TextValues.canonicalNumeric(text);
      case BOOL, TIMESTAMPTZ, TIMESTAMP, TYPED -> false;
    };
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
