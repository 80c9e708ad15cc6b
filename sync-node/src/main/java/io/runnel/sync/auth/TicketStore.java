package io.runnel.sync.auth;

/**
 * Records that a ticket was used, so each is used once. In-memory by default; a shared store lets several nodes
 * honour one another's tickets.
 */
@FunctionalInterface
public interface TicketStore {

  /**
   * Claims ticket {@code id}, valid until {@code expiresAt} (epoch ms): true the first time, false after.
   *
   * @throws Exception when the store cannot be reached (the upgrade is refused with 503)
   */
  boolean claim(String id, long expiresAt) throws Exception;

  /** A store in this process's memory, forgetting tickets once they expire. */
  static TicketStore inMemory() {
    return new InMemoryTicketStore();
  }
}
