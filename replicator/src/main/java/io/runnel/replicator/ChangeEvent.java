package io.runnel.replicator;

import io.runnel.dsl.Row;
import io.runnel.protocol.Position;
import io.runnel.wire.Nullable;
import java.util.List;
import java.util.Objects;

/**
 * One row change, as the replicator publishes it on the bus ({@link ChangeEnvelope} is its JSON).
 *
 * @param table the table, {@code schema.table}
 * @param entity the declared entity's name, or null for a table no entity declares
 * @param op what happened
 * @param key the record key as {@code PROTOCOL.md} spells it (the new key for an update that moved it), or null
 *     for a truncate
 * @param row the whole new row (insert, update), typed through the column types; null for delete and truncate.
 *     Columns listed in {@code omitted} are absent.
 * @param old the old row when the WAL carried one: key columns only (an update that changed the key, a delete
 *     under the default replica identity) or every column (REPLICA IDENTITY FULL); else null
 * @param omitted columns absent from {@code row}: those an update left as unchanged TOASTed values, which the WAL
 *     does not carry; or, when {@code oversized}, every column but the key's
 * @param oversized whether the change was too large for the bus ({@link io.runnel.bus.Transport#maxPayload}), so
 *     {@code row} and {@code old} carry the key columns only and the values of {@code omitted} are unknown (not
 *     unchanged): a consumer that needs them re-reads the row by {@code key}
 * @param lsn the transaction's commit LSN and the row's place in it counting from 1 (24 hex on the wire)
 * @param xid the top-level transaction id, as pgoutput's Begin carries it (32 bits)
 * @param last whether this is the last change of its transaction
 * @param commitTime the transaction's commit time, epoch milliseconds
 * @param write the write digest the transaction carries ({@code pg_logical_emit_message(true, 'runnel.write',
 *     <digest>)}), or null
 * @param producer the publishing process's id (a new one per process start)
 * @param seq this producer's message count (changes and position heartbeats alike), 1, 2, 3…, continuing across
 *     redials
 */
public record ChangeEvent(
    String table,
    @Nullable String entity,
    ChangeOp op,
    @Nullable String key,
    @Nullable Row row,
    @Nullable Row old,
    List<String> omitted,
    boolean oversized,
    Position lsn,
    long xid,
    boolean last,
    long commitTime,
    @Nullable String write,
    String producer,
    long seq) implements BusMessage {

  /**
   * Checks the required parts and copies {@code omitted}.
   *
   * @throws IllegalArgumentException for a {@code seq} below 1, or an oversized truncate
   */
  public ChangeEvent {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(op, "op");
    omitted = List.copyOf(omitted);
    Objects.requireNonNull(lsn, "lsn");
    Objects.requireNonNull(producer, "producer");
    if (seq < 1) {
      throw new IllegalArgumentException("seq counts from 1, not " + seq);
    }
    if (oversized && op == ChangeOp.TRUNCATE) {
      throw new IllegalArgumentException("A truncate carries no row, so it cannot be oversized");
    }
  }

  /** A change that carries its whole row (not {@code oversized}): every component but that one, in order. */
  public ChangeEvent(String table, @Nullable String entity, ChangeOp op, @Nullable String key, @Nullable Row row,
      @Nullable Row old, List<String> omitted, Position lsn, long xid, boolean last, long commitTime,
      @Nullable String write, String producer, long seq) {
    this(table, entity, op, key, row, old, omitted, false, lsn, xid, last, commitTime, write, producer, seq);
  }

  /** This event with {@code last} set, once the next change or the commit shows whether it is the last. */
  public ChangeEvent withLast(boolean last) {
    return new ChangeEvent(table, entity, op, key, row, old, omitted, oversized, lsn, xid, last, commitTime, write,
        producer, seq);
  }

  /**
   * This event cut down for a bus that cannot carry it whole: {@code row} and {@code old} keep only
   * {@code keyColumns}, {@code omitted} names every other column of {@code columns} (in their order), and
   * {@code oversized} is set. Everything else, the LSN and {@code seq} included, stays.
   *
   * @throws IllegalArgumentException for a truncate
   */
  public ChangeEvent keyOnly(List<String> keyColumns, java.util.Collection<String> columns) {
    List<String> left = new java.util.ArrayList<>();
    for (String c : columns) {
      if (!keyColumns.contains(c)) {
        left.add(c);
      }
    }
    return new ChangeEvent(table, entity, op, key, keyColumnsOf(row, keyColumns), keyColumnsOf(old, keyColumns), left,
        true, lsn, xid, last, commitTime, write, producer, seq);
  }

  private static @Nullable Row keyColumnsOf(@Nullable Row row, List<String> keyColumns) {
    if (row == null) {
      return null;
    }
    java.util.LinkedHashMap<String, @Nullable Object> values = new java.util.LinkedHashMap<>();
    for (String k : keyColumns) {
      if (row.values().containsKey(k)) {
        values.put(k, row.get(k));
      }
    }
    return Row.of(values);
  }
}
