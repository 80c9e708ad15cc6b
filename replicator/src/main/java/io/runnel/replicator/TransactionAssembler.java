package io.runnel.replicator;

import io.runnel.dsl.server.Entity;
import io.runnel.protocol.Position;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Turns the decoded {@code pgoutput} messages of one replication session into {@link WalChange}s, in order: their
 * values stay pgoutput's text (only the key columns are parsed, for the record key) until the envelope is written.
 *
 * <p>Design: transactions arrive whole and after their commit (streaming is off), so each change is published as
 * soon as it is decoded and memory stays bounded whatever the transaction's size; only one change is held back, to
 * learn whether it is the transaction's {@code last}. Positions count the transaction's changes from 1 and, with the
 * Begin's final LSN (which is the commit LSN), make the 24-hex LSN, so a redelivered change carries the identical
 * LSN. A transactional {@code runnel.write} message, which the write path emits first, tags every change of its
 * transaction with the write digest. Relations are cached by OID and replaced when pgoutput describes them again.
 */
final class TransactionAssembler {

  /** The message prefix of the write digest ({@code docs/protocol.md}, "Idempotency"). */
  static final String WRITE_PREFIX = "runnel.write";
  /** PostgreSQL's epoch, 2000-01-01 UTC, in Unix milliseconds (pgoutput's timestamps count from it). */
  static final long POSTGRES_EPOCH_MILLIS = 946_684_800_000L;

  /** Where finished changes go. */
  interface Sink {
    /** Publishes one change (its schema encodes its rows). */
    void publish(WalChange change);
  }

  /** A change held back until the next one or the commit says whether it is the last; values still text. */
  private record Pending(TableSchema schema, ChangeOp op, @Nullable String key,
      @Nullable List<WalMessage.TupleValue> tuple, @Nullable List<WalMessage.TupleValue> oldTuple,
      boolean oldKeyOnly, Position lsn) {}

  private final Function<String, @Nullable Entity> entityByTable;
  private final Producer producer;
  private final Sink sink;
  private final Map<Integer, TableSchema> relations = new HashMap<>();

  private WalMessage.@Nullable Begin begin;
  private int position;
  private @Nullable String write;
  private @Nullable Pending pending;

  TransactionAssembler(Function<String, @Nullable Entity> entityByTable, Producer producer, Sink sink) {
    this.entityByTable = entityByTable;
    this.producer = producer;
    this.sink = sink;
  }

  /**
   * Takes one message; returns the Commit when it ends a transaction (after its last change was published), else
   * null.
   *
   * @throws ReplicationException for a change outside a transaction or on a relation never described
   */
  WalMessage.@Nullable Commit accept(WalMessage message) {
    switch (message) {
      case WalMessage.Begin b -> {
        begin = b;
        position = 0;
        write = null;
        pending = null;
      }
      case WalMessage.Relation r -> {
        String table = r.namespace() + "." + r.name();
        relations.put(r.oid(), new TableSchema(r, entityByTable.apply(table)));
      }
      case WalMessage.Type t -> { }
      case WalMessage.Origin o -> { }
      case WalMessage.Message m -> {
        if (m.transactional() && begin != null && WRITE_PREFIX.equals(m.prefix())) {
          write = new String(m.content(), StandardCharsets.UTF_8);
        }
      }
      case WalMessage.Insert i -> {
        TableSchema s = schema(i.relationOid());
        hold(new Pending(s, ChangeOp.INSERT, s.keyOf(i.tuple()), i.tuple(), null, false, nextLsn()));
      }
      case WalMessage.Update u -> {
        TableSchema s = schema(u.relationOid());
        boolean keyOnly = u.oldKind() != null && u.oldKind() == 'K';
        String key = s.keyOf(u.tuple());
        if (key == null && u.oldTuple() != null) {
          key = s.keyOf(u.oldTuple());
        }
        hold(new Pending(s, ChangeOp.UPDATE, key, u.tuple(), u.oldTuple(), keyOnly, nextLsn()));
      }
      case WalMessage.Delete d -> {
        TableSchema s = schema(d.relationOid());
        hold(new Pending(s, ChangeOp.DELETE, s.keyOf(d.oldTuple()), null, d.oldTuple(), d.oldKind() == 'K',
            nextLsn()));
      }
      case WalMessage.Truncate t -> {
        for (int oid : t.relationOids()) {
          hold(new Pending(schema(oid), ChangeOp.TRUNCATE, null, null, null, false, nextLsn()));
        }
      }
      case WalMessage.Commit c -> {
        if (pending != null) {
          emit(pending, true);
          pending = null;
        }
        begin = null;
        return c;
      }
    }
    return null;
  }

  /** Whether a transaction is open (Begin seen, Commit not yet). */
  boolean inTransaction() {
    return begin != null;
  }

  private TableSchema schema(int oid) {
    if (begin == null) {
      throw new ReplicationException("pgoutput sent a change outside a transaction.",
          "Report this: Runnel expects every change between Begin and Commit.");
    }
    TableSchema s = relations.get(oid);
    if (s == null) {
      throw new ReplicationException("pgoutput sent a change for relation " + oid + " before describing it.",
          "Report this: pgoutput sends a Relation message before a table's first change in a session.");
    }
    return s;
  }

  private Position nextLsn() {
    return open().finalLsn().row(++position);
  }

  /** The open transaction's Begin; only called between a Begin and its Commit, which {@code accept} checks. */
  private WalMessage.Begin open() {
    return Objects.requireNonNull(begin, "begin");
  }

  private void hold(Pending next) {
    if (pending != null) {
      emit(pending, false);
    }
    pending = next;
  }

  private void emit(Pending p, boolean last) {
    WalMessage.Begin b = open();
    sink.publish(new WalChange(p.schema(), p.op(), p.key(), p.tuple(), p.oldTuple(), p.oldKeyOnly(), p.lsn(),
        Integer.toUnsignedLong(b.xid()), last, b.commitTimeMicros() / 1000 + POSTGRES_EPOCH_MILLIS, write,
        producer.id(), producer.nextSeq()));
  }
}
