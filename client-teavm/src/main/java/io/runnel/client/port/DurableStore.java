package io.runnel.client.port;

import java.util.Map;
import java.util.function.Consumer;

/**
 * A durable key-value store that survives a reload (IndexedDB in the browser): the outbox writes each entry under
 * its own key, never the queue as a whole. Writes are ordered; reads see every earlier write.
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

  /** Every entry whose key starts with {@code prefix}, given to {@code done} once. */
  void list(String prefix, Consumer<Map<String, String>> done);
}
