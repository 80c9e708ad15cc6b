package io.runnel.client;

import io.runnel.client.outbox.Subscription;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The page's listeners of one kind of value, each removable by its {@link Subscription}; itself the listener that
 * hands a value on to them all (a method reference to {@link #accept} would be one more class in a bundle).
 */
final class Listeners<T> implements Consumer<T> {

  private final List<Consumer<T>> listeners = new ArrayList<>();

  /** Adds {@code listener}; the subscription removes it. */
  Subscription add(Consumer<T> listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /** Hands {@code value} to every listener, in the order they were added. */
  @Override
  public void accept(T value) {
    for (Consumer<T> l : List.copyOf(listeners)) {
      l.accept(value);
    }
  }
}
