package io.runnel.client.outbox;

/** A registered listener that may be removed. */
@FunctionalInterface
public interface Subscription {

  /** Stops the listener; does nothing the second time. */
  void cancel();
}
