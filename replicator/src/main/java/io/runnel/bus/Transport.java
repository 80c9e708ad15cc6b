package io.runnel.bus;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * The bus port: how change events travel from the replicator to sync nodes. {@link InProcessTransport} when
 * embedded; {@link NatsTransport} across machines; {@link TransportConfig#fromEnvironment} picks one.
 *
 * <p>Delivery is at least once from the replicator's side (it republishes what the bus did not accept) and at most
 * once on the way out (a consumer that misses messages sees a hole in the producer's {@code seq}, or a reconnect,
 * and re-reads). Messages of one subscription arrive in publish order.
 */
public interface Transport extends AutoCloseable {

  /**
   * Publishes {@code payload} on {@code subject} ({@code runnel.changes.<schema>.<table>}, tokens built by
   * {@link Subjects}, or {@link Subjects#POSITION}). It may be buffered until {@link #flush}.
   *
   * @throws TransportUnavailableException ({@code X_TRANSPORT_UNAVAILABLE}) at once when the bus is down or refuses
   * @throws IllegalArgumentException for a payload longer than {@link #maxPayload()}
   */
  void publish(String subject, byte[] payload);

  /**
   * The largest payload, in bytes, one {@link #publish} takes now (for NATS, the server's {@code max_payload});
   * a publisher sends a larger message smaller or not at all. Unbounded ({@link Long#MAX_VALUE}) by default.
   */
  default long maxPayload() {
    return Long.MAX_VALUE;
  }

  /**
   * Returns once every earlier {@link #publish} was accepted by the bus, within {@code deadline}.
   *
   * @throws TransportUnavailableException when the bus did not accept them all in time; then none of them may be
   *     counted as accepted
   */
  void flush(Duration deadline);

  /**
   * Subscribes {@code handler} to subjects matching {@code pattern} (NATS syntax: {@code *} matches one token,
   * a final {@code >} one or more). The handler is called on one thread per subscription, in publish order.
   *
   * @throws TransportUnavailableException when the bus is down
   */
  Subscription subscribe(String pattern, Consumer<TransportMessage> handler);

  /**
   * Registers {@code listener}, called after the bus connection comes back: messages may have been lost meanwhile,
   * so a consumer treats every reconnect as a gap.
   */
  void onReconnect(Runnable listener);

  /**
   * Whether the bus connection is up now, so publishes and subscriptions are taken: {@code /readyz} and the
   * {@code runnel_bus_connected} gauge report it. True by default (a transport with no connection to lose).
   */
  default boolean connected() {
    return true;
  }

  /** Closes the transport and its subscriptions. */
  @Override
  void close();
}
