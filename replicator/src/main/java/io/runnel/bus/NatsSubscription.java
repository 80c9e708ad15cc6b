package io.runnel.bus;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One subscription of a {@link NatsTransport}: a jnats dispatcher of its own (one thread, server order) on the
 * current connection, moved to a new dispatcher when the transport re-dials.
 */
final class NatsSubscription implements Subscription {

  private static final System.Logger LOG = System.getLogger(NatsSubscription.class.getName());

  private final String pattern;
  private final Consumer<TransportMessage> handler;
  private final Consumer<NatsSubscription> onClose;
  private final AtomicBoolean open = new AtomicBoolean(true);
  private final ReentrantLock delivering = new ReentrantLock();
  private volatile @Nullable Connection on;
  private volatile @Nullable Dispatcher dispatcher;

  /** @param onClose told once when this subscription closes, so the transport stops moving it */
  NatsSubscription(String pattern, Consumer<TransportMessage> handler, Consumer<NatsSubscription> onClose) {
    this.pattern = pattern;
    this.handler = handler;
    this.onClose = onClose;
  }

  /** Subscribes on {@code c} through a new dispatcher. @throws IllegalStateException when {@code c} is closed */
  void attach(Connection c) {
    Dispatcher d = c.createDispatcher(this::deliver);
    d.subscribe(pattern);
    on = c;
    dispatcher = d;
  }

  /**
   * Hands one message to the handler; a handler that throws is logged and the next message follows. The lock keeps
   * the handler to one call at a time even while a closed connection's dispatcher finishes its last message as
   * the new connection's starts.
   */
  private void deliver(Message m) {
    if (!open.get()) {
      return;
    }
    byte[] data = m.getData();
    delivering.lock();
    try {
      handler.accept(new TransportMessage(m.getSubject(), data == null ? new byte[0] : data));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "Subscriber '" + pattern + "' failed on a message of " + m.getSubject(), e);
    } finally {
      delivering.unlock();
    }
  }

  @Override
  public String pattern() {
    return pattern;
  }

  @Override
  public void close() {
    if (!open.compareAndSet(true, false)) {
      return;
    }
    onClose.accept(this);
    Connection c = on;
    Dispatcher d = dispatcher;
    if (c == null || d == null) {
      return;
    }
    try {
      c.closeDispatcher(d);
    } catch (IllegalStateException | IllegalArgumentException e) {
      // The connection is closed already: the dispatcher went with it.
    }
  }
}
