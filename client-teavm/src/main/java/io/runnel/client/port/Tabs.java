package io.runnel.client.port;

import java.util.function.Consumer;

/**
 * The other tabs (pages) of the same origin: a named lock that one tab holds at a time, and messages between tabs.
 * In the browser: Web Locks ({@code navigator.locks.request}, a lock held until its lease is released or the page
 * closes) and a {@code BroadcastChannel}; {@link #alone()} where neither exists (and on the JVM).
 *
 * <p>The outbox uses it so that one tab drains a principal's queue at a time: the others store their calls and tell
 * the drainer, which answers every tab with each write's outcome. A page closed while holding the lock releases it
 * (the browser does that), and the next holder re-reads the durable store, so an entry the closed page had in flight
 * is pending again and sent under its original idempotency key.
 */
public interface Tabs {

  /** A lock held, or asked for. */
  interface Lease {
    /** Releases the lock, or withdraws the request when it is not granted yet; does nothing the second time. */
    void release();
  }

  /**
   * Asks for the lock {@code name}: {@code granted} runs once, on the client's thread, when this tab holds it (without
   * waiting when no other tab does: inside this call for {@link #alone()}, on a later turn with Web Locks), and the
   * tab holds it until the lease is released or the page closes.
   */
  Lease lead(String name, Runnable granted);

  /** Sends {@code text} to every other tab of the origin (not to this one); nothing when there is none. */
  void post(String text);

  /** Calls {@code listener}, on the client's thread, with each text another tab posted. */
  void listen(Consumer<String> listener);

  /** One tab alone: every lock is granted at once and no message goes anywhere. */
  static Tabs alone() {
    return new Tabs() {
      @Override
      public Lease lead(String name, Runnable granted) {
        granted.run();
        return () -> { };
      }

      @Override
      public void post(String text) {}

      @Override
      public void listen(Consumer<String> listener) {}
    };
  }
}
