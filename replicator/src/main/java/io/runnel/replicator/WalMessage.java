package io.runnel.replicator;

import io.runnel.protocol.Lsn;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The messages of PostgreSQL's {@code pgoutput} logical replication protocol, version 1 ("Logical Replication
 * Message Formats" in the PostgreSQL manual, chapter 55.9). Streaming is off, so no stream messages occur.
 */
sealed interface WalMessage
    permits WalMessage.Begin, WalMessage.Commit, WalMessage.Origin, WalMessage.Relation, WalMessage.Type,
        WalMessage.Insert, WalMessage.Update, WalMessage.Delete, WalMessage.Truncate, WalMessage.Message {

  /** 'B': a transaction starts; {@code finalLsn} is its commit record's LSN, known up front. */
  record Begin(Lsn finalLsn, long commitTimeMicros, int xid) implements WalMessage {}

  /** 'C': the transaction committed at {@code commitLsn}; {@code endLsn} is where the next one starts. */
  record Commit(int flags, Lsn commitLsn, Lsn endLsn, long commitTimeMicros) implements WalMessage {}

  /** 'O': the changes came from another origin (replicated in). */
  record Origin(Lsn lsn, String name) implements WalMessage {}

  /**
   * 'R': a table's shape, sent before its first change in a session and again after it changes.
   *
   * @param replicaIdentity {@code d} default, {@code n} nothing, {@code f} full, {@code i} index
   */
  record Relation(int oid, String namespace, String name, char replicaIdentity, List<RelationColumn> columns)
      implements WalMessage {}

  /** One column of a {@link Relation}; {@code key} when it is part of the replica identity. */
  record RelationColumn(boolean key, String name, int typeOid, int typeModifier) {}

  /** 'Y': a non-builtin type's name. */
  record Type(int oid, String namespace, String name) implements WalMessage {}

  /** 'I': a new row. */
  record Insert(int relationOid, List<TupleValue> tuple) implements WalMessage {}

  /**
   * 'U': an updated row; {@code oldKind} is {@code K} (key columns, the key changed), {@code O} (the whole old
   * row, REPLICA IDENTITY FULL) or absent, with {@code oldTuple} to match.
   */
  record Update(int relationOid, @Nullable Character oldKind, @Nullable List<TupleValue> oldTuple,
      List<TupleValue> tuple) implements WalMessage {}

  /** 'D': a deleted row, identified by its key ({@code K}) or whole old row ({@code O}). */
  record Delete(int relationOid, char oldKind, List<TupleValue> oldTuple) implements WalMessage {}

  /** 'T': tables truncated; {@code options} bit 1 CASCADE, bit 2 RESTART IDENTITY. */
  record Truncate(int options, List<Integer> relationOids) implements WalMessage {}

  /** 'M': a {@code pg_logical_emit_message}; transactional ones arrive between Begin and Commit. */
  // The message's bytes as pgoutput sent them, read once by the decoder; never compared or hashed.
  @SuppressWarnings("ArrayRecordComponent")
  record Message(boolean transactional, Lsn lsn, String prefix, byte[] content) implements WalMessage {}

  /** One column value in a tuple: {@code n} null, {@code u} unchanged TOASTed value, {@code t} text. */
  sealed interface TupleValue permits Null, Unchanged, Text {}

  /** SQL NULL. */
  record Null() implements TupleValue {}

  /** A TOASTed value the UPDATE did not change, so it was not sent. */
  record Unchanged() implements TupleValue {}

  /** A value in PostgreSQL's text output. */
  record Text(String text) implements TupleValue {}
}
