package io.runnel.replicator;

import io.runnel.dsl.Row;
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
 * @param omitted columns an update left as unchanged TOASTed values, which the WAL does not carry
 * @param lsn 24 lower-case hex: the transaction's commit LSN, then the row's position in it counting from 1
 * @param xid the top-level transaction id, as pgoutput's Begin carries it (32 bits)
 * @param last whether this is the last change of its transaction
 * @param commitTime the transaction's commit time, epoch milliseconds
 * @param write the write digest the transaction carries ({@code pg_logical_emit_message(true, 'runnel.write',
 *     <digest>)}), or null
 * @param producer the publishing process's id (a new one per process start)
 * @param seq this producer's message count (changes and position heartbeats alike), 1, 2, 3…, continuing across
 *     redials
 * @param source who produced it
 */
public record ChangeEvent(
    String table,
    @Nullable String entity,
    ChangeOp op,
    @Nullable String key,
    @Nullable Row row,
    @Nullable Row old,
    List<String> omitted,
    String lsn,
    long xid,
    boolean last,
    long commitTime,
    @Nullable String write,
    String producer,
    long seq,
    Source source) implements BusMessage {

  /** Who produced a change. */
  public enum Source {
    /** The WAL replicator: the change has a WAL LSN. */
    REPLICATOR,
    /** The record publisher of a later issue: no WAL LSN, never applied to live windows. */
    PUBLISHER
  }

  /** Checks the required parts and copies {@code omitted}. */
  public ChangeEvent {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(op, "op");
    omitted = List.copyOf(omitted);
    Objects.requireNonNull(lsn, "lsn");
    Objects.requireNonNull(producer, "producer");
    Objects.requireNonNull(source, "source");
    if (seq < 1) {
      throw new IllegalArgumentException("seq counts from 1, not " + seq);
    }
  }

  /** This event with {@code last} set, once the next change or the commit shows whether it is the last. */
  public ChangeEvent withLast(boolean last) {
    return new ChangeEvent(table, entity, op, key, row, old, omitted, lsn, xid, last, commitTime, write, producer, seq,
        source);
  }
}
