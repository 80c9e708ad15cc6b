package io.runnel.client.outbox;

import io.runnel.wire.Nullable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One principal's outbox (or the provisional one, of calls made before any actor was known): its entries in order,
 * its failures, and whether its stored entries were read back yet. Calls made before the read-back wait in
 * {@link #deferred} and get their place after the stored entries.
 */
final class PrincipalQueue {

  /** The actor id ({@code ""} for an anonymous actor), or null for the provisional queue. */
  final @Nullable String principal;
  /** The store-key prefix of every entry of this queue. */
  final String prefix;
  final List<Entry> entries = new ArrayList<>();
  final List<Entry> deferred = new ArrayList<>();
  final List<OutboxState.FailedWrite> failed = new ArrayList<>();
  long nextSeq = 1;
  boolean loading;
  boolean loaded;

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

  /** The store key of {@code e} in this queue. */
  String key(Entry e) {
    return prefix + e.seq;
  }
}
