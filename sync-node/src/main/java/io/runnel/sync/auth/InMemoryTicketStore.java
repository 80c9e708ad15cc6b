package io.runnel.sync.auth;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** {@link TicketStore#inMemory()}: claimed ids with their expiry, swept as claims come. */
final class InMemoryTicketStore implements TicketStore {

  private final Map<String, Long> claimed = new ConcurrentHashMap<>();

  @Override
  public boolean claim(String id, long expiresAt) {
    long now = System.currentTimeMillis();
    if (claimed.size() > 10_000) {
      claimed.values().removeIf(exp -> exp < now - 60_000);
    }
    return claimed.putIfAbsent(id, expiresAt) == null;
  }
}
