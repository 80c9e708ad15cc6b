package io.runnel.client.outbox.internal;

import io.runnel.client.outbox.OutboxState;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One principal's outbox (or the provisional one, of calls made before any actor was known): its entries in order
 * ({@link Entry#before}), its failures, and whether its stored entries were read back yet. Calls made before the
 * read-back wait in {@link #deferred} and get their place after the stored entries. Other tabs write to the same
 * queue in the durable store; {@link QueueStore#load} merges what they wrote.
 */
final class PrincipalQueue {

  /** The actor id ({@code ""} for an anonymous actor), or null for the provisional queue. */
  final @Nullable String principal;
  /** The store-key prefix of every entry of this queue. */
  final String prefix;
  final List<Entry> entries = new ArrayList<>();
  final List<Entry> deferred = new ArrayList<>();
  final List<OutboxState.FailedWrite> failed = new ArrayList<>();
  /** The least seq the next entry this tab stores may take. */
  long nextSeq = 1;
  boolean loading;
  boolean loaded;
  /** Another tab wrote to this queue while it was being read: read it again once loaded. */
  boolean stale;
  /** This tab stored an entry the other tabs were not told of yet. */
  boolean untold;

  private PrincipalQueue(@Nullable String principal, String prefix) {
    this.principal = principal;
    this.prefix = prefix;
  }

  /** The queue of {@code principal}. */
  static PrincipalQueue of(String principal) {
    return new PrincipalQueue(principal, Entry.prefix(Objects.requireNonNull(principal, "principal")));
  }

  /** The provisional queue: calls made before any node named the page's actor. */
  static PrincipalQueue provisional() {
    return new PrincipalQueue(null, Entry.PROVISIONAL_PREFIX);
  }

  /** The store key of {@code e} in this queue: {@code <prefix><seq>.<write id>}. */
  String key(Entry e) {
    return prefix + e.seq + "." + e.writeId;
  }

  /** Puts {@code e} at its place ({@link Entry#before}). */
  void insert(Entry e) {
    int i = entries.size();
    while (i > 0 && Entry.before(e, entries.get(i - 1))) {
      i--;
    }
    entries.add(i, e);
  }
}
