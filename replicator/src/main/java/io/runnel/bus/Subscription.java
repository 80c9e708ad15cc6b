package io.runnel.bus;

/** A subscription on a {@link Transport}; close it to stop delivery. */
public interface Subscription extends AutoCloseable {

  /** The pattern subscribed to. */
  String pattern();

  /** Stops delivery; messages not yet handled are dropped. */
  @Override
  void close();
}
