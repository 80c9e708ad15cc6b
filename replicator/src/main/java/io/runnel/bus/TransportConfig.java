package io.runnel.bus;

import io.runnel.wire.ConfigInvalidException;
import java.util.Map;
import java.util.Objects;

/**
 * Which bus a process uses, chosen from its environment: {@code NATS_URL} set selects NATS ({@link NatsConfig}),
 * unset the in-process bus ({@link InProcess}). Every role that publishes or reads changes (the one process, the
 * replicator, a sync node) reads it the same way.
 *
 * <pre>{@code
 * TransportConfig bus = TransportConfig.fromEnvironment(System.getenv()); // X_CONFIG_INVALID at boot
 * try (Transport t = bus.open()) {                                       // X_TRANSPORT_UNAVAILABLE at boot
 *   ...
 * }
 * }</pre>
 */
public sealed interface TransportConfig permits TransportConfig.InProcess, NatsConfig {

  /** The environment variable that selects NATS. */
  String NATS_URL = "NATS_URL";

  /**
   * The bus {@code env} selects: NATS at {@code NATS_URL} when it is set, else the in-process bus.
   *
   * @throws ConfigInvalidException ({@code X_CONFIG_INVALID}) naming {@code NATS_URL} when it is set but empty or
   *     not one or more {@code nats://} / {@code tls://} URLs
   */
  static TransportConfig fromEnvironment(Map<String, String> env) {
    Objects.requireNonNull(env, "env");
    String url = env.get(NATS_URL);
    return url == null ? new InProcess() : NatsConfig.parse(NATS_URL, url);
  }

  /**
   * Opens the bus: creates the in-process one, or connects to NATS.
   *
   * @throws TransportUnavailableException ({@code X_TRANSPORT_UNAVAILABLE}) when no NATS server answers; the
   *     refusal names the URL and the fix
   */
  Transport open();

  /** One line for a banner or a log: {@code in-process} or {@code NATS at nats://host:4222}. */
  String describe();

  /** The embedded bus, for one process: {@link InProcessTransport} with its defaults. */
  record InProcess() implements TransportConfig {

    /** A new {@link InProcessTransport}. */
    @Override
    public Transport open() {
      return InProcessTransport.create();
    }

    @Override
    public String describe() {
      return "in-process";
    }
  }
}
