package io.runnel.client;

import io.runnel.dsl.MutatorRef;

/**
 * What the outbox asks of the record store: run a write's local twin into the optimistic overlay, tell it how the
 * server answered, and drop it. The store settles an answered write by itself, once a frame names its digest or a
 * {@code hello} answer's {@code lsn} reaches the answer's {@code lsn} ({@code docs/protocol.md}).
 */
public interface OptimisticWrites {

  /**
   * Runs {@code mutator}'s local twin with {@code input} as pending write {@code writeId}, after every earlier
   * pending write; a mutator with no twin adds nothing to the overlay but is still tracked.
   */
  <I> void apply(String writeId, MutatorRef<I> mutator, I input);

  /**
   * The outbox sends {@code writeId} (called at each attempt): from the first, until it settles or is dropped, the
   * overlay replays the pending writes over the truth the write's records had then, so its echo or a snapshot that
   * already holds its effect, arriving before its answer, is not counted twice.
   */
  void sending(String writeId);

  /** The server answered 200 for {@code writeId} with its write {@code digest} and {@code lsn} (24 hex). */
  void answered(String writeId, String digest, String lsn);

  /** The write was refused or failed: its overlay goes at once, leaving the server's values. */
  void dropped(String writeId);
}
