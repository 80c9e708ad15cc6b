package io.runnel.replicator;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import io.runnel.dsl.ColumnType;
import io.runnel.wire.JsonNull;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Encodes a {@link WalChange} as its bus envelope straight from pgoutput's text: the same bytes as
 * {@link ChangeEnvelope#encode} of {@link WalChange#event()} (field order, value encodings, escapes), without a
 * new generator, typed row or map per change. Values whose canonical text is their JSON form are written as they
 * are; the rest are parsed and encoded through their column type ({@link TextValues} says which).
 *
 * <p>Not thread-safe: one writer per publishing thread. It keeps one Jackson generator over one growing buffer; a
 * failure mid-envelope (a value that does not parse) replaces both, so the next envelope starts clean.
 */
final class EnvelopeWriter {

  private static final JsonFactory FACTORY = new JsonFactory();
  private static final SerializedString V = new SerializedString("v");
  private static final SerializedString KIND = new SerializedString("kind");
  private static final SerializedString CHANGE = new SerializedString(BusEnvelope.KIND_CHANGE);
  private static final SerializedString TABLE = new SerializedString("table");
  private static final SerializedString ENTITY = new SerializedString("entity");
  private static final SerializedString OP = new SerializedString("op");
  private static final SerializedString[] OPS = opNames();
  private static final SerializedString KEY = new SerializedString("key");
  private static final SerializedString ROW = new SerializedString("row");
  private static final SerializedString OLD = new SerializedString("old");
  private static final SerializedString OMITTED = new SerializedString("omitted");
  private static final SerializedString LSN = new SerializedString("lsn");
  private static final SerializedString XID = new SerializedString("xid");
  private static final SerializedString LAST = new SerializedString("last");
  private static final SerializedString COMMIT_TIME = new SerializedString("commitTime");
  private static final SerializedString WRITE = new SerializedString("write");
  private static final SerializedString PRODUCER = new SerializedString("producer");
  private static final SerializedString SEQ = new SerializedString("seq");
  private static final SerializedString SOURCE = new SerializedString("source");
  private static final SerializedString REPLICATOR = new SerializedString(ChangeEnvelope.SOURCE);

  private final List<String> omitted = new ArrayList<>();
  private ByteArrayOutputStream out;
  private JsonGenerator g;

  EnvelopeWriter() {
    open();
  }

  // An array indexed by ordinal, built from values(), so every op has its name: read once per change encoded, the
  // hot path, where an EnumMap lookup would cost more.
  @SuppressWarnings("EnumOrdinal")
  private static SerializedString[] opNames() {
    ChangeOp[] ops = ChangeOp.values();
    SerializedString[] names = new SerializedString[ops.length];
    for (ChangeOp op : ops) {
      names[op.ordinal()] = new SerializedString(op.wireName());
    }
    return names;
  }

  private void open() {
    out = new ByteArrayOutputStream(1024);
    try {
      g = FACTORY.createGenerator(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // One envelope per call: no separator between root values.
    g.setRootValueSeparator(null);
  }

  /**
   * The envelope of {@code change} (UTF-8 JSON), never oversized.
   *
   * @throws io.runnel.dsl.ValueInvalidException when a value does not parse as its column's type
   */
  // See opNames.
  @SuppressWarnings("EnumOrdinal")
  byte[] encode(WalChange change) {
    TableSchema s = change.schema();
    omitted.clear();
    try {
      g.writeStartObject();
      g.writeFieldName(V);
      g.writeNumber(ChangeEnvelope.VERSION);
      g.writeFieldName(KIND);
      g.writeString(CHANGE);
      g.writeFieldName(TABLE);
      g.writeString(s.tableJson());
      g.writeFieldName(ENTITY);
      SerializedString entity = s.entityJson();
      if (entity == null) {
        g.writeNull();
      } else {
        g.writeString(entity);
      }
      g.writeFieldName(OP);
      g.writeString(OPS[change.op().ordinal()]);
      g.writeFieldName(KEY);
      g.writeString(change.key());
      g.writeFieldName(ROW);
      writeTuple(s, change.tuple(), false, true);
      g.writeFieldName(OLD);
      writeTuple(s, change.oldTuple(), change.oldKeyOnly(), false);
      g.writeFieldName(OMITTED);
      g.writeStartArray();
      for (String c : omitted) {
        g.writeString(c);
      }
      g.writeEndArray();
      g.writeFieldName(LSN);
      g.writeString(change.lsn().toString());
      g.writeFieldName(XID);
      g.writeNumber(change.xid());
      g.writeFieldName(LAST);
      g.writeBoolean(change.last());
      g.writeFieldName(COMMIT_TIME);
      g.writeNumber(change.commitTime());
      g.writeFieldName(WRITE);
      g.writeString(change.write());
      g.writeFieldName(PRODUCER);
      g.writeString(change.producer());
      g.writeFieldName(SEQ);
      g.writeNumber(change.seq());
      g.writeFieldName(SOURCE);
      g.writeString(REPLICATOR);
      g.writeEndObject();
      g.flush();
      byte[] bytes = out.toByteArray();
      out.reset();
      return bytes;
    } catch (IOException e) {
      open();
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      open();
      throw e;
    }
  }

  /** A tuple as {@link TableSchema#read} keeps it, or null; unchanged columns go to {@link #omitted} if asked. */
  private void writeTuple(TableSchema s, @Nullable List<WalMessage.TupleValue> tuple, boolean keyOnly,
      boolean collectOmitted) throws IOException {
    if (tuple == null) {
      g.writeNull();
      return;
    }
    g.writeStartObject();
    int n = Math.min(tuple.size(), s.width());
    for (int i = 0; i < n; i++) {
      if (!s.kept(i) || (keyOnly && !s.keyColumn(i))) {
        continue;
      }
      switch (tuple.get(i)) {
        case WalMessage.Null x -> {
          g.writeFieldName(s.name(i));
          g.writeNull();
        }
        case WalMessage.Unchanged x -> {
          if (collectOmitted) {
            omitted.add(s.columnName(i));
          }
        }
        case WalMessage.Text t -> {
          g.writeFieldName(s.name(i));
          writeValue(s, i, t.text());
        }
      }
    }
    g.writeEndObject();
  }

  private void writeValue(TableSchema s, int i, String t) throws IOException {
    switch (s.kind(i)) {
      case INT_NUMBER -> {
        if (TextValues.canonicalInteger(t, s.min(i), s.max(i))) {
          g.writeNumber(t);
          return;
        }
      }
      case INT8_STRING -> {
        if (TextValues.canonicalInteger(t, s.min(i), s.max(i))) {
          g.writeString(t);
          return;
        }
      }
      case TEXT -> {
        if (TextValues.plainText(t)) {
          g.writeString(t);
          return;
        }
      }
      case UUID -> {
        if (TextValues.canonicalUuid(t)) {
          g.writeString(t);
          return;
        }
      }
      case BOOL -> {
        if (t.length() == 1 && (t.charAt(0) == 't' || t.charAt(0) == 'f')) {
          g.writeBoolean(t.charAt(0) == 't');
          return;
        }
      }
      case NUMERIC -> {
        if (TextValues.canonicalNumeric(t)) {
          g.writeString(t);
          return;
        }
      }
      case TIMESTAMPTZ, TIMESTAMP -> {
        String iso = TextValues.isoTimestamp(t, s.kind(i) == TextValues.Kind.TIMESTAMPTZ);
        if (iso != null) {
          g.writeString(iso);
          return;
        }
      }
      case TYPED -> { }
    }
    ColumnType type = s.type(i);
    Object v = type.parse(t);
    JacksonJson.write(g, v == null ? JsonNull.NULL : type.toJson(v));
  }
}
