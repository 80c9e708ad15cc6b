package io.runnel.sync.auth.internal;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One socket's grant checks ({@link GrantKeeper#watch}): when the next is due, and whether one is running, so a slow
 * authenticator never has two checks of one socket in flight.
 */
public final class GrantWatch {

  private final GrantKeeper keeper;
  private final GrantHolder holder;
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile long dueAt;

  GrantWatch(GrantKeeper keeper, GrantHolder holder, long dueAt) {
    this.keeper = keeper;
    this.holder = holder;
    this.dueAt = dueAt;
  }

  /**
   * Starts a check on a thread of its own when one is due at {@code nowMillis} (the node's clock, epoch ms), the
   * socket is open and no check of it is running; returns at once either way.
   */
  public void check(long nowMillis) {
    if (nowMillis < dueAt || !holder.open() || !running.compareAndSet(false, true)) {
      return;
    }
    keeper.start(() -> {
      try {
        dueAt = keeper.decide(holder);
      } finally {
        running.set(false);
      }
    });
  }
}
