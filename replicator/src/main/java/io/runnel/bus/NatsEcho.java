package io.runnel.bus;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Proves that the NATS server read everything one connection sent before a point: a marker published on the
 * connection's own inbox subject comes back to it. The server handles a connection's messages in order, so when
 * the marker returns, every earlier publish (and subscription) of that connection was handled.
 *
 * <p>Why not jnats's {@code Connection.flush}: it returns normally without any answer from the server when the
 * connection is not connected (its PONG future completes with {@code false}) or when too many PINGs are out (it
 * starts a reconnect and returns), so it cannot count as acceptance.
 */
final class NatsEcho {

  private final Connection connection;
  private final String subject;
  private final Dispatcher dispatcher;
  private final Map<Long, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();
  private final AtomicLong next = new AtomicLong();

  private NatsEcho(Connection connection) {
    this.connection = connection;
    this.subject = connection.createInbox();
    this.dispatcher = connection.createDispatcher(m -> {
      CompletableFuture<Void> f = pending.get(Long.parseLong(new String(m.getData(), StandardCharsets.US_ASCII)));
      if (f != null) {
        f.complete(null);
      }
    });
    dispatcher.subscribe(subject);
  }

  /** Subscribes to a new inbox of {@code connection}. @throws IllegalStateException when it is closed */
  static NatsEcho on(Connection connection) {
    return new NatsEcho(connection);
  }

  /** The connection markers travel on. */
  Connection connection() {
    return connection;
  }

  /**
   * Publishes a marker and returns once it came back, within {@code deadline}.
   *
   * @throws TimeoutException when it did not come back in time
   * @throws IllegalStateException when the connection refuses the publish (closed, or reconnecting), or
   *     {@link #failAll} ended the wait
   */
  void await(Duration deadline) throws TimeoutException, InterruptedException {
    long id = next.incrementAndGet();
    CompletableFuture<Void> f = new CompletableFuture<>();
    pending.put(id, f);
    try {
      connection.publish(subject, Long.toString(id).getBytes(StandardCharsets.US_ASCII));
      f.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new IllegalStateException(cause.getMessage(), cause);
    } finally {
      pending.remove(id);
    }
  }

  /** Ends every wait at once with {@code why}: the connection dropped, so no marker in flight can return. */
  void failAll(String why) {
    for (CompletableFuture<Void> f : pending.values()) {
      f.completeExceptionally(new IllegalStateException(why));
    }
  }
}
