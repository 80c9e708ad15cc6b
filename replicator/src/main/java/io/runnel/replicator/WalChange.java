package io.runnel.replicator;

import io.runnel.protocol.Position;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One row change as the replicator decoded it from the WAL, its values still pgoutput's text: what
 * {@link EnvelopeWriter} encodes straight into the bus envelope, and what {@link #event()} types into the
 * {@link ChangeEvent} the typed encoder ({@link ChangeEnvelope#encode}) takes. Both give the same JSON, byte for
 * byte.
 *
 * @param schema the table's schema, which types and names the tuples' columns
 * @param op what happened: which {@link ChangeEvent} variant {@link #event()} builds
 * @param key the record key, or null (a truncate, or a key the WAL did not carry)
 * @param tuple the new tuple (insert, update), relation order; null for delete and truncate
 * @param oldTuple the old tuple when the WAL carried one (always for a delete), else null
 * @param oldKeyOnly whether {@code oldTuple} is a key tuple (pgoutput's {@code K}): only key columns are read
 * @param lsn the commit LSN and the row's place in the transaction
 * @param xid the top-level transaction id, 32 bits unsigned
 * @param last whether this is the last change of its transaction
 * @param commitTime the commit time, epoch milliseconds
 * @param write the transaction's write digest, or null
 * @param producer the producer id
 * @param seq the producer's message count, from 1
 */
record WalChange(
    TableSchema schema,
    ChangeOp op,
    @Nullable String key,
    @Nullable List<WalMessage.TupleValue> tuple,
    @Nullable List<WalMessage.TupleValue> oldTuple,
    boolean oldKeyOnly,
    Position lsn,
    long xid,
    boolean last,
    long commitTime,
    @Nullable String write,
    String producer,
    long seq) {

  /**
   * The typed change: every kept value parsed to its column's type.
   *
   * @throws io.runnel.dsl.ValueInvalidException when a value does not parse as its column's type
   */
  ChangeEvent event() {
    String table = schema.table();
    String entity = schema.entity() == null ? null : schema.entity().name();
    return switch (op) {
      case INSERT -> {
        TableSchema.Tuple row = schema.read(Objects.requireNonNull(tuple, "an insert's tuple"), false);
        yield new ChangeEvent.Insert(table, entity, key, row.row(), row.omitted(), false, lsn, xid, last, commitTime,
            write, producer, seq);
      }
      case UPDATE -> {
        TableSchema.Tuple row = schema.read(Objects.requireNonNull(tuple, "an update's tuple"), false);
        TableSchema.Tuple old = oldTuple == null ? null : schema.read(oldTuple, oldKeyOnly);
        yield new ChangeEvent.Update(table, entity, key, row.row(), old == null ? null : old.row(), row.omitted(),
            false, lsn, xid, last, commitTime, write, producer, seq);
      }
      case DELETE -> {
        TableSchema.Tuple old = schema.read(Objects.requireNonNull(oldTuple, "a delete's old tuple"), oldKeyOnly);
        yield new ChangeEvent.Delete(table, entity, key, old.row(), List.of(), false, lsn, xid, last, commitTime,
            write, producer, seq);
      }
      case TRUNCATE -> new ChangeEvent.Truncate(table, entity, lsn, xid, last, commitTime, write, producer, seq);
    };
  }
}
