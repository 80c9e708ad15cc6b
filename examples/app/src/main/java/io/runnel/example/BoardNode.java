package io.runnel.example;

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
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The board's sync node, as roles {@code all} and {@code sync} run it: the board's declarations, JWT sign-in (an
 * identity provider's keys, or the HS256 secret: {@link AppConfig.Jwt}), tickets signed with the shared ticket key,
 * the development sign-in ({@link DevSignIn}, absent with an identity provider), the page
 * ({@link BoardPage}) and the origins of {@code RUNNEL_ALLOWED_ORIGINS}.
 */
final class BoardNode {

  private BoardNode() {}

  /**
   * A node on {@code port}, not started.
   *
   * @param tickets where ticket claims are recorded: in memory for one process, {@link TicketStore#postgres} for
   *     sync nodes that honour each other's tickets
   * @param meters the registry {@code /metrics} shows (shared with a replicator in the same process)
   * @param replicator the stats of the replicator this process runs beside the node, for {@code /readyz}, or null
   */
  static SyncNode build(AppConfig config, DataSource pool, Transport bus, String jwtSecret, TicketStore tickets,
      int port, PrometheusMeterRegistry meters, @Nullable Supplier<ReplicatorStats> replicator) {
    Clock clock = Clock.systemUTC();
    DevSignIn signIn = DevSignIn.of(config.devSignIn(), pool, jwtSecret, clock);
    BoardPage page = BoardPage.load();
    // Over NATS the channels' events and presence reach the other nodes too; the in-process bus has none to reach.
    ChannelBus channels = config.bus() instanceof NatsConfig ? new TransportChannelBus(bus) : ChannelBus.local();
    SyncNode.Builder b = SyncNode.builder().declarations(BoardServer.declarations()).dataSource(pool).transport(bus)
        .channelBus(channels).authenticator(config.jwt().authenticator(jwtSecret))
        .tickets(Tickets.create(ticketKey(config.ticketSecret(), jwtSecret), tickets, clock))
        .allowedOrigins(config.allowedOrigins())
        .routing(page::routes).drainSpread(config.drainSpread())
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
      System.getLogger(BoardNode.class.getName()).log(System.Logger.Level.WARNING,
          "The drain did not finish; stopping anyway: " + e);
      return null;
    }
  }

  /**
   * The key tickets are signed with: {@code RUNNEL_TICKET_SECRET}'s bytes when set, else HMAC-SHA256 of the text
   * {@code runnel:tickets} under {@code RUNNEL_JWT_SECRET} (32 bytes), so nodes sharing the JWT secret share it and
   * a ticket's signature never doubles as a token's.
   */
  static byte[] ticketKey(@Nullable String ticketSecret, String jwtSecret) {
    if (ticketSecret != null) {
      return ticketSecret.getBytes(StandardCharsets.UTF_8);
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(jwtSecret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return mac.doFinal("runnel:tickets".getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }
}
