package io.runnel.bus;

import io.runnel.time.Threads;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The embedded bus: publishes go straight into each matching subscription's bounded queue, drained in order by
 * that subscription's own virtual thread.
 *
 * <p>Design: a publish is accepted when every matching subscription took it. A subscription whose queue stays full
 * for {@code offerTimeout} makes the publish fail with {@link TransportUnavailableException}, so the replicator
 * does not confirm the slot and republishes later: the bus pushes back instead of losing or buffering without
 * bound. (Subscriptions that took the message before the refusal see it again on the republish; consumers drop
 * duplicates by LSN.) It never disconnects, so {@link #onReconnect} listeners are never called.
 */
public final class InProcessTransport implements Transport {

  private static final System.Logger LOG = System.getLogger(InProcessTransport.class.getName());

  /** The default queue capacity per subscription, in messages. */
  public static final int DEFAULT_QUEUE_CAPACITY = 65_536;

  /** The most messages a subscription takes from its queue at once. */
  private static final int DRAIN_BATCH = 256;

  private final int queueCapacity;
  private final Duration offerTimeout;
  private final List<Sub> subscriptions = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  private InProcessTransport(int queueCapacity, Duration offerTimeout) {
    this.queueCapacity = queueCapacity;
    this.offerTimeout = offerTimeout;
  }

  /** A transport with {@link #DEFAULT_QUEUE_CAPACITY} messages per subscription and a 5 s push-back. */
  public static InProcessTransport create() {
    return create(DEFAULT_QUEUE_CAPACITY, Duration.ofSeconds(5));
  }

  /**
   * A transport with {@code queueCapacity} messages per subscription, refusing a publish that waited
   * {@code offerTimeout} for a full queue.
   *
   * @throws IllegalArgumentException for a capacity below 1 or a negative timeout
   */
  public static InProcessTransport create(int queueCapacity, Duration offerTimeout) {
    if (queueCapacity < 1 || offerTimeout.isNegative()) {
      throw new IllegalArgumentException("capacity " + queueCapacity + ", timeout " + offerTimeout);
    }
    return new InProcessTransport(queueCapacity, offerTimeout);
  }

  @Override
  public void publish(String subject, byte[] payload) {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(payload, "payload");
    if (closed.get()) {
      throw new TransportUnavailableException("The in-process bus is closed.", "Start a new transport.");
    }
    TransportMessage message = new TransportMessage(subject, payload);
    for (Sub s : subscriptions) {
      if (Subjects.matches(s.tokens, subject)) {
        s.offer(message, offerTimeout);
      }
    }
  }

  /** Every publish was accepted when it returned, so there is nothing to wait for. */
  @Override
  public void flush(Duration deadline) {
    if (closed.get()) {
      throw new TransportUnavailableException("The in-process bus is closed.", "Start a new transport.");
    }
  }

  @Override
  public Subscription subscribe(String pattern, Consumer<TransportMessage> handler) {
    Objects.requireNonNull(pattern, "pattern");
    Objects.requireNonNull(handler, "handler");
    if (closed.get()) {
      throw new TransportUnavailableException("The in-process bus is closed.", "Start a new transport.");
    }
    Sub s = new Sub(pattern, handler, new ArrayBlockingQueue<>(queueCapacity));
    subscriptions.add(s);
    s.thread = Threads.virtual("bus-" + pattern, s::drain);
    return s;
  }

  /** The in-process bus never disconnects: listeners are kept but never called. */
  @Override
  public void onReconnect(Runnable listener) {
    Objects.requireNonNull(listener, "listener");
  }

  /** Up until {@link #close}: the in-process bus has no connection to lose. */
  @Override
  public boolean connected() {
    return !closed.get();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      for (Sub s : subscriptions) {
        s.close();
      }
    }
  }

  /** Messages handled by handlers that threw, over this transport's life. */
  public long handlerFailures() {
    long n = 0;
    for (Sub s : subscriptions) {
      n += s.failures.get();
    }
    return n;
  }

  private final class Sub implements Subscription {
    private final String pattern;
    /** The pattern's tokens, split once here rather than on every publish. */
    private final String[] tokens;
    private final Consumer<TransportMessage> handler;
    private final BlockingQueue<TransportMessage> queue;
    private final AtomicBoolean open = new AtomicBoolean(true);
    private final AtomicLong failures = new AtomicLong();
    private volatile @Nullable Thread thread;

    Sub(String pattern, Consumer<TransportMessage> handler, BlockingQueue<TransportMessage> queue) {
      this.pattern = pattern;
      this.tokens = Subjects.tokens(pattern);
      this.handler = handler;
      this.queue = queue;
    }

    void offer(TransportMessage m, Duration timeout) {
      if (!open.get()) {
        return;
      }
      try {
        if (!queue.offer(m, timeout.toNanos(), TimeUnit.NANOSECONDS)) {
          throw new TransportUnavailableException("Subscriber '" + pattern + "' is " + queue.size()
              + " messages behind and took nothing for " + timeout.toMillis() + " ms.",
              "Retry later; the subscriber's handler is too slow or stuck.");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new TransportUnavailableException("Interrupted while publishing to '" + pattern + "'.", "Retry.");
      }
    }

    /**
     * Hands messages to the handler in order, taking every message already queued at once (up to
     * {@link #DRAIN_BATCH}), so a busy subscription takes the queue's lock once per batch rather than per message.
     */
    void drain() {
      List<TransportMessage> batch = new ArrayList<>(DRAIN_BATCH);
      while (open.get()) {
        try {
          batch.add(queue.take());
        } catch (InterruptedException e) {
          return;
        }
        queue.drainTo(batch, DRAIN_BATCH - 1);
        for (int i = 0; i < batch.size() && open.get(); i++) {
          TransportMessage m = batch.get(i);
          try {
            handler.accept(m);
          } catch (RuntimeException e) {
            failures.incrementAndGet();
            LOG.log(Level.WARNING, "Subscriber '" + pattern + "' failed on a message of " + m.subject(), e);
          }
        }
        batch.clear();
      }
    }

    @Override
    public String pattern() {
      return pattern;
    }

    @Override
    public void close() {
      if (open.compareAndSet(true, false)) {
        subscriptions.remove(this);
        Thread t = thread;
        if (t != null) {
          t.interrupt();
        }
      }
    }
  }
}
