package io.runnel.dsl;

import io.runnel.wire.JsonValue;
import io.runnel.wire.Texts;
import java.util.List;

/**
 * A column's PostgreSQL type, as the DSL and the browser's matcher need it: how to read PostgreSQL's text output
 * (what {@code pgoutput} and JDBC carry), how to write it back as SQL input, how to encode and decode it as JSON
 * ({@code docs/protocol.md}, "Values"), and how PostgreSQL compares and orders it.
 *
 * <p>Java values per type: {@code String} for text, varchar and uuid (lower case); {@code Integer} for int2 and
 * int4; {@code Long} for int8; {@code Float} and {@code Double}; {@link PgNumeric}; {@code Boolean}; {@link PgDate};
 * {@link PgTimestamp} for both timestamps; {@link JsonValue} for json and jsonb; {@link Bytes} for bytea; an
 * unmodifiable {@code List} (elements may be null) for arrays. SQL NULL is Java {@code null} and is never passed to
 * these methods.
 */
// Error Prone warns that a thread initializing an implementation first (which initializes this interface, as it has
// default methods) could deadlock with one initializing this interface (which makes the constants). No code reaches
// an implementation before this interface: each is package-private and made only by the constants below.
@SuppressWarnings("ClassInitializationDeadlock")
public sealed interface ColumnType
    permits TextType, UuidType, IntegerType, FloatType, NumericType, BoolType, DateType, TimestampType,
        JsonDocumentType, ByteaType, ArrayType {

  /** {@code text}. */
  ColumnType TEXT = new TextType("text");
  /** {@code varchar} (no length limit checked in process; PostgreSQL enforces it on write). */
  ColumnType VARCHAR = new TextType("varchar");
  /** {@code uuid}. */
  ColumnType UUID = new UuidType();
  /** {@code int2}. */
  ColumnType INT2 = new IntegerType("int2", Short.MIN_VALUE, Short.MAX_VALUE);
  /** {@code int4}. */
  ColumnType INT4 = new IntegerType("int4", Integer.MIN_VALUE, Integer.MAX_VALUE);
  /** {@code int8}. */
  ColumnType INT8 = new IntegerType("int8", Long.MIN_VALUE, Long.MAX_VALUE);
  /** {@code float4}. */
  ColumnType FLOAT4 = new FloatType(true);
  /** {@code float8}. */
  ColumnType FLOAT8 = new FloatType(false);
  /** {@code numeric}. */
  ColumnType NUMERIC = new NumericType();
  /** {@code bool}. */
  ColumnType BOOL = new BoolType();
  /** {@code date}. */
  ColumnType DATE = new DateType();
  /** {@code timestamp} (without time zone). */
  ColumnType TIMESTAMP = new TimestampType(false);
  /** {@code timestamptz}. */
  ColumnType TIMESTAMPTZ = new TimestampType(true);
  /** {@code json}. */
  ColumnType JSON = new JsonDocumentType("json");
  /** {@code jsonb}. */
  ColumnType JSONB = new JsonDocumentType("jsonb");
  /** {@code bytea}. */
  ColumnType BYTEA = new ByteaType();
  /** {@code text[]}. */
  ColumnType TEXT_ARRAY = new ArrayType(TEXT);
  /** {@code int8[]}. */
  ColumnType INT8_ARRAY = new ArrayType(INT8);

  /** Every supported type, in declaration order. */
  List<ColumnType> ALL = List.of(TEXT, VARCHAR, UUID, INT2, INT4, INT8, FLOAT4, FLOAT8, NUMERIC, BOOL, DATE,
      TIMESTAMP, TIMESTAMPTZ, JSON, JSONB, BYTEA, TEXT_ARRAY, INT8_ARRAY);

  /**
   * The type PostgreSQL names {@code name} ({@code int4}, {@code timestamptz}, {@code text[]}; the SQL spellings
   * {@code integer}, {@code bigint}, {@code boolean}, {@code character varying}, {@code double precision},
   * {@code real}, {@code smallint}, {@code timestamp with time zone} are accepted too).
   *
   * @throws IllegalArgumentException when Runnel does not support that type
   */
  static ColumnType named(String name) {
    String n = Texts.lowerCase(name.trim());
    String canonical = switch (n) {
      case "integer", "int" -> "int4";
      case "bigint" -> "int8";
      case "smallint" -> "int2";
      case "boolean" -> "bool";
      case "character varying" -> "varchar";
      case "double precision" -> "float8";
      case "real" -> "float4";
      case "timestamp with time zone" -> "timestamptz";
      case "timestamp without time zone" -> "timestamp";
      case "_text" -> "text[]";
      case "_int8", "bigint[]" -> "int8[]";
      default -> n;
    };
    for (ColumnType t : ALL) {
      if (t.sqlName().equals(canonical)) {
        return t;
      }
    }
    throw new IllegalArgumentException("Runnel does not support the column type '" + name + "'");
  }

  /** PostgreSQL's name for the type, as used in casts: {@code int4}, {@code text[]}. */
  String sqlName();

  /**
   * Reads PostgreSQL's text output for a non-null value (ISO {@code DateStyle}, hex {@code bytea_output}).
   *
   * @throws ValueInvalidException when the text is not a value of this type
   */
  Object parse(String pgText);

  /** PostgreSQL's text for {@code value}, which PostgreSQL also accepts as input for this type. */
  String format(Object value);

  /** The JSON encoding of {@code value} ({@code docs/protocol.md}, "Values"). */
  JsonValue toJson(Object value);

  /**
   * Decodes a non-null JSON value of this type.
   *
   * @param path the field path, for the error
   * @throws io.runnel.wire.InputInvalidException naming {@code path} when the JSON does not encode such a value
   */
  Object fromJson(JsonValue json, String path);

  /**
   * Converts a Java value given in a declaration or by app code to this type's Java value: the type's own class,
   * a compatible number, or PostgreSQL's text for a value.
   *
   * @throws ValueInvalidException when {@code value} does not fit this type
   */
  Object coerce(Object value);

  /** Whether values of this type can be compared ({@code =}, {@code <}, {@code IN}) and ordered. */
  boolean comparable();

  /** Whether this is a text type: {@code LIKE}/{@code ILIKE} apply, and SQL compares it under {@code COLLATE "C"}. */
  default boolean textual() {
    return false;
  }

  /**
   * The value's canonical form for hashing: two values equal under {@link #compare} have routing values that are
   * {@code equals} and share a {@code hashCode}, so a map keyed by routing values (a window index keyed by a
   * select's pinned columns) finds every row PostgreSQL would call equal. The value itself for most types; a
   * float's {@code -0} becomes {@code 0} (NaN stays NaN, which {@code Double.equals} equates with itself); a
   * numeric loses its trailing zeros ({@code 1.00} becomes {@code 1}).
   *
   * @param value a non-null value of this type's Java class
   * @return a value of the same Java class
   */
  default Object routingValue(Object value) {
    return value;
  }

  /**
   * Whether two non-null values are equal as Java values, exactly as {@code a.equals(b)}: a float's {@code -0} is
   * not {@code 0}, NaN is NaN, a numeric's scale counts ({@code 1.0} is not {@code 1}). Unlike {@link #compare}, it
   * is not PostgreSQL's equality. It calls only the {@code equals} of this type's own Java classes, so a client
   * bundle that compares rows does not link every class's {@code equals} ({@code docs/client.md}, "Sizes").
   */
  boolean same(Object a, Object b);

  /**
   * Compares two non-null values as PostgreSQL orders them (text under {@code COLLATE "C"}, that is by code
   * point).
   *
   * @throws UnsupportedOperationException when this type is not {@link #comparable()}
   */
  int compare(Object a, Object b);
}
