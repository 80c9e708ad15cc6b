package io.runnel.loadtest;

import static io.runnel.dsl.Dsl.desc;
import static io.runnel.dsl.Dsl.select;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.runnel.bus.InProcessTransport;
import io.runnel.dsl.EntityRef;
import io.runnel.dsl.NoInput;
import io.runnel.dsl.QueryRef;
import io.runnel.dsl.server.Declarations;
import io.runnel.dsl.server.Entity;
import io.runnel.dsl.server.Policy;
import io.runnel.dsl.server.Query;
import io.runnel.replicator.DatabaseUrl;
import io.runnel.replicator.Replicator;
import io.runnel.replicator.ReplicatorStats;
import io.runnel.sync.SyncNode;
import io.runnel.sync.auth.JwtAuthenticator;
import io.runnel.sync.socket.SocketLimits;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The Runnel side of the socket scenarios: a {@link SyncNode} on the embedded PostgreSQL with the in-process bus
 * and Runnel's replicator in the same JVM, serving two live queries: {@code feed}, the actor's tenant's rows of the
 * table {@code feed} ({@link #TABLE}), newest {@code seq} first, at most 20; and {@code notes} (scenario 4), the
 * same over the table {@code notes} ({@link #NOTES_TABLE}) with a row rule: a subscriber sees a note whose
 * {@code audience} is {@code all} or whose {@code owner} is the subscriber. Sign-in is an HS256 JWT ({@link #SECRET},
 * claims {@code sub} and {@code org_id}). Every node default holds except the idle budget (30 minutes instead of
 * 120 s, so quiet sockets need no heartbeat during a run).
 */
final class RunnelNode implements SocketNode.Server {

  /** The HS256 secret of the benchmark's tokens (a benchmark's, not a secret). */
  static final String SECRET = "runnel-bench-sockets-0123456789abcdef";
  /** The table's DDL: {@code seq} is the row's sequence number, {@code org} its tenant, {@code body} its text. */
  static final String TABLE = "CREATE TABLE feed (seq int8 PRIMARY KEY, org text NOT NULL, body text NOT NULL)";
  static final EntityRef FEED = EntityRef.of("feed").key("seq").columns(c -> c.int8("seq").text("org").text("body"));
  static final Entity FEED_ENTITY = Entity.of(FEED).table("public.feed").tenant("org");
  static final QueryRef<NoInput> QUERY = QueryRef.live("feed", NoInput.CODEC,
      in -> select(FEED).orderBy(desc("seq")).limit(20));
  /** Scenario 4's table: {@code audience} is {@code all} (everyone) or {@code owner} (its owner only). */
  static final String NOTES_TABLE = "CREATE TABLE notes (seq int8 PRIMARY KEY, org text NOT NULL, owner text NOT NULL,"
      + " audience text NOT NULL, body text NOT NULL)";
  static final EntityRef NOTES = EntityRef.of("notes").key("seq")
      .columns(c -> c.int8("seq").text("org").text("owner").text("audience").text("body"));
  static final Entity NOTES_ENTITY = Entity.of(NOTES).table("public.notes").tenant("org");
  static final QueryRef<NoInput> NOTES_QUERY = QueryRef.live("notes", NoInput.CODEC,
      in -> select(NOTES).orderBy(desc("seq")).limit(20));

  private final HikariDataSource pool;
  private final InProcessTransport bus;
  private final Replicator replicator;
  private final SyncNode node;

  private RunnelNode(HikariDataSource pool, InProcessTransport bus, Replicator replicator, SyncNode node) {
    this.pool = pool;
    this.bus = bus;
    this.replicator = replicator;
    this.node = node;
  }

  /** Starts the replicator and the node against the server on {@code pgPort}; returns once both serve. */
  static RunnelNode start(int pgPort) throws InterruptedException {
    String url = "jdbc:postgresql://127.0.0.1:" + pgPort + "/postgres?user=postgres";
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(8);
    HikariDataSource pool = new HikariDataSource(config);
    InProcessTransport bus = InProcessTransport.create();
    Replicator replicator = Replicator.builder().database(DatabaseUrl.parse("bench", url)).slot("bench_sockets")
        .publication("bench_sockets").entities(List.of(FEED_ENTITY, NOTES_ENTITY)).transport(bus).build();
    replicator.start();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (replicator.stats().state() != ReplicatorStats.State.STREAMING) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the replicator did not stream within 60 s: " + replicator.stats());
      }
      Thread.sleep(20);
    }
    Declarations declarations = Declarations.builder()
        .query(Query.of(QUERY).on(FEED_ENTITY).policy(Policy.authenticated()))
        .query(Query.of(NOTES_QUERY).on(NOTES_ENTITY).policy(Policy.authenticated()
            .visible((actor, row) -> "all".equals(row.get("audience"))
                || (actor.id() != null && Objects.equals(actor.id(), row.get("owner"))))))
        .build();
    SocketLimits d = SocketLimits.DEFAULTS;
    SyncNode node = SyncNode.builder().declarations(declarations).transport(bus).dataSource(pool)
        .authenticator(JwtAuthenticator.hs256(SECRET).build()).nodeId("bench")
        .limits(new SocketLimits(d.maxFrameBytes(), d.outboundBytes(), d.dropsBeforeClose(), Duration.ofMinutes(30),
            d.sendDeadline()))
        .listen("127.0.0.1", 0).build();
    node.start();
    return new RunnelNode(pool, bus, replicator, node);
  }

  @Override
  public int port() {
    return node.port();
  }

  @Override
  public String blast(double rate, long changes, double seconds, int tenants, int frameBytes) {
    throw new UnsupportedOperationException("a Runnel node's frames come from the database");
  }

  @Override
  public void stop() {
    node.stop();
    replicator.stop();
    bus.close();
    pool.close();
  }
}
