package io.runnel.client.outbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One principal's outbox: its entries in order, its failures, and whether its stored entries were read back yet.
 * Calls made before the read-back wait in {@link #deferred} and get their place after the stored entries.
 */
final class PrincipalQueue {

  final String principal;
  final List<Entry> entries = new ArrayList<>();
  final List<Entry> deferred = new ArrayList<>();
  final List<OutboxState.FailedWrite> failed = new ArrayList<>();
  long nextSeq = 1;
  boolean loading;
  boolean loaded;

  PrincipalQueue(String principal) {
    this.principal = Objects.requireNonNull(principal, "principal");
  }
}
