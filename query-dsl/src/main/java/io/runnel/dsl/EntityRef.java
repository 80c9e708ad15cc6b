package io.runnel.dsl;

import io.runnel.wire.ErrorCode;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonPath;
import io.runnel.wire.JsonValue;
import io.runnel.wire.ObjectReader;
import io.runnel.wire.Texts;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The client-safe half of an entity: the record type clients see, its key columns and its typed columns. The
 * browser's matcher needs the types to compare and order values as PostgreSQL does. The table and tenant column
 * are server-only, on {@link io.runnel.dsl.server.Entity}.
 *
 * <pre>{@code
 * static final EntityRef POSTS = EntityRef.of("posts").key("id")
 *     .columns(c -> c.uuid("id").text("org_id").text("title").timestamptz("created_at"));
 * }</pre>
 */
public final class EntityRef {

  private final String name;
  private final List<String> key;
  private final Map<String, Column> columns;

  private EntityRef(String name, List<String> key, Map<String, Column> columns) {
    this.name = name;
    this.key = key;
    this.columns = columns;
  }

  /**
   * Starts an entity named {@code name}, the record type clients see ({@code [A-Za-z][A-Za-z0-9_]*}).
   *
   * @throws DeclarationException ({@code X_ENTITY_DECLARATION_INVALID}) for a bad name
   */
  public static Builder of(String name) {
    Objects.requireNonNull(name, "name");
    if (!Names.isName(name)) {
      throw invalid("Entity name '" + name + "' is not a valid name.",
          "Use letters, digits and underscores, starting with a letter, at most 64 characters.");
    }
    return new Builder(name, List.of());
  }

  /** The record type clients see. */
  public String name() {
    return name;
  }

  /** The key columns, in key order. */
  public List<String> key() {
    return key;
  }

  /** Every column, in declaration order. */
  public List<Column> columns() {
    return List.copyOf(columns.values());
  }

  /** Whether {@code column} is declared. */
  public boolean hasColumn(String column) {
    return columns.containsKey(column);
  }

  /**
   * Column {@code column}.
   *
   * @throws DeclarationException ({@code X_QUERY_DECLARATION_INVALID}) when it is not declared
   */
  public Column column(String column) {
    Column c = columns.get(column);
    if (c == null) {
      throw new DeclarationException(ErrorCode.X_QUERY_DECLARATION_INVALID,
          "Entity '" + name + "' has no column '" + column + "'.",
          "Use one of " + Texts.list(columns.keySet()) + ", or declare the column on the entity.");
    }
    return c;
  }

  /**
   * Whether {@code a} and {@code b} are equal rows ({@link Row#equals}: the same columns, with equal values), each
   * declared column's values compared by its type's {@link ColumnType#same}. A client bundle compares rows this way
   * so that it does not link every class's {@code equals} ({@code docs/client.md}, "Sizes").
   */
  public boolean sameRow(Row a, Row b) {
    Map<String, @Nullable Object> x = a.values();
    Map<String, @Nullable Object> y = b.values();
    if (x.size() != y.size()) {
      return false;
    }
    for (Map.Entry<String, @Nullable Object> e : x.entrySet()) {
      String column = e.getKey();
      if (!y.containsKey(column) || !sameValue(column, e.getValue(), y.get(column))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code a} and {@code b} are equal values of column {@code column} ({@link Objects#equals}), compared by
   * the column's type's {@link ColumnType#same} when the column is declared.
   */
  public boolean sameValue(String column, @Nullable Object a, @Nullable Object b) {
    Column c = columns.get(column);
    return SameValues.same(c == null ? null : c.type(), a, b);
  }

  /**
   * The record key of {@code row} as {@code docs/protocol.md} spells it: a one-column key is that column's value as
   * PostgreSQL prints it; a composite key is the RFC 8785 canonical JSON array of the values' JSON encodings.
   *
   * @throws IllegalArgumentException when a key column is missing or NULL
   */
  public String keyOf(Row row) {
    ColumnType[] types = new ColumnType[key.size()];
    Object[] values = new Object[key.size()];
    for (int i = 0; i < types.length; i++) {
      // A typed local, never columns.get(key.get(i)): in a bundle that hands the map every class any list holds,
      // and links every record's equals and hashCode (docs/client.md, "The equals cycle and other cuts").
      String column = key.get(i);
      types[i] = Objects.requireNonNull(columns.get(column), column).type();
      values[i] = keyValue(row, column);
    }
    return RecordKeys.of(types, values);
  }

  /**
   * The record key of a record whose key columns hold {@code values}, in key order, spelled as {@link #keyOf}
   * spells it: {@code POSTS.key(in.postId())}, {@code LIKES.key(in.postId(), actor.id())} (the canonical JSON array
   * of a composite key is built here, never by hand). Each value is coerced through its column's type, so a
   * {@code "0B7E…"} uuid is spelled in lower case and a numeric keeps PostgreSQL's digits.
   *
   * @throws IllegalArgumentException when the number of values differs from the key columns
   * @throws InputInvalidException ({@code X_INPUT_INVALID}, the path naming the column as {@code posts.id}) when a
   *     value is null or does not fit its column's type
   */
  public String key(@Nullable Object... values) {
    if (values.length != key.size()) {
      throw new IllegalArgumentException("Entity '" + name + "' has key " + Texts.list(key) + ", so a key takes "
          + key.size() + " values, not " + values.length);
    }
    ColumnType[] types = new ColumnType[key.size()];
    Object[] coerced = new Object[key.size()];
    for (int i = 0; i < values.length; i++) {
      String column = key.get(i); // a typed local: see keyOf
      Column c = Objects.requireNonNull(columns.get(column), column);
      String path = name + "." + c.name();
      Object v = values[i];
      if (v == null) {
        throw new InputInvalidException(path, "is null, and a key column never is", "Give every key column a value.");
      }
      try {
        coerced[i] = c.type().coerce(v);
      } catch (ValueInvalidException e) {
        throw new InputInvalidException(path, "does not fit its key column (" + e.clause() + ")",
            "Send a " + c.type().sqlName() + " value.");
      }
      types[i] = c.type();
    }
    return RecordKeys.of(types, coerced);
  }

  private Object keyValue(Row row, String column) {
    Object v = row.get(column);
    if (v == null) {
      throw new IllegalArgumentException("Key column '" + column + "' of a " + name + " row is missing or NULL");
    }
    return v;
  }

  /**
   * The row's JSON ({@code docs/protocol.md}, "Values"), with the entity's columns the row carries, in column order.
   */
  public JsonObject rowToJson(Row row) {
    JsonObject.Builder b = JsonObject.builder();
    for (Column c : columns.values()) {
      if (row.has(c.name())) {
        Object v = row.get(c.name());
        b.put(c.name(), v == null ? JsonNull.NULL : c.type().toJson(v));
      }
    }
    return b.build();
  }

  /**
   * Decodes a row's JSON: every member must be a declared column; absent columns stay absent.
   *
   * @throws InputInvalidException naming the first member at fault under {@code path}
   */
  public Row rowFromJson(JsonValue json, String path) {
    ObjectReader r = ObjectReader.of(json, path);
    LinkedHashMap<String, @Nullable Object> values = new LinkedHashMap<>();
    for (Column c : columns.values()) {
      if (((JsonObject) json).members().containsKey(c.name())) {
        JsonValue v = r.value(c.name());
        values.put(c.name(), v == JsonNull.NULL ? null : c.type().fromJson(v, JsonPath.member(path, c.name())));
      }
    }
    r.requireNoOtherMembers();
    return Row.of(values);
  }

  /**
   * Reads a row from PostgreSQL's text output, column by column (nulls are SQL NULL); columns not declared on the
   * entity are ignored.
   *
   * @throws ValueInvalidException when a value does not parse as its column's type
   */
  public Row rowFromText(Map<String, @Nullable String> text) {
    LinkedHashMap<String, @Nullable Object> values = new LinkedHashMap<>();
    for (Column c : columns.values()) {
      if (text.containsKey(c.name())) {
        String t = text.get(c.name());
        values.put(c.name(), t == null ? null : c.type().parse(t));
      }
    }
    return Row.of(values);
  }

  @Override
  public String toString() {
    return "EntityRef[" + name + " key " + key + " " + columns.values() + "]";
  }

  private static DeclarationException invalid(String cause, String fix) {
    return new DeclarationException(ErrorCode.X_ENTITY_DECLARATION_INVALID, cause, fix);
  }

  /** Collects the key, then the columns ({@link #columns} finishes the entity). */
  public static final class Builder {
    private final String name;
    private final List<String> key;

    private Builder(String name, List<String> key) {
      this.name = name;
      this.key = key;
    }

    /** The key columns, in key order (one or more, each declared among the columns). */
    public Builder key(String... columns) {
      return new Builder(name, List.of(columns));
    }

    /**
     * Declares the columns and finishes the entity.
     *
     * @throws DeclarationException ({@code X_ENTITY_DECLARATION_INVALID}) for no key, a key column not declared,
     *     a key column that cannot be compared, no columns, or a column declared twice
     */
    public EntityRef columns(Consumer<Columns> declare) {
      Columns c = new Columns(name);
      declare.accept(c);
      if (c.columns.isEmpty()) {
        throw invalid("Entity '" + name + "' declares no columns.", "Declare its columns: c -> c.uuid(\"id\")….");
      }
      if (key.isEmpty()) {
        throw invalid("Entity '" + name + "' has no key.", "Name its key columns with .key(\"id\").");
      }
      for (int i = 0; i < key.size(); i++) {
        String k = key.get(i);
        Column col = c.columns.get(k);
        if (col == null) {
          throw invalid("Key column '" + k + "' of entity '" + name + "' is not declared.",
              "Declare it among the columns, or fix the key.");
        }
        if (!col.type().comparable()) {
          throw invalid("Key column '" + k + "' of entity '" + name + "' is " + col.type().sqlName()
              + ", which cannot be a key.", "Key on a scalar column such as uuid, text or int8.");
        }
        if (key.indexOf(k) != i) {
          throw invalid("Key column '" + k + "' of entity '" + name + "' is named twice.", "Name it once.");
        }
      }
      return new EntityRef(name, key, Collections.unmodifiableMap(new LinkedHashMap<>(c.columns)));
    }
  }

  /** The column list of an entity being declared; each method adds one column. */
  public static final class Columns {
    private final String entity;
    private final LinkedHashMap<String, Column> columns = new LinkedHashMap<>();

    private Columns(String entity) {
      this.entity = entity;
    }

    /**
     * Adds column {@code name} of {@code type}.
     *
     * @throws DeclarationException ({@code X_ENTITY_DECLARATION_INVALID}) for a bad or repeated name
     */
    public Columns column(String name, ColumnType type) {
      Column c = new Column(name, type);
      if (columns.putIfAbsent(name, c) != null) {
        throw invalid("Column '" + name + "' of entity '" + entity + "' is declared twice.", "Declare it once.");
      }
      return this;
    }

    /** Adds a {@code text} column. */
    public Columns text(String name) {
      return column(name, ColumnType.TEXT);
    }

    /** Adds a {@code varchar} column. */
    public Columns varchar(String name) {
      return column(name, ColumnType.VARCHAR);
    }

    /** Adds a {@code uuid} column. */
    public Columns uuid(String name) {
      return column(name, ColumnType.UUID);
    }

    /** Adds an {@code int2} column. */
    public Columns int2(String name) {
      return column(name, ColumnType.INT2);
    }

    /** Adds an {@code int4} column. */
    public Columns int4(String name) {
      return column(name, ColumnType.INT4);
    }

    /** Adds an {@code int8} column. */
    public Columns int8(String name) {
      return column(name, ColumnType.INT8);
    }

    /** Adds a {@code float4} column. */
    public Columns float4(String name) {
      return column(name, ColumnType.FLOAT4);
    }

    /** Adds a {@code float8} column. */
    public Columns float8(String name) {
      return column(name, ColumnType.FLOAT8);
    }

    /** Adds a {@code numeric} column. */
    public Columns numeric(String name) {
      return column(name, ColumnType.NUMERIC);
    }

    /** Adds a {@code bool} column. */
    public Columns bool(String name) {
      return column(name, ColumnType.BOOL);
    }

    /** Adds a {@code date} column. */
    public Columns date(String name) {
      return column(name, ColumnType.DATE);
    }

    /** Adds a {@code timestamp} (without time zone) column. */
    public Columns timestamp(String name) {
      return column(name, ColumnType.TIMESTAMP);
    }

    /** Adds a {@code timestamptz} column. */
    public Columns timestamptz(String name) {
      return column(name, ColumnType.TIMESTAMPTZ);
    }

    /** Adds a {@code json} column. */
    public Columns json(String name) {
      return column(name, ColumnType.JSON);
    }

    /** Adds a {@code jsonb} column. */
    public Columns jsonb(String name) {
      return column(name, ColumnType.JSONB);
    }

    /** Adds a {@code bytea} column. */
    public Columns bytea(String name) {
      return column(name, ColumnType.BYTEA);
    }

    /** Adds a {@code text[]} column. */
    public Columns textArray(String name) {
      return column(name, ColumnType.TEXT_ARRAY);
    }

    /** Adds an {@code int8[]} column. */
    public Columns int8Array(String name) {
      return column(name, ColumnType.INT8_ARRAY);
    }
  }
}
