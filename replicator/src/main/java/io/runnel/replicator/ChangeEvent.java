package io.runnel.replicator;

import io.runnel.dsl.Row;
import io.runnel.protocol.Position;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One change of a transaction, as the replicator publishes it on the bus ({@link ChangeEnvelope} is its JSON): an
 * {@link Insert}, {@link Update} or {@link Delete} of one row, or a {@link Truncate} of a whole table. Consumers
 * switch over the four; each carries only what its kind has, and every one carries the parts below.
 */
public sealed interface ChangeEvent extends BusMessage
    permits ChangeEvent.Insert, ChangeEvent.Update, ChangeEvent.Delete, ChangeEvent.Truncate {

  /** The table, {@code schema.table}. */
  String table();

  /** The declared entity's name, or null for a table no entity declares. */
  @Nullable String entity();

  /** The transaction's commit LSN and the change's place in it counting from 1 (24 hex on the wire). */
  Position lsn();

  /** The top-level transaction id, as pgoutput's Begin carries it (32 bits). */
  long xid();

  /** Whether this is the last change of its transaction. */
  boolean last();

  /** The transaction's commit time, epoch milliseconds. */
  long commitTime();

  /**
   * The write digest the transaction carries ({@code pg_logical_emit_message(true, 'runnel.write', <digest>)}), or
   * null.
   */
  @Nullable String write();

  /** This change with {@code last} set, once the next change or the commit shows whether it is the last. */
  ChangeEvent withLast(boolean last);

  /**
   * This change cut down for a bus that cannot carry it whole: its row and old row keep only {@code keyColumns},
   * {@code omitted} names every other column of {@code columns} (in their order), and {@code oversized} is set.
   * Everything else, the LSN and {@code seq} included, stays.
   *
   * @throws IllegalArgumentException for a {@link Truncate}, which carries no row to cut
   */
  ChangeEvent keyOnly(List<String> keyColumns, Collection<String> columns);

  /**
   * A new row.
   *
   * @param table the table, {@code schema.table}
   * @param entity the declared entity's name, or null for a table no entity declares
   * @param key the record key as {@code docs/protocol.md} spells it, or null when the row lacks a key value
   * @param row the whole new row, typed through the column types; columns listed in {@code omitted} are absent
   * @param omitted columns absent from {@code row}: empty unless {@code oversized}, then every column but the key's
   * @param oversized whether the change was too large for the bus ({@link io.runnel.bus.Transport#maxPayload}), so
   *     {@code row} carries the key columns only and the values of {@code omitted} are unknown: a consumer that needs
   *     them re-reads the row by {@code key}
   * @param lsn the transaction's commit LSN and the row's place in it counting from 1 (24 hex on the wire)
   * @param xid the top-level transaction id, as pgoutput's Begin carries it (32 bits)
   * @param last whether this is the last change of its transaction
   * @param commitTime the transaction's commit time, epoch milliseconds
   * @param write the write digest the transaction carries, or null
   * @param producer the publishing process's id (a new one per process start)
   * @param seq this producer's message count (changes and position heartbeats alike), 1, 2, 3…, continuing across
   *     redials
   */
  record Insert(String table, @Nullable String entity, @Nullable String key, Row row, List<String> omitted,
      boolean oversized, Position lsn, long xid, boolean last, long commitTime, @Nullable String write,
      String producer, long seq) implements ChangeEvent {

    /**
     * Checks the required parts and copies {@code omitted}.
     *
     * @throws IllegalArgumentException for a {@code seq} below 1
     */
    public Insert {
      requireShared(table, lsn, producer, seq);
      Objects.requireNonNull(row, "row");
      omitted = List.copyOf(omitted);
    }

    @Override
    public Insert withLast(boolean last) {
      return new Insert(table, entity, key, row, omitted, oversized, lsn, xid, last, commitTime, write, producer,
          seq);
    }

    @Override
    public Insert keyOnly(List<String> keyColumns, Collection<String> columns) {
      return new Insert(table, entity, key, keyColumnsOf(row, keyColumns), othersOf(keyColumns, columns), true, lsn,
          xid, last, commitTime, write, producer, seq);
    }
  }

  /**
   * A changed row.
   *
   * @param table the table, {@code schema.table}
   * @param entity the declared entity's name, or null for a table no entity declares
   * @param key the record key as {@code docs/protocol.md} spells it (the new key when the update moved it), or null
   *     when neither row carries a key value
   * @param row the whole new row, typed through the column types; columns listed in {@code omitted} are absent
   * @param old the old row when the WAL carried one: key columns only (an update that changed the key) or every
   *     column (REPLICA IDENTITY FULL); else null
   * @param omitted columns absent from {@code row}: those the update left as unchanged TOASTed values, which the WAL
   *     does not carry; or, when {@code oversized}, every column but the key's
   * @param oversized whether the change was too large for the bus ({@link io.runnel.bus.Transport#maxPayload}), so
   *     {@code row} and {@code old} carry the key columns only and the values of {@code omitted} are unknown (not
   *     unchanged): a consumer that needs them re-reads the row by {@code key}
   * @param lsn the transaction's commit LSN and the row's place in it counting from 1 (24 hex on the wire)
   * @param xid the top-level transaction id, as pgoutput's Begin carries it (32 bits)
   * @param last whether this is the last change of its transaction
   * @param commitTime the transaction's commit time, epoch milliseconds
   * @param write the write digest the transaction carries, or null
   * @param producer the publishing process's id (a new one per process start)
   * @param seq this producer's message count (changes and position heartbeats alike), 1, 2, 3…, continuing across
   *     redials
   */
  record Update(String table, @Nullable String entity, @Nullable String key, Row row, @Nullable Row old,
      List<String> omitted, boolean oversized, Position lsn, long xid, boolean last, long commitTime,
      @Nullable String write, String producer, long seq) implements ChangeEvent {

    /**
     * Checks the required parts and copies {@code omitted}.
     *
     * @throws IllegalArgumentException for a {@code seq} below 1
     */
    public Update {
      requireShared(table, lsn, producer, seq);
      Objects.requireNonNull(row, "row");
      omitted = List.copyOf(omitted);
    }

    @Override
    public Update withLast(boolean last) {
      return new Update(table, entity, key, row, old, omitted, oversized, lsn, xid, last, commitTime, write,
          producer, seq);
    }

    @Override
    public Update keyOnly(List<String> keyColumns, Collection<String> columns) {
      return new Update(table, entity, key, keyColumnsOf(row, keyColumns),
          old == null ? null : keyColumnsOf(old, keyColumns), othersOf(keyColumns, columns), true, lsn, xid, last,
          commitTime, write, producer, seq);
    }
  }

  /**
   * A removed row.
   *
   * @param table the table, {@code schema.table}
   * @param entity the declared entity's name, or null for a table no entity declares
   * @param key the record key as {@code docs/protocol.md} spells it, or null when the old row lacks a key value
   * @param old the old row, typed through the column types: key columns only (the default replica identity) or every
   *     column (REPLICA IDENTITY FULL)
   * @param omitted empty unless {@code oversized}, then every column but the key's
   * @param oversized whether the change was too large for the bus ({@link io.runnel.bus.Transport#maxPayload}), so
   *     {@code old} carries the key columns only
   * @param lsn the transaction's commit LSN and the row's place in it counting from 1 (24 hex on the wire)
   * @param xid the top-level transaction id, as pgoutput's Begin carries it (32 bits)
   * @param last whether this is the last change of its transaction
   * @param commitTime the transaction's commit time, epoch milliseconds
   * @param write the write digest the transaction carries, or null
   * @param producer the publishing process's id (a new one per process start)
   * @param seq this producer's message count (changes and position heartbeats alike), 1, 2, 3…, continuing across
   *     redials
   */
  record Delete(String table, @Nullable String entity, @Nullable String key, Row old, List<String> omitted,
      boolean oversized, Position lsn, long xid, boolean last, long commitTime, @Nullable String write,
      String producer, long seq) implements ChangeEvent {

    /**
     * Checks the required parts and copies {@code omitted}.
     *
     * @throws IllegalArgumentException for a {@code seq} below 1
     */
    public Delete {
      requireShared(table, lsn, producer, seq);
      Objects.requireNonNull(old, "old");
      omitted = List.copyOf(omitted);
    }

    @Override
    public Delete withLast(boolean last) {
      return new Delete(table, entity, key, old, omitted, oversized, lsn, xid, last, commitTime, write, producer,
          seq);
    }

    @Override
    public Delete keyOnly(List<String> keyColumns, Collection<String> columns) {
      return new Delete(table, entity, key, keyColumnsOf(old, keyColumns), othersOf(keyColumns, columns), true, lsn,
          xid, last, commitTime, write, producer, seq);
    }
  }

  /**
   * Every row of the table removed. It carries no key and no row, so it is never oversized.
   *
   * @param table the table, {@code schema.table}
   * @param entity the declared entity's name, or null for a table no entity declares
   * @param lsn the transaction's commit LSN and the truncate's place in it counting from 1 (24 hex on the wire)
   *     (one per table a {@code TRUNCATE} names)
   * @param xid the top-level transaction id, as pgoutput's Begin carries it (32 bits)
   * @param last whether this is the last change of its transaction
   * @param commitTime the transaction's commit time, epoch milliseconds
   * @param write the write digest the transaction carries, or null
   * @param producer the publishing process's id (a new one per process start)
   * @param seq this producer's message count (changes and position heartbeats alike), 1, 2, 3…, continuing across
   *     redials
   */
  record Truncate(String table, @Nullable String entity, Position lsn, long xid, boolean last, long commitTime,
      @Nullable String write, String producer, long seq) implements ChangeEvent {

    /**
     * Checks the required parts.
     *
     * @throws IllegalArgumentException for a {@code seq} below 1
     */
    public Truncate {
      requireShared(table, lsn, producer, seq);
    }

    @Override
    public Truncate withLast(boolean last) {
      return new Truncate(table, entity, lsn, xid, last, commitTime, write, producer, seq);
    }

    /**
     * Never: a truncate carries no row to cut.
     *
     * @throws IllegalArgumentException always
     */
    @Override
    public ChangeEvent keyOnly(List<String> keyColumns, Collection<String> columns) {
      throw new IllegalArgumentException("A truncate carries no row, so it cannot be oversized");
    }
  }

  private static void requireShared(String table, Position lsn, String producer, long seq) {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(lsn, "lsn");
    Objects.requireNonNull(producer, "producer");
    if (seq < 1) {
      throw new IllegalArgumentException("seq counts from 1, not " + seq);
    }
  }

  /** The columns of {@code columns} that are not key columns, in their order. */
  private static List<String> othersOf(List<String> keyColumns, Collection<String> columns) {
    List<String> left = new ArrayList<>();
    for (String c : columns) {
      if (!keyColumns.contains(c)) {
        left.add(c);
      }
    }
    return left;
  }

  /** The columns of {@code row} that are key columns, in key order. */
  private static Row keyColumnsOf(Row row, List<String> keyColumns) {
    LinkedHashMap<String, @Nullable Object> values = new LinkedHashMap<>();
    for (String k : keyColumns) {
      if (row.values().containsKey(k)) {
        values.put(k, row.get(k));
      }
    }
    return Row.of(values);
  }
}
