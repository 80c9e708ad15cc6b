package io.runnel.replicator;

import io.runnel.protocol.Lsn;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes one {@code pgoutput} message (protocol version 1, text tuples) from the bytes pgjdbc's replication
 * stream hands over. Layouts follow the PostgreSQL manual, "Logical Replication Message Formats".
 */
final class PgOutputDecoder {

  private static final WalMessage.Null NULL = new WalMessage.Null();
  private static final WalMessage.Unchanged UNCHANGED = new WalMessage.Unchanged();

  private PgOutputDecoder() {}

  /**
   * The message in {@code buffer} (from its position to its limit).
   *
   * @throws ReplicationException ({@code X_REPLICATION_FAILED}) for a message kind Runnel does not expect (a
   *     streamed chunk, binary tuple data) or a truncated message
   */
  static WalMessage decode(ByteBuffer buffer) {
    ByteBuffer b = buffer.slice();
    char kind = (char) b.get();
    try {
      return switch (kind) {
        case 'B' -> new WalMessage.Begin(new Lsn(b.getLong()), b.getLong(), b.getInt());
        case 'C' -> new WalMessage.Commit(b.get(), new Lsn(b.getLong()), new Lsn(b.getLong()), b.getLong());
        case 'O' -> new WalMessage.Origin(new Lsn(b.getLong()), string(b));
        case 'R' -> relation(b);
        case 'Y' -> new WalMessage.Type(b.getInt(), string(b), string(b));
        case 'I' -> {
          int oid = b.getInt();
          expect(b, 'N');
          yield new WalMessage.Insert(oid, tuple(b));
        }
        case 'U' -> update(b);
        case 'D' -> {
          int oid = b.getInt();
          char oldKind = (char) b.get();
          if (oldKind != 'K' && oldKind != 'O') {
            throw unexpected("a Delete's old tuple kind '" + oldKind + "'");
          }
          yield new WalMessage.Delete(oid, oldKind, tuple(b));
        }
        case 'T' -> {
          int n = b.getInt();
          int options = b.get();
          List<Integer> oids = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            oids.add(b.getInt());
          }
          yield new WalMessage.Truncate(options, oids);
        }
        case 'M' -> {
          boolean transactional = (b.get() & 1) == 1;
          Lsn lsn = new Lsn(b.getLong());
          String prefix = string(b);
          byte[] content = new byte[b.getInt()];
          b.get(content);
          yield new WalMessage.Message(transactional, lsn, prefix, content);
        }
        default -> throw unexpected("message kind '" + kind + "' (streaming is off and proto_version is 1)");
      };
    } catch (BufferUnderflowException e) {
      throw unexpected("a truncated '" + kind + "' message");
    }
  }

  private static WalMessage.Relation relation(ByteBuffer b) {
    int oid = b.getInt();
    String namespace = string(b);
    String name = string(b);
    char identity = (char) b.get();
    int n = b.getShort() & 0xffff;
    List<WalMessage.RelationColumn> columns = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      boolean key = (b.get() & 1) == 1;
      columns.add(new WalMessage.RelationColumn(key, string(b), b.getInt(), b.getInt()));
    }
    // An empty namespace means pg_catalog (manual: "Namespace (empty string for pg_catalog)").
    return new WalMessage.Relation(oid, namespace.isEmpty() ? "pg_catalog" : namespace, name, identity,
        List.copyOf(columns));
  }

  private static WalMessage.Update update(ByteBuffer b) {
    int oid = b.getInt();
    char marker = (char) b.get();
    if (marker == 'K' || marker == 'O') {
      List<WalMessage.TupleValue> old = tuple(b);
      expect(b, 'N');
      return new WalMessage.Update(oid, marker, old, tuple(b));
    }
    if (marker != 'N') {
      throw unexpected("an Update's tuple marker '" + marker + "'");
    }
    return new WalMessage.Update(oid, null, null, tuple(b));
  }

  private static List<WalMessage.TupleValue> tuple(ByteBuffer b) {
    int n = b.getShort() & 0xffff;
    List<WalMessage.TupleValue> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      char kind = (char) b.get();
      values.add(switch (kind) {
        case 'n' -> NULL;
        case 'u' -> UNCHANGED;
        case 't' -> {
          byte[] bytes = new byte[b.getInt()];
          b.get(bytes);
          yield new WalMessage.Text(new String(bytes, StandardCharsets.UTF_8));
        }
        default -> throw unexpected("tuple value kind '" + kind + "' (binary mode is off)");
      });
    }
    return values;
  }

  private static String string(ByteBuffer b) {
    int start = b.position();
    int end = start;
    while (b.get(end) != 0) {
      end++;
    }
    byte[] bytes = new byte[end - start];
    b.get(bytes);
    b.get();
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static void expect(ByteBuffer b, char marker) {
    char c = (char) b.get();
    if (c != marker) {
      throw unexpected("'" + c + "' where '" + marker + "' was expected");
    }
  }

  private static ReplicationException unexpected(String what) {
    return new ReplicationException("pgoutput sent " + what + ", which Runnel cannot decode.",
        "Check that the slot uses the pgoutput plugin; Runnel asks for proto_version 1 with streaming off.");
  }
}
