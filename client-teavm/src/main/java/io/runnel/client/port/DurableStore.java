package io.runnel.client.port;

import java.util.Map;
import java.util.function.Consumer;

/**
 * A durable key-value store that survives a reload (IndexedDB in the browser), shared by every tab of the origin:
 * the outbox writes each entry under its own key, never the queue as a whole. Writes are ordered; a {@link #list}
 * answers only once every earlier write of this tab is stored, where other tabs see it too, and sees whatever other
 * tabs stored before it ran.
 */
public interface DurableStore {

  /**
   * Stores {@code value} under {@code key}, replacing what was there.
   *
   * @return false when the store refused it (its quota is full): what was there is kept
   */
  boolean put(String key, String value);

  /** Removes {@code key}; nothing when absent. */
  void remove(String key);

  /** Every entry whose key starts with {@code prefix}, given to {@code done} once, later or at once. */
  void list(String prefix, Consumer<Map<String, String>> done);

  /**
   * Calls {@code listener} with the key of each write that {@link #put} accepted but the store refused later (an
   * IndexedDB transaction that failed on its quota): the value is not stored. None by default.
   */
  default void onRefused(Consumer<String> listener) {}
}
