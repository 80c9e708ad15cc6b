package io.runnel.server;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.runnel.bus.NatsConfig;
import io.runnel.bus.Transport;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.sync.SyncNode;
import io.runnel.sync.auth.TicketStore;
import io.runnel.sync.auth.Tickets;
import io.runnel.sync.channel.ChannelBus;
import io.runnel.sync.channel.TransportChannelBus;
import io.runnel.sync.socket.Drained;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * An app's sync node, as roles {@code all} and {@code sync} run it: the app's declarations, JWT sign-in (an
 * identity provider's keys, or the HS256 secret: {@link AppConfig.Jwt}), tickets signed with the shared ticket key,
 * the development sign-in ({@link DevSignIn}, absent with an identity provider), the app's own routes
 * ({@link RunnelServer#routes}) and the origins of {@code RUNNEL_ALLOWED_ORIGINS}.
 */
final class Nodes {

  private Nodes() {}

  /**
   * A node on {@code port}, not started.
   *
   * @param tickets where ticket claims are recorded: in memory for one process, {@link TicketStore#postgres} for
   *     sync nodes that honour each other's tickets
   * @param meters the registry {@code /metrics} shows (shared with a replicator in the same process)
   * @param replicator the stats of the replicator this process runs beside the node, for {@code /readyz}, or null
   */
  static SyncNode build(RunnelServer app, AppConfig config, DataSource pool, Transport bus, String jwtSecret,
      TicketStore tickets, int port, PrometheusMeterRegistry meters, @Nullable Supplier<ReplicatorStats> replicator) {
    Clock clock = Clock.systemUTC();
    DevSignIn signIn = DevSignIn.of(config.devSignIn(), app.devUsers(), jwtSecret, clock);
    // Over NATS the channels' events and presence reach the other nodes too; the in-process bus has none to reach.
    ChannelBus channels = config.bus() instanceof NatsConfig ? new TransportChannelBus(bus) : ChannelBus.local();
    SyncNode.Builder b = SyncNode.builder().declarations(app.declarations()).dataSource(pool).transport(bus)
        .channelBus(channels).authenticator(config.jwt().authenticator(jwtSecret))
        .tickets(Tickets.create(AppConfig.ticketKey(config.ticketSecret(), jwtSecret), tickets, clock))
        .allowedOrigins(config.allowedOrigins())
        .routing(app::routes).drainSpread(config.drainSpread())
        .lagDegraded(config.lagDegraded())
        .listen("0.0.0.0", port).meters(meters);
    if (!config.jwt().provider()) {
      // With an identity provider the development sign-in does not exist: its path is an unknown route.
      b.routing(signIn::routes);
    }
    if (replicator != null) {
      b.replicator(replicator);
    }
    return b.build();
  }

  /**
   * Drains {@code node} over {@code spread} ({@link SyncNode#drain()}) and waits until it is done, at most the spread
   * plus 10 s; answers what it did, or null when it did not finish (logged: the caller stops anyway).
   *
   * @throws InterruptedException when interrupted while waiting
   */
  static @Nullable Drained drain(SyncNode node, Duration spread) throws InterruptedException {
    try {
      return node.drain().get(spread.toMillis() + 10_000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      System.getLogger(Nodes.class.getName()).log(System.Logger.Level.WARNING,
          "The drain did not finish; stopping anyway: " + e);
      return null;
    }
  }
}
