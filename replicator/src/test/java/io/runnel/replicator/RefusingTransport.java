package io.runnel.replicator;

import io.runnel.bus.Subscription;
import io.runnel.bus.Transport;
import io.runnel.bus.TransportMessage;
import io.runnel.bus.TransportUnavailableException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A real bus behind a switch that makes it refuse publishes, as a bus that is down does: the failure a test
 * needs to inject, around the real transport.
 */
final class RefusingTransport implements Transport {

  final AtomicBoolean refusing = new AtomicBoolean();
  final AtomicLong refusals = new AtomicLong();
  private final Transport delegate;

  RefusingTransport(Transport delegate) {
    this.delegate = delegate;
  }

  @Override
  public void publish(String subject, byte[] payload) {
    if (refusing.get()) {
      refusals.incrementAndGet();
      throw new TransportUnavailableException("The test's bus refuses publishes.", "Wait for it to accept again.");
    }
    delegate.publish(subject, payload);
  }

  @Override
  public void flush(Duration deadline) {
    if (refusing.get()) {
      refusals.incrementAndGet();
      throw new TransportUnavailableException("The test's bus refuses flushes.", "Wait for it to accept again.");
    }
    delegate.flush(deadline);
  }

  @Override
  public Subscription subscribe(String pattern, Consumer<TransportMessage> handler) {
    return delegate.subscribe(pattern, handler);
  }

  @Override
  public void onReconnect(Runnable listener) {
    delegate.onReconnect(listener);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
