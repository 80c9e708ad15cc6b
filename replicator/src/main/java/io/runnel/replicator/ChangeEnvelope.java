package io.runnel.replicator;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import io.runnel.dsl.ColumnType;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.Row;
import io.runnel.protocol.Position;
import io.runnel.wire.InputInvalidException;
import io.runnel.wire.JsonArray;
import io.runnel.wire.JsonBoolean;
import io.runnel.wire.JsonNull;
import io.runnel.wire.JsonNumber;
import io.runnel.wire.JsonObject;
import io.runnel.wire.JsonString;
import io.runnel.wire.JsonValue;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The bus's JSON envelope for a {@link ChangeEvent} (field names are stable; {@code docs/protocol.md}, "Bus
 * envelope"). Rows are encoded per column type as {@code docs/protocol.md} ("Values") says, so a consumer decodes them
 * with the entity's types.
 *
 * <pre>{@code {"v":1,"kind":"change","table":"public.posts","entity":"posts","op":"update","key":"…","row":{…},
 *  "old":null,"omitted":[],"lsn":"<24 hex>","xid":731,"last":true,"commitTime":1732880000000,"write":null,
 *  "producer":"…","seq":42,"source":"replicator"}}</pre>
 *
 * <p>An oversized change ({@link ChangeEvent#keyOnly}) adds {@code "oversized":true} after {@code omitted}; the
 * field is absent otherwise. The parts a variant does not carry are written as {@code null} ({@code key},
 * {@code row}, {@code old}) and {@code []} ({@code omitted}).
 *
 * <p>The same stream carries position heartbeats: a consumer of {@code runnel.changes.>} decodes with
 * {@link BusEnvelope#decode}, which returns either.
 */
public final class ChangeEnvelope {

  /** The envelope's version field (the bus envelope's, {@link BusEnvelope#VERSION}). */
  public static final int VERSION = BusEnvelope.VERSION;

  /**
   * The {@code source} every envelope carries: {@code replicator}, the only producer of changes (a WAL position each).
   * Kept on the wire so nodes of an older version, which require it, read these envelopes.
   */
  static final String SOURCE = "replicator";

  private static final JsonFactory FACTORY = new JsonFactory();

  private ChangeEnvelope() {}

  /**
   * The envelope of {@code event}, its rows encoded with {@code columnTypes} (column name to type).
   *
   * @throws IllegalArgumentException when a row holds a column {@code columnTypes} lacks
   */
  public static byte[] encode(ChangeEvent event, Map<String, ColumnType> columnTypes) {
    // What the variant does not carry is written as null, null, [] and (oversized) absent, as it always was.
    String key = null;
    Row row = null;
    Row old = null;
    List<String> omitted = List.of();
    boolean oversized = false;
    switch (event) {
      case ChangeEvent.Insert i -> {
        key = i.key();
        row = i.row();
        omitted = i.omitted();
        oversized = i.oversized();
      }
      case ChangeEvent.Update u -> {
        key = u.key();
        row = u.row();
        old = u.old();
        omitted = u.omitted();
        oversized = u.oversized();
      }
      case ChangeEvent.Delete d -> {
        key = d.key();
        old = d.old();
        omitted = d.omitted();
        oversized = d.oversized();
      }
      case ChangeEvent.Truncate t -> { }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.writeStartObject();
      g.writeNumberField("v", VERSION);
      g.writeStringField("kind", BusEnvelope.KIND_CHANGE);
      g.writeStringField("table", event.table());
      g.writeStringField("entity", event.entity());
      g.writeStringField("op", ChangeOp.of(event).wireName());
      g.writeStringField("key", key);
      g.writeFieldName("row");
      writeRow(g, row, columnTypes);
      g.writeFieldName("old");
      writeRow(g, old, columnTypes);
      g.writeArrayFieldStart("omitted");
      for (String c : omitted) {
        g.writeString(c);
      }
      g.writeEndArray();
      if (oversized) {
        g.writeBooleanField("oversized", true);
      }
      g.writeStringField("lsn", event.lsn().toString());
      g.writeNumberField("xid", event.xid());
      g.writeBooleanField("last", event.last());
      g.writeNumberField("commitTime", event.commitTime());
      g.writeStringField("write", event.write());
      g.writeStringField("producer", event.producer());
      g.writeNumberField("seq", event.seq());
      g.writeStringField("source", SOURCE);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static void writeRow(JsonGenerator g, @Nullable Row row, Map<String, ColumnType> types) throws IOException {
    if (row == null) {
      g.writeNull();
      return;
    }
    g.writeStartObject();
    for (Map.Entry<String, @Nullable Object> e : row.values().entrySet()) {
      ColumnType type = types.get(e.getKey());
      if (type == null) {
        throw new IllegalArgumentException("No type for column '" + e.getKey() + "'");
      }
      g.writeFieldName(e.getKey());
      Object v = e.getValue();
      JacksonJson.write(g, v == null ? JsonNull.NULL : type.toJson(v));
    }
    g.writeEndObject();
  }

  /**
   * Decodes a change envelope. Rows of an entity {@code entities} knows (by name) are typed through its columns;
   * rows of any other table keep their JSON values.
   *
   * @throws InputInvalidException ({@code X_INPUT_INVALID}, path "") for an envelope that is not this version's JSON
   *     of a change (a position heartbeat included: decode the stream with {@link BusEnvelope#decode}), or whose
   *     parts do not fit its {@code op} (an insert or update without a row, a delete without an old row or with a
   *     row, an insert with an old row, a truncate with a key, a row or an old row, omitted columns or oversized)
   */
  public static ChangeEvent decode(byte[] payload, Function<String, @Nullable EntityRef> entities) {
    return switch (BusEnvelope.decode(payload, entities)) {
      case ChangeEvent change -> change;
      case PositionEvent position -> throw BusEnvelope.invalid("is a position heartbeat, not a change");
    };
  }

  /** The change a version 1 envelope's JSON tree holds. */
  static ChangeEvent fromTree(JsonNode n, Function<String, @Nullable EntityRef> entities) {
    try {
      String source = text(n, "source");
      if (source != null && !SOURCE.equals(source)) {
        throw BusEnvelope.invalid("(a change) has source '" + source + "': only the replicator publishes changes");
      }
      String entityName = text(n, "entity");
      EntityRef entity = entityName == null ? null : entities.apply(entityName);
      List<String> omitted = new ArrayList<>();
      for (JsonNode c : n.path("omitted")) {
        omitted.add(c.asText());
      }
      String table = canonical(required(n, "table"));
      String entityOut = entityName == null ? null : canonical(entityName);
      ChangeOp op = ChangeOp.ofWireName(required(n, "op"));
      String key = text(n, "key");
      Row row = row(n.get("row"), entity);
      Row old = row(n.get("old"), entity);
      boolean oversized = n.path("oversized").asBoolean(false);
      Position lsn = Position.parse(required(n, "lsn"));
      long xid = n.path("xid").asLong();
      boolean last = n.path("last").asBoolean();
      long commitTime = n.path("commitTime").asLong();
      String write = text(n, "write");
      String producer = canonical(required(n, "producer"));
      long seq = n.path("seq").asLong();
      return switch (op) {
        case INSERT -> {
          absent(old, "old", op);
          yield new ChangeEvent.Insert(table, entityOut, key, present(row, "row"), omitted, oversized, lsn, xid,
              last, commitTime, write, producer, seq);
        }
        case UPDATE -> new ChangeEvent.Update(table, entityOut, key, present(row, "row"), old, omitted, oversized,
            lsn, xid, last, commitTime, write, producer, seq);
        case DELETE -> {
          absent(row, "row", op);
          yield new ChangeEvent.Delete(table, entityOut, key, present(old, "old"), omitted, oversized, lsn, xid,
              last, commitTime, write, producer, seq);
        }
        case TRUNCATE -> {
          absent(key, "key", op);
          absent(row, "row", op);
          absent(old, "old", op);
          if (!omitted.isEmpty() || oversized) {
            throw new IllegalArgumentException("A truncate carries no row, so it cannot be oversized");
          }
          yield new ChangeEvent.Truncate(table, entityOut, lsn, xid, last, commitTime, write, producer, seq);
        }
      };
    } catch (IllegalArgumentException | NullPointerException | ClassCastException e) {
      throw BusEnvelope.invalid("(a change) is malformed: " + e.getMessage());
    }
  }

  /** {@code value}, a part {@code field} the envelope's op requires. */
  private static <T> T present(@Nullable T value, String field) {
    if (value == null) {
      throw new IllegalArgumentException("field '" + field + "' is missing");
    }
    return value;
  }

  /** Refuses a part {@code field} that a change of {@code op} does not carry. */
  private static void absent(@Nullable Object value, String field, ChangeOp op) {
    if (value != null) {
      throw new IllegalArgumentException("an envelope of op '" + op.wireName() + "' carries no '" + field + "'");
    }
  }

  private static @Nullable Row row(@Nullable JsonNode node, @Nullable EntityRef entity) {
    if (node == null || node.isNull()) {
      return null;
    }
    JsonValue json = toValue(node);
    if (entity != null) {
      return entity.rowFromJson(json, "row");
    }
    LinkedHashMap<String, @Nullable Object> values = new LinkedHashMap<>();
    for (Map.Entry<String, JsonValue> e : ((JsonObject) json).members().entrySet()) {
      values.put(e.getKey(), e.getValue() == JsonNull.NULL ? null : e.getValue());
    }
    return Row.of(values);
  }

  /** Jackson's tree as Runnel's JSON value; numbers keep their text. */
  static JsonValue toValue(JsonNode node) {
    JsonNodeType t = node.getNodeType();
    return switch (t) {
      case NULL, MISSING -> JsonNull.NULL;
      case BOOLEAN -> JsonBoolean.of(node.booleanValue());
      case NUMBER -> new JsonNumber(node.isBigDecimal() ? node.decimalValue().toString() : node.asText());
      case STRING -> new JsonString(node.textValue());
      case ARRAY -> {
        List<JsonValue> out = new ArrayList<>(node.size());
        for (JsonNode e : node) {
          out.add(toValue(e));
        }
        yield new JsonArray(out);
      }
      case OBJECT -> {
        LinkedHashMap<String, JsonValue> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
          out.put(e.getKey(), toValue(e.getValue()));
        }
        yield new JsonObject(out);
      }
      case BINARY, POJO -> throw new IllegalArgumentException("unexpected " + t + " in an envelope");
    };
  }

  /**
   * Recently decoded names (table, entity, producer), so the many changes a node keeps for its windows and patch
   * rings share one string of each rather than a copy per change. Bounded by its size; slots are overwritten, and a
   * racing write only costs a copy (strings are immutable).
   */
  private static final String[] NAMES = new String[64];

  static String canonical(String name) {
    int slot = name.hashCode() & (NAMES.length - 1);
    String known = NAMES[slot];
    if (name.equals(known)) {
      return known;
    }
    NAMES[slot] = name;
    return name;
  }

  private static String required(JsonNode n, String field) {
    String v = text(n, field);
    if (v == null) {
      throw new IllegalArgumentException("field '" + field + "' is missing");
    }
    return v;
  }

  private static @Nullable String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }
}
